// toNodeHandler on node:http servers the tests own (127.0.0.1): the requests handed over, `path` and `next`, the
// loopback Host guard, bodies a parser already read, the URL `authenticate` sees, close(). The frameworks
// themselves (Express, Fastify, Koa…) are driven in apps/frameworks.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { Client } from '@boomerang/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StreamableHttpClientTransport } from './client.js';
import { createHttpHandler } from './handler.js';
import { initializeRequest } from './legacy/test-support/fixture.js';
import { type NodeHandler, requestUrl, toNodeHandler } from './node-handler.js';
import { headersFor, makeServer, rpc } from './test-support/fixture.js';
import { raw } from './test-support/raw-http.js';

type Serve = (req: IncomingMessage, res: ServerResponse) => unknown;

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A node:http server of the test's own on 127.0.0.1, serving `serve`; resolves to its base URL. */
async function own(serve: Serve): Promise<URL> {
  const server = createServer((req, res) => void serve(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
}

/** What a body parser does (express.json(), express.text(), express.raw()…): reads the stream, sets req.body. */
async function parseBody(req: IncomingMessage, as: 'json' | 'text' | 'bytes' | 'nothing'): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  const parsed = {
    json: () => JSON.parse(bytes.toString()),
    text: () => bytes.toString(),
    bytes: () => bytes,
  };
  if (as !== 'nothing') (req as { body?: unknown }).body = parsed[as]();
}

const list = rpc('tools/list');
const listHeaders = () => Object.fromEntries(headersFor(list));
const body = JSON.stringify(list);

/** A client that answers `ask`'s color question, connected to `url`. */
async function clientOn(url: URL): Promise<Client> {
  const client = new Client(
    { name: 'node-handler-test', version: '1.0.0' },
    { elicitation: async () => ({ action: 'accept', content: { color: 'teal' } }) },
  );
  await client.connect(new StreamableHttpClientTransport(url, { onWarning: () => {} }));
  return client;
}

async function askColor(url: URL): Promise<unknown> {
  const client = await clientOn(url);
  try {
    return (await client.callTool('ask')).content;
  } finally {
    await client.close();
  }
}

const teal = [{ type: 'text', text: 'color: teal' }];

describe('toNodeHandler on a node:http server you own', () => {
  it('serves every request handed over (no path): a two-round MRTR call, JSON with Content-Length', async () => {
    const mcp = toNodeHandler(makeServer());
    const base = await own((req, res) => mcp(req, res));
    expect(await askColor(new URL('/anywhere', base))).toEqual(teal);
    const ok = await raw(new URL('/elsewhere?x=1', base), { headers: listHeaders(), body });
    expect([ok.status, Number(ok.headers['content-length'])]).toEqual([200, Buffer.byteLength(ok.body)]);
    const get = await raw(base, { method: 'GET' });
    expect([get.status, get.headers.allow]).toEqual([405, 'POST']);
  });

  it('path: serves that path only (query string aside); others go to next, awaited, or 404 without next', async () => {
    const mcp = toNodeHandler(makeServer(), { path: '/mcp' });
    const order: string[] = [];
    const withNext = await own(async (req, res) => {
      await mcp(req, res, async () => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`app ${req.url}`);
        order.push('next done');
      });
      order.push('handler resolved');
    });
    const app = await raw(new URL('/mcp/tools', withNext), { method: 'GET' });
    expect([app.status, app.body]).toEqual([200, 'app /mcp/tools']);
    expect(order).toEqual(['next done', 'handler resolved']);
    expect((await raw(new URL('/mcp?session=1', withNext), { headers: listHeaders(), body })).status).toBe(
      200,
    );
    expect(await askColor(new URL('/mcp', withNext))).toEqual(teal);
    const dotted = await raw(withNext, { method: 'GET', path: '/x/../mcp' }); // not normalized into /mcp
    expect(dotted.body).toBe('app /x/../mcp');

    const alone = await own((req, res) => mcp(req, res));
    const missing = await raw(new URL('/other', alone), { method: 'GET' });
    expect([missing.status, missing.body]).toEqual([404, 'Not Found']);
    expect(() => toNodeHandler(makeServer(), { path: 'mcp' })).toThrow(/starting with "\/"/);
  });

  it('without allowedHosts, a request that reached a loopback address must name a loopback Host (DNS rebinding → 403)', async () => {
    const native = toNodeHandler(makeServer());
    const fetchBased = toNodeHandler(createHttpHandler(makeServer()));
    for (const mcp of [native, fetchBased]) {
      const base = await own((req, res) => mcp(req, res));
      const rebound = await raw(base, {
        headers: { ...listHeaders(), host: `evil.example:${base.port}` },
        body,
      });
      expect(rebound.status).toBe(403);
      expect(JSON.parse(rebound.body).error).toEqual({
        code: -32600,
        message: `Forbidden: Host "evil.example:${base.port}" is not allowed`,
      });
      const otherPort = await raw(base, { headers: { ...listHeaders(), host: '127.0.0.1:1' }, body });
      expect(otherPort.status).toBe(403);
      for (const host of [`localhost:${base.port}`, `[::1]:${base.port}`, `127.0.0.1:${base.port}`]) {
        expect((await raw(base, { headers: { ...listHeaders(), host }, body })).status, host).toBe(200);
      }
      // Origins keep the endpoint's rule: same origin only, unless allowedOrigins says more.
      const crossSite = await raw(base, {
        headers: { ...listHeaders(), origin: 'http://evil.example' },
        body,
      });
      expect(crossSite.status).toBe(403);
      const sameOrigin = await raw(base, { headers: { ...listHeaders(), origin: base.origin }, body });
      expect(sameOrigin.status).toBe(200);
    }
  });

  it('with allowedHosts, those names are served on loopback too (a reverse proxy), and no others', async () => {
    const options = { allowedHosts: ['mcp.example.com'], allowedOrigins: ['https://app.example.com'] };
    for (const mcp of [
      toNodeHandler(makeServer(), options),
      toNodeHandler(createHttpHandler(makeServer(), options), options), // its own policy, and the guard
    ]) {
      const base = await own((req, res) => mcp(req, res));
      const proxied = { ...listHeaders(), host: 'mcp.example.com', origin: 'https://app.example.com' };
      expect((await raw(base, { headers: proxied, body })).status).toBe(200);
      expect((await raw(base, { headers: listHeaders(), body })).status).toBe(403); // 127.0.0.1:<port> not listed
      const page = await raw(base, { headers: { ...proxied, origin: 'https://evil.example' }, body });
      expect(page.status).toBe(403);
    }
  });

  it('takes a body a parser already read from req.body (object, string, bytes), held to maxBodyBytes', async () => {
    for (const as of ['json', 'text', 'bytes'] as const) {
      for (const mcp of [
        toNodeHandler(makeServer(), { maxBodyBytes: 1024 }),
        toNodeHandler(createHttpHandler(makeServer(), { maxBodyBytes: 1024 })),
      ]) {
        const base = await own(async (req, res) => {
          await parseBody(req, as);
          await mcp(req, res);
        });
        expect(await askColor(base), as).toEqual(teal);
        const big = JSON.stringify(rpc('tools/list', { padding: 'x'.repeat(2000) }));
        const tooLarge = await raw(base, { headers: listHeaders(), body: big });
        expect([tooLarge.status, JSON.parse(tooLarge.body).error.message]).toEqual([
          413,
          'Payload Too Large: the body exceeds 1024 bytes',
        ]);
        const notJson = await raw(base, {
          headers: { ...listHeaders(), 'content-type': 'text/plain' },
          body,
        });
        expect(notJson.status).toBe(415);
      }
    }
  });

  it('answers 400 saying why when a parser read the stream and left nothing on req.body', async () => {
    for (const mcp of [toNodeHandler(makeServer()), toNodeHandler(createHttpHandler(makeServer()))]) {
      const base = await own(async (req, res) => {
        await parseBody(req, 'nothing');
        await mcp(req, res);
      });
      const lost = await raw(base, { headers: listHeaders(), body });
      expect(lost.status).toBe(400);
      expect(JSON.parse(lost.body).error.message).toMatch(
        /^Bad Request: the body was read before the MCP handler \(a body parser\?\) and req.body holds nothing/,
      );
      // A GET has no body to lose: it is answered as ever.
      expect((await raw(base, { method: 'GET' })).status).toBe(405);
    }
  });

  it('authenticate sees the URL the client asked for: originalUrl under a mount point, https on a TLS socket', async () => {
    const seen: string[] = [];
    const mcp = toNodeHandler(makeServer(), {
      authenticate: (request) => {
        seen.push(request.url);
        return undefined;
      },
    });
    const base = await own((req, res) => {
      // What Express does under app.use('/api', …): req.url below the mount point, the full one kept aside.
      Object.assign(req, { originalUrl: req.url, url: req.url?.replace(/^\/api/, '') || '/' });
      if (req.headers['x-tls'] === '1') Object.assign(req.socket, { encrypted: true });
      return mcp(req, res);
    });
    await raw(base, { path: '/api/mcp?k=v', headers: listHeaders(), body });
    await raw(new URL('/api', base), { headers: { ...listHeaders(), 'x-tls': '1' }, body });
    expect(seen).toEqual([`${base.origin}/api/mcp?k=v`, `https://${base.host}/api`]);
  });

  it('a target that makes no URL is 400; a throwing fetch handler answers 500 and goes to onError', async () => {
    const mcp = toNodeHandler(makeServer());
    const base = await own((req, res) => mcp(req, res));
    const socket = connect(Number(base.port), '127.0.0.1');
    socket.end(`POST http://[bad/mcp HTTP/1.1\r\nHost: ${base.host}\r\nContent-Length: 0\r\n\r\n`);
    let answer = '';
    for await (const chunk of socket) answer += String(chunk);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\nBad Request: unreadable request target\r\n/);

    const onError = vi.fn();
    const broken = toNodeHandler(
      async () => {
        throw new Error('broken');
      },
      { onError },
    );
    const brokenBase = await own((req, res) => broken(req, res));
    const response = await raw(brokenBase, { headers: listHeaders(), body });
    expect([response.status, response.body]).toEqual([500, 'Internal Server Error']);
    expect(onError).toHaveBeenCalledWith(new Error('broken'));
  });

  it('close() ends the 2025-11-25 sessions it keeps (a fetch handler: its own close())', async () => {
    const mcp: NodeHandler = toNodeHandler(makeServer());
    const base = await own((req, res) => mcp(req, res));
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await raw(base, { headers, body: JSON.stringify(initializeRequest()) });
    const session = String(init.headers['mcp-session-id']);
    expect(init.status).toBe(200);
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const sessionHeaders = { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    expect((await raw(base, { headers: sessionHeaders, body: ping })).status).toBe(200);
    await mcp.close();
    expect((await raw(base, { headers: sessionHeaders, body: ping })).status).toBe(404);

    const close = vi.fn(async () => {});
    const wrapped = toNodeHandler(Object.assign(async () => new Response(null), { close }));
    await wrapped.close();
    expect(close).toHaveBeenCalledOnce();
    await toNodeHandler(async () => new Response(null)).close(); // a plain fetch handler has nothing to end
  });
});

