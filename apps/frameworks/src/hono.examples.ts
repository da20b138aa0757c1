// Hono 4 on Node (@hono/node-server), quoted by the mounting guide and run by hono.test.ts.
// #region hono

import { createHttpHandler } from '@boomerang/transport-http';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createGreeter } from './greeter.examples.mjs';

const mcp = createHttpHandler(createGreeter(), {
  allowedHosts: ['localhost', '127.0.0.1', 'mcp.example.com'], // any port; list the names you serve
  maxBodyBytes: 1024 * 1024,
});

export const app = new Hono();
app.all('/mcp', (c) => mcp(c.req.raw)); // the web-standard Request in, its Response out
app.get('/health', (c) => c.text('ok'));

/** Serves `app` on 127.0.0.1 (`port` 0: a free one); resolves to the port. */
export function start(port = 3000): Promise<{ port: number; server: ReturnType<typeof serve> }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port }, (info) =>
      resolve({ port: info.port, server }),
    );
  });
}
// #endregion hono
