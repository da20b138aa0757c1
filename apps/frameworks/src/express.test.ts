// Express 5 (the real one from npm): the recipes of express.examples.ts through the mount suite, on 127.0.0.1.
import { bearerAuth, createDpopSession, protectedResourceMetadata } from '@boomerang/auth';
import { dpopVerifier, generateDpopKey } from '@boomerang/auth/jwt';
import { toNodeHandler } from '@boomerang/transport-http/node';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { appWithParserFirst, serve } from './express.examples.js';
import { createGreeter } from './greeter.examples.mjs';
import { greet, listBody, listHeaders, mountSuite } from './test-support/mount-suite.js';
import { onSocket } from './test-support/sockets.js';

const maxBodyBytes = 1024 * 1024;

mountSuite('Express 5: app.all("/mcp", mcp) before the body parser', () => onSocket(serve(0), '/mcp'), {
  maxBodyBytes,
  other: { path: '/health', body: 'ok' },
});

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

describe('Express 5 with DPoP', () => {
  it('an absolute-form target (POST http://evil.example/mcp) does not choose the host htu is checked against', async () => {
    const key = await generateDpopKey();
    const session = createDpopSession(key);
    const rejected: string[] = [];
    const app = express();
    const mounted = await onSocket(app.listen(0, '127.0.0.1'), '/mcp');
    const here = mounted.url.host;
    const prm = protectedResourceMetadata({
      resource: mounted.url.href,
      authorization_servers: ['https://as.example'],
    });
    const authenticate = bearerAuth({
      resourceMetadata: prm.url,
      dpop: dpopVerifier({ onReject: (reason) => rejected.push(reason) }),
      dpopRequired: true,
      verify: (token) =>
        token === 'at-1' ? { scopes: [], extra: { cnf: { jkt: key.thumbprint } } } : undefined,
    });
    // Express routes an absolute-form target by its path: this route serves `POST http://evil.example/mcp` too.
    app.all('/mcp', toNodeHandler(createGreeter(), { authenticate }));
    const send = async (path: string, htu: string) =>
      mounted.send({
        path,
        headers: {
          ...listHeaders,
          host: here,
          authorization: 'DPoP at-1',
          dpop: await session.proof('POST', new URL(htu), 'at-1'),
        },
        body: listBody(),
      });
    try {
      // The node handler refuses a target naming another host than the Host header (400), before authentication.
      const forged = await send('http://evil.example/mcp', 'http://evil.example/mcp');
      expect(forged.status).toBe(400);
      expect(rejected).toEqual([]);
      // A proof for another host sent to this one fails htu.
      const elsewhere = await send('/mcp', 'http://evil.example/mcp');
      expect(elsewhere.status).toBe(401);
      expect(elsewhere.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_dpop_proof"/);
      expect(rejected).toEqual(['htu']);
      expect((await send('/mcp', `http://${here}/mcp`)).status).toBe(200);
      expect((await send(`http://${here}/mcp`, `http://${here}/mcp`)).status).toBe(200);
    } finally {
      await mounted.close();
    }
  });
});
