// Koa recipes, quoted by the mounting guide and run by koa.test.ts.
// #region koa

import { toNodeHandler } from '@boomerang/transport-http/node';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import { createGreeter } from './greeter.examples.mjs';

const mcp = toNodeHandler(createGreeter(), { maxBodyBytes: 1024 * 1024 });

export const app = new Koa();
app.use(async (ctx, next) => {
  if (ctx.path !== '/mcp') return next();
  ctx.respond = false; // the MCP handler writes the response
  await mcp(ctx.req, ctx.res);
});
app.use(bodyParser()); // after the endpoint: the MCP handler reads its body itself (413 past maxBodyBytes)
app.use((ctx) => {
  ctx.body = 'the rest of your app';
});
// #endregion koa

// #region patch-node
/** With the body parser first, `patchNode` leaves the parsed body on `ctx.req.body`, where MCP takes it. */
export function appWithParserFirst(): Koa {
  const app = new Koa();
  app.use(bodyParser({ patchNode: true, jsonLimit: '4mb' })); // above maxBodyBytes: the MCP limit answers
  app.use(async (ctx, next) => {
    if (ctx.path !== '/mcp') return next();
    ctx.respond = false;
    await mcp(ctx.req, ctx.res);
  });
  return app;
}
// #endregion patch-node
