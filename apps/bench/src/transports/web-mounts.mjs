// The web-standard handler as users of fetch frameworks mount it: `createHttpHandler(server)` (a
// `(Request) => Promise<Response>`), served on 127.0.0.1 by
//   web-hono  — @hono/node-server's own adapter, `serve({ fetch: handler })` (its light Request and Response);
//   hono-app  — a Hono app routing `/mcp` to it, `app.all('/mcp', (c) => mcp(c.req.raw))`, as the mounting guide
//               (apps/frameworks/src/hono.examples.ts) writes it;
//   web-node  — `listen(createHttpHandler(server))` of `@boomerang/transport-http/node` (node:http, a web Request
//               and Response built per message: the fetch-handler path of `listen`).
// The hono mounts give the handler the loopback Host/Origin allow-lists `listen` fills for itself, so every mount
// makes the same checks.

/** The allow-lists of a loopback endpoint on `port` (what `listen` fills in on a loopback bind). */
function loopback(port) {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  return {
    allowedHosts: names.map((name) => `${name}:${port}`),
    allowedOrigins: names.flatMap((name) => [`http://${name}:${port}`, `https://${name}:${port}`]),
  };
}

/** The mounts {@link serveMounted} knows. */
export const MOUNTS = ['node', 'web-node', 'web-hono', 'hono-app'];

/**
 * Serves `server` (a Server or McpServer) on 127.0.0.1 through `mount` (one of {@link MOUNTS} but `node`);
 * `options` are more `createHttpHandler` options. Resolves to `{ url, close }`.
 */
export async function serveMounted(server, mount, options = {}) {
  const { createHttpHandler } = await import('@boomerang/transport-http');
  if (mount === 'web-node') {
    const { listen } = await import('@boomerang/transport-http/node');
    const endpoint = await listen(createHttpHandler(server, options), { host: '127.0.0.1', port: 0 });
    return { url: endpoint.url, close: () => endpoint.close() };
  }
  if (mount !== 'web-hono' && mount !== 'hono-app') {
    throw new TypeError(`mount expected one of ${MOUNTS.join(', ')}, got ${mount}`);
  }
  const { serve } = await import('@hono/node-server');
  let mcp;
  let fetch = (request) => mcp(request);
  if (mount === 'hono-app') {
    const { Hono } = await import('hono');
    const app = new Hono();
    app.all('/mcp', (c) => mcp(c.req.raw));
    fetch = app.fetch;
  }
  const { port, http } = await new Promise((resolve) => {
    const http = serve({ fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
      resolve({ port: info.port, http }),
    );
  });
  mcp = createHttpHandler(server, { ...loopback(port), ...options });
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: async () => {
      await mcp.close();
      await new Promise((resolve) => {
        http.close(resolve);
        http.closeAllConnections?.();
      });
    },
  };
}
