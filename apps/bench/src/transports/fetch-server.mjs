// A fetch-handler server of the HTTP bench, for web-runtimes.bench.mjs: the workload served on 127.0.0.1 (a free
// port) by the runtime's own server (`Bun.serve`, `Deno.serve`; on Node, @hono/node-server's adapter). Prints
// `URL <endpoint> <runtime version>` once listening; runs until killed.
//
//   bun fetch-server.mjs <side>     deno run -A fetch-server.mjs <side>     node fetch-server.mjs <side>
//
// side `mcp`: `createHttpHandler(createMcpServer())` (McpServer, zod inputs, resolvers, sealed state), with the
// loopback Host/Origin allow-lists `listen` would fill; `boomerang`: the same over the hand-written low-level
// Server; `floor`: a hand-written fetch handler (`request.json()` in, `new Response(JSON text)` out, floor-server.mjs's
// callTool: no checks, no validation, no sealing), what the runtime, its Request/Response and JSON cost alone.
import { createHttpHandler } from '@boomerang/transport-http';
import { callTool } from './floor-server.mjs';

const runtime = /** @type {any} */ (globalThis);
const side = (runtime.Deno?.args ?? runtime.process.argv.slice(2))[0] ?? 'mcp';
const JSON_HEADERS = { 'content-type': 'application/json' };

/** The hand-written floor: trusts everything it is sent. */
async function floor(request) {
  const message = await request.json();
  const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: callTool(message.params) });
  return new Response(body, { headers: JSON_HEADERS });
}

async function serverOf(name) {
  if (name === 'mcp') return (await import('../flows/boomerang-mcp-server.mjs')).createMcpServer();
  if (name === 'boomerang') return (await import('../flows/boomerang-server.mjs')).createBoomerangServer();
  throw new TypeError(`side expected mcp, boomerang or floor, got ${name}`);
}

const server = side === 'floor' ? undefined : await serverOf(side);
/** @type {(request: Request) => Response | Promise<Response>} */
let handler = floor;
const fetch = (request) => handler(request);
const port = await serve(fetch);
if (server !== undefined) {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  handler = createHttpHandler(server, {
    allowedHosts: names.map((name) => `${name}:${port}`),
    allowedOrigins: names.flatMap((name) => [`http://${name}:${port}`, `https://${name}:${port}`]),
  });
}
const version =
  runtime.Bun !== undefined
    ? `bun ${runtime.Bun.version}`
    : runtime.Deno !== undefined
      ? `deno ${runtime.Deno.version.deno}`
      : `node ${runtime.process.version} (@hono/node-server)`;
console.log(`URL http://127.0.0.1:${port}/mcp ${version}`);

/** Serves `fetch` on 127.0.0.1 with the runtime's own server; resolves to the port. */
async function serve(fetch) {
  if (runtime.Bun !== undefined) return runtime.Bun.serve({ hostname: '127.0.0.1', port: 0, fetch }).port;
  if (runtime.Deno !== undefined) {
    return new Promise((resolve) => {
      runtime.Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: (info) => resolve(info.port) }, fetch);
    });
  }
  const { serve: serveNode } = await import('@hono/node-server');
  return new Promise((resolve) => {
    serveNode({ fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve(info.port));
  });
}
