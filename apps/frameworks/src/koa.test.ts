// Koa (the real one from npm, with @koa/bodyparser): the recipes of koa.examples.ts through the mount suite.
import { createServer } from 'node:http';
import { app, appWithParserFirst } from './koa.examples.js';
import { mountSuite } from './test-support/mount-suite.js';
import { onSocket } from './test-support/sockets.js';

const maxBodyBytes = 1024 * 1024;

mountSuite(
  'Koa: ctx.respond = false, then mcp(ctx.req, ctx.res), before the body parser',
  () => onSocket(createServer(app.callback()), '/mcp'),
  { maxBodyBytes, other: { path: '/health', body: 'the rest of your app' } },
);

mountSuite(
  'Koa: @koa/bodyparser first with patchNode (the body from ctx.req.body)',
  () => onSocket(createServer(appWithParserFirst().callback()), '/mcp'),
  { maxBodyBytes },
);
