// Hono 4 with @hono/node-server (the real ones from npm): the recipe of hono.examples.ts through the mount suite.
import type { Server } from 'node:http';
import { start } from './hono.examples.js';
import { mountSuite } from './test-support/mount-suite.js';
import { onSocket } from './test-support/sockets.js';

mountSuite(
  'Hono 4 on @hono/node-server: app.all("/mcp", (c) => mcp(c.req.raw))',
  async () => {
    const { server } = await start(0);
    return onSocket(server as Server, '/mcp');
  },
  { maxBodyBytes: 1024 * 1024, other: { path: '/health', body: 'ok' } },
);
