// Express 5 (the real one from npm): the recipes of express.examples.ts through the mount suite, on 127.0.0.1.
import { toNodeHandler } from '@boomerang/transport-http/node';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { app, appWithParserFirst } from './express.examples.js';
import { createGreeter } from './fixtures/greeter.mjs';
import { greet, listBody, listHeaders, mountSuite } from './test-support/mount-suite.js';
import { onSocket } from './test-support/sockets.js';

const maxBodyBytes = 1024 * 1024;

mountSuite(
  'Express 5: app.all("/mcp", mcp) before the body parser',
  () => onSocket(app.listen(0, '127.0.0.1'), '/mcp'),
  {
    maxBodyBytes,
    other: { path: '/health', body: 'ok' },
  },
);

mountSuite(
  'Express 5: app.use("/api/mcp", mcp) after express.json() (the body from req.body)',
  () => onSocket(appWithParserFirst().listen(0, '127.0.0.1'), '/api/mcp'),
  { maxBodyBytes },
);

describe('Express 5 mounting details', () => {
  it('a Router under a mount point: path "/" below it, others fall through to the next route', async () => {
    const router = express.Router();
    router.use('/mcp', toNodeHandler(createGreeter(), { path: '/' }));
    router.get('/mcp/tools', (_req, res) => {
      res.send('not MCP');
    });
    const app = express();
    app.use('/api', router);
    const seen: string[] = [];
    app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      seen.push(error.message);
      res.status(500).send('error handler');
    });
    const mounted = await onSocket(app.listen(0, '127.0.0.1'), '/api/mcp');
    try {
      expect((await greet(mounted)).text).toBe('Hello, Ada!');
      const below = await mounted.send({ method: 'GET', path: '/api/mcp/tools' });
      expect([below.status, below.body]).toEqual([200, 'not MCP']);
      const missing = await mounted.send({ method: 'GET', path: '/api/mcp/nothing' });
      expect(missing.status).toBe(404); // Express's own 404, after the fall-through
      expect(seen).toEqual([]); // nothing went to the error handler
    } finally {
      await mounted.close();
    }
  });

  it("express.json()'s own refusals answer before MCP: its limit (413) and its parse errors (400)", async () => {
    const app = express();
    app.use(express.json({ limit: '1kb' }));
    app.use('/mcp', toNodeHandler(createGreeter()));
    const mounted = await onSocket(app.listen(0, '127.0.0.1'), '/mcp');
    try {
      const large = await mounted.send({ headers: listHeaders, body: listBody(2048) });
      expect(large.status).toBe(413);
      expect(large.body).not.toMatch(/jsonrpc/); // Express's error page, not the endpoint's
      const broken = await mounted.send({ headers: listHeaders, body: '{' });
      expect(broken.status).toBe(400);
      expect((await mounted.send({ headers: listHeaders, body: listBody() })).status).toBe(200);
    } finally {
      await mounted.close();
    }
  });
});
