// Child process of the transport bench: serves the workload over Streamable HTTP on 127.0.0.1 (JSON responses)
// for one SDK, `node http-server.mjs boomerang|mcp|mcp-otel|official` (`mcp`: McpServer + resolvers, `mcp-otel` the same
// with serverTelemetry(); or `floor`: transports/floor-server.mjs, no SDK). Talks
// to the parent over IPC: sends `{ type: 'ready', url }` once listening, answers `{ type: 'stats' }` with its own
// `process.cpuUsage()` and memory, and on `{ type: 'exit' }` (or when the parent goes away) closes the server and
// exits, so `--cpu-prof` gets written.
//
// Boomerang: `listen(server)` from `@boomerang/transport-http/node` (createHttpHandler behind node:http, its
// loopback Host/Origin checks on), or with BENCH_MOUNT the web-standard `createHttpHandler(server)` as users of
// fetch frameworks mount it (transports/web-mounts.mjs: `web-hono`, `hono-app`, `web-node`). Official 2.4.0: `createMcpHandler(factory, { legacy: 'reject', responseMode:
// 'json' })` — the SDK builds one McpServer per request from the factory — with the Host/Origin checks its docs
// put in front (`hostHeaderValidationResponse`, `originValidationResponse`), mounted on node:http by a minimal
// bridge (the SDK's own `toNodeHandler` lives in `@modelcontextprotocol/node`, which has no 2.4.0 release).
import { createServer } from 'node:http';
import process from 'node:process';

const side = process.argv[2];
const { url, close } =
  side === 'boomerang' || side === 'mcp' || side === 'mcp-otel'
    ? await serveBoomerang(side)
    : side === 'floor'
      ? await (await import('./floor-server.mjs')).serveFloor()
      : await serveOfficial();

process.on('message', (message) => {
  if (message?.type === 'stats') {
    if (message.gc) globalThis.gc?.(); // only under --expose-gc (see the bench's --server-flags)
    const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
    process.send({
      type: 'stats',
      id: message.id,
      cpu: process.cpuUsage(),
      rss,
      heapUsed,
      heapTotal,
      external,
      maxRss: process.resourceUsage().maxRSS * 1024,
    });
  } else if (message?.type === 'exit') {
    void shutDown();
  }
});
process.on('disconnect', () => void shutDown());
process.send({ type: 'ready', url: String(url), pid: process.pid });

let stopping = false;
async function shutDown() {
  if (stopping) return;
  stopping = true;
  const timer = setTimeout(() => process.exit(0), 2000);
  await close().catch(() => {});
  clearTimeout(timer);
  process.exit(0);
}

async function serveBoomerang(side) {
  // `mcp`: the same workload written with McpServer, zod inputs and resolvers (state sealed by default). Each side
  // loads only its own module, so the low-level side's process holds no zod nor McpServer.
  // `mcp-otel`: the same McpServer with serverTelemetry() recording through an SDK whose exporter drops the spans.
  const [{ listen }, server] = await Promise.all([
    import('@boomerang/transport-http/node'),
    side === 'mcp'
      ? import('../flows/boomerang-mcp-server.mjs').then((flows) => flows.createMcpServer())
      : side === 'mcp-otel'
        ? import('../flows/boomerang-mcp-otel.mjs').then((flows) => flows.createTracedMcpServer())
        : import('../flows/boomerang-server.mjs').then((flows) => flows.createBoomerangServer()),
  ]);
  // BENCH_SPIN_US: a busy-wait of that many µs before every message (cpu-per-flow.bench.mjs --spin-b): a known
  // cost, to calibrate a measuring method.
  const spin = Number(process.env.BENCH_SPIN_US || 0);
  if (spin > 0) {
    const handle = server.handle.bind(server);
    server.handle = (message, ctx) => {
      const until = performance.now() + spin / 1000;
      while (performance.now() < until);
      return handle(message, ctx);
    };
  }
  // BENCH_LISTEN_OPTIONS: more listen() options, as JSON (cpu-per-flow.bench.mjs --opts-a / --opts-b).
  const more = JSON.parse(process.env.BENCH_LISTEN_OPTIONS ?? '{}');
  // BENCH_MOUNT: how the server is mounted (transports.bench.mjs / cpu-per-flow.bench.mjs --mount).
  const mount = process.env.BENCH_MOUNT || 'node';
  if (mount === 'node') {
    const endpoint = await listen(server, { host: '127.0.0.1', port: 0, ...more });
    return { url: endpoint.url, close: () => endpoint.close() };
  }
  return (await import('./web-mounts.mjs')).serveMounted(server, mount, more);
}

async function serveOfficial() {
  const [sdk, { buildServer, createCodec }] = await Promise.all([
    import('@modelcontextprotocol/server'),
    import('../flows/official-server.mjs'),
  ]);
  const codec = createCodec();
  const handler = sdk.createMcpHandler(() => buildServer(codec), {
    legacy: 'reject',
    responseMode: 'json',
    onerror: (error) => console.error('official server error:', error),
  });
  const hostnames = sdk.localhostAllowedHostnames();
  const origins = sdk.localhostAllowedOrigins();
  const http = createServer((req, res) => {
    void bridge(req, res, async (request) => {
      const rejected =
        sdk.hostHeaderValidationResponse(request, hostnames) ??
        sdk.originValidationResponse(request, origins);
      return rejected ?? handler.fetch(request);
    });
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address();
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: async () => {
      await handler.close();
      await new Promise((resolve) => {
        http.close(resolve);
        http.closeAllConnections();
      });
    },
  };
}

/** node:http → web Request → fetch handler → node:http: the body read whole, the response streamed back. */
async function bridge(req, res, fetchHandler) {
  try {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const headers = new Headers();
    for (const [name, values] of Object.entries(req.headersDistinct)) {
      for (const value of values ?? []) headers.append(name, value);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url}`, {
      method: req.method,
      headers,
      ...(hasBody && { body: Buffer.concat(chunks) }),
    });
    const response = await fetchHandler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) return void res.end();
    for await (const chunk of response.body) res.write(chunk);
    res.end();
  } catch (error) {
    console.error('official bridge error:', error);
    if (!res.headersSent) res.writeHead(500).end();
    else res.destroy();
  }
}
