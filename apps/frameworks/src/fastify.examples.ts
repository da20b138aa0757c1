// Fastify 5 recipes, quoted by the mounting guide and run by fastify.test.ts.
// #region fastify
import { toNodeHandler } from '@boomerang/transport-http/node';
import Fastify, { type FastifyInstance } from 'fastify';
import { createGreeter } from './greeter.examples.mjs';

/** The MCP endpoint as a Fastify plugin: its content-type parsers stay inside it. */
export async function mcpPlugin(app: FastifyInstance): Promise<void> {
  const mcp = toNodeHandler(createGreeter(), { maxBodyBytes: 1024 * 1024 });
  // Leave the body unread: the MCP handler reads it itself, under its own limit (413 past it).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  app.all('/mcp', async (request, reply) => {
    reply.hijack(); // the MCP handler writes the response
    await mcp(request.raw, reply.raw);
  });
}

export const app: FastifyInstance = Fastify();
await app.register(mcpPlugin);
app.get('/health', async () => 'ok'); // the rest of your app keeps Fastify's parsers
// #endregion fastify

// #region parsed
/** Alternatively, keep Fastify's JSON parser and hand its result over as `req.body`. */
export async function parsedBodyPlugin(app: FastifyInstance): Promise<void> {
  const mcp = toNodeHandler(createGreeter(), { maxBodyBytes: 1024 * 1024 });
  app.all('/mcp', async (request, reply) => {
    reply.hijack();
    await mcp(Object.assign(request.raw, { body: request.body }), reply.raw);
  });
}
// #endregion parsed