describe('requestUrl: the URL a node request names is on its Host header, whatever its target', () => {
  const req = (target: string, host = 'mcp.example:8080', extra: object = {}) =>
    ({ url: target, headers: { host }, socket: {}, ...extra }) as unknown as IncomingMessage;

  it('keeps origin-form targets (also those that start with //) on the Host header', () => {
    expect(requestUrl(req('/mcp?x=1'))).toBe('http://mcp.example:8080/mcp?x=1');
    expect(requestUrl(req('//evil.example/mcp'))).toBe('http://mcp.example:8080//evil.example/mcp');
    expect(requestUrl(req('/mcp', 'mcp.example', { socket: { encrypted: true } }))).toBe(
      'https://mcp.example/mcp',
    );
    expect(requestUrl(req('/inner', 'h', { originalUrl: '/mounted/inner' }))).toBe('http://h/mounted/inner');
  });

  it('refuses a Host header that is more than an authority: a path, query, fragment or userinfo (probe)', () => {
    for (const host of [
      'mcp.example/admin',
      'evil@mcp.example',
      'mcp.example?x',
      'mcp.example#f',
      'a b',
      'h\\x',
    ]) {
      expect(requestUrl(req('/mcp', host)), host).toBeUndefined();
    }
    expect(requestUrl(req('/mcp', '[::1]:8080'))).toBe('http://[::1]:8080/mcp');
  });

  it('accepts an absolute-form target only when it names the Host header (case and default port aside)', () => {
    expect(requestUrl(req('http://mcp.example:8080/mcp?a'))).toBe('http://mcp.example:8080/mcp?a');
    expect(requestUrl(req('HTTP://MCP.EXAMPLE:8080/mcp'))).toBe('http://mcp.example:8080/mcp');
    expect(requestUrl(req('http://mcp.example:80/mcp', 'mcp.example'))).toBe('http://mcp.example/mcp');
    for (const target of [
      'http://evil.example/mcp',
      'http://mcp.example:9090/mcp',
      'https://evil.example:8080/mcp',
      'ftp://mcp.example:8080/mcp',
      '*',
      'evil.example:8080',
    ]) {
      expect(requestUrl(req(target)), target).toBeUndefined();
    }
  });

  it('over a socket: an absolute-form target naming another host is 400 on toNodeHandler and on listen() routes', async () => {
    const handler = toNodeHandler(createHttpHandler(makeServer(), { allowedHosts: ['127.0.0.1'] }));
    const url = await own(handler);
    const absolute = (path: string, host: string) =>
      raw(url, { path, headers: { ...listHeaders(), host }, body });
    expect((await absolute('http://evil.example/', `127.0.0.1:${url.port}`)).status).toBe(400);
    expect((await absolute(`http://127.0.0.1:${url.port}/`, `127.0.0.1:${url.port}`)).status).toBe(200);
    const { listen } = await import('./node.js');
    const endpoint = await listen(makeServer(), {
      port: 0,
      routes: { '/health': () => new Response('ok') },
    });
    servers.push(endpoint);
    const health = (path: string) =>
      raw(endpoint.url, { method: 'GET', path, headers: { host: endpoint.url.host } });
    expect((await health(`http://evil.example/health`)).status).toBe(400);
    expect((await health(`http://${endpoint.url.host}/health`)).status).toBe(200);
  });
});
