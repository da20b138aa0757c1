// The Chromium tests' world, all on 127.0.0.1: the host page and the MCP endpoint on one origin, the sandbox
// proxy on a second, and an attacker (a page that posts messages, and an origin a view may or may not reach) on a
// third. Browser entries are bundled with esbuild from sources when the harness starts.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@boomerang/mcp-server';
import { listen } from '@boomerang/transport-http/node';
import { build } from 'esbuild';
import { sandboxProxyHtml } from '../host/sandbox-proxy.js';

/** Where Debian's chromium lives; the tests skip with this message when it is missing (and fail under CI). */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_MISSING = existsSync(CHROMIUM)
  ? undefined
  : `${CHROMIUM} is missing: apt-get install chromium to run the browser tests`;
if (CHROMIUM_MISSING !== undefined && process.env.CI) throw new Error(CHROMIUM_MISSING);

/** Chromium flags for a quiet headless run. */
export const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** A running harness. */
export interface Harness {
  /** The host page. */
  readonly hostUrl: URL;
  /** The MCP endpoint (same origin as the host page). */
  readonly mcpUrl: URL;
  /** The sandbox proxy page (its own origin). */
  readonly sandboxUrl: URL;
  /** The attacker's origin: `/attack.html` posts into the host page; `/ping` answers anyone. */
  readonly attackerUrl: URL;
  close(): Promise<void>;
}

const HTML = { 'content-type': 'text/html; charset=utf-8' };

/** Bundles a browser entry (TypeScript sources through the `@boomerang/source` condition). */
export async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['@boomerang/source'],
    write: false,
    logLevel: 'silent',
  });
  const [file] = result.outputFiles;
  if (file === undefined) throw new Error(`esbuild wrote nothing for ${entry}`);
  return file.text;
}

async function staticServer(routes: Record<string, () => Response>): Promise<{ url: URL; server: Server }> {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const route = routes[path];
    const response = route ? route() : new Response('not found', { status: 404 });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`http://127.0.0.1:${port}/`), server };
}

/**
 * Starts the endpoint serving `makeServer(attackerOrigin)` with the host page (`/host.html` loading `script`), the sandbox proxy and
 * the attacker. `attack` is the attacker page's script; it receives the host page URL in `location.hash`.
 */
export async function startHarness(
  makeServer: (attackerOrigin: string) => McpServer,
  script: string,
  attack = '',
): Promise<Harness> {
  const sandbox = await staticServer({
    '/sandbox.html': () => new Response(sandboxProxyHtml(), { headers: HTML }),
  });
  const attacker = await staticServer({
    '/attack.html': () =>
      new Response(`<!DOCTYPE html><html><body><script>${attack}</script></body></html>`, { headers: HTML }),
    '/ping': () => new Response('pong', { headers: { 'access-control-allow-origin': '*' } }),
  });
  const page = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>host</title></head>
<body><div id="views"></div><script type="module" src="/host.js"></script></body></html>`;
  const endpoint = await listen(makeServer(attacker.url.origin), {
    port: 0,
    routes: {
      '/host.html': () => new Response(page, { headers: HTML }),
      '/host.js': () => new Response(script, { headers: { 'content-type': 'text/javascript' } }),
    },
  });
  const closeServer = (server: Server) =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    hostUrl: new URL('/host.html', endpoint.url),
    mcpUrl: endpoint.url,
    sandboxUrl: new URL('/sandbox.html', sandbox.url),
    attackerUrl: attacker.url,
    async close() {
      await endpoint.close();
      await closeServer(sandbox.server);
      await closeServer(attacker.server);
    },
  };
}
