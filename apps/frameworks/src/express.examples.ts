// Express 5 recipes, quoted by the mounting guide and run by express.test.ts.
// #region express
import { toNodeHandler } from '@boomerang/transport-http/node';
import express from 'express';
import { createGreeter } from './greeter.examples.mjs';

export const app: express.Express = express();
// Before any body parser: the MCP handler reads the body itself, under its own limit (413 past it).
app.all('/mcp', toNodeHandler(createGreeter(), { maxBodyBytes: 1024 * 1024 }));
app.use(express.json()); // the rest of your API
app.get('/health', (_req, res) => {
  res.send('ok');
});

/** Serves the app on 127.0.0.1 (port 3000 unless told; `0` picks a free one). */
export function serve(port = 3000) {
  return app.listen(port, '127.0.0.1');
}
// #endregion express

// #region after-parser
/** An app whose JSON parser runs for every path: the MCP handler then takes the parsed body from `req.body`. */
export function appWithParserFirst(): express.Express {
  const app = express();
  app.use(express.json({ limit: '4mb' })); // above maxBodyBytes, so that the MCP limit is the one that answers
  app.use('/api/mcp', toNodeHandler(createGreeter(), { maxBodyBytes: 1024 * 1024 }));
  return app;
}
// #endregion after-parser
