// Fastify 5 (the real one from npm): the recipes of fastify.examples.ts through the mount suite, on 127.0.0.1.
import Fastify from 'fastify';
import { app, parsedBodyPlugin } from './fastify.examples.js';
import { mountSuite } from './test-support/mount-suite.js';
import { onSocket } from './test-support/sockets.js';

const maxBodyBytes = 1024 * 1024;

mountSuite(
  'Fastify 5: a plugin that leaves the body to the MCP handler (raw request, hijacked reply)',
  async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    return onSocket(app.server, '/mcp', () => app.close());
  },
  { maxBodyBytes, other: { path: '/health', body: 'ok' } },
);

mountSuite(
  "Fastify 5: Fastify's JSON parser first, its result handed over as req.body",
  async () => {
    // bodyLimit above maxBodyBytes, so that the MCP limit is the one that answers.
    const parsed = Fastify({ bodyLimit: 4 * 1024 * 1024 });
    await parsed.register(parsedBodyPlugin);
    await parsed.listen({ port: 0, host: '127.0.0.1' });
    return onSocket(parsed.server, '/mcp', () => parsed.close());
  },
  { maxBodyBytes },
);
