import { request as httpRequest } from 'node:http';
import { Client } from '@boomerang/client';
import type { HandleContext, MessageHandler } from '@boomerang/protocol/transport';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StreamableHttpClientTransport } from './client.js';
import { createHttpHandler } from './handler.js';
import { type Listening, listen } from './node.js';
import { headersFor, makeServer, meta, type Observed, rpc, tools } from './test-support/fixture.js';

// Real sockets on 127.0.0.1: the node:http adapter, and the smoke test of Client ↔ Server over it.

const running: Listening[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function start(...args: Parameters<typeof listen>): Promise<Listening> {
  const server = await listen(...args);
  running.push(server);
  return server;
}

/** A raw HTTP exchange, so tests can send any Host header and read the status. */
function raw(
  url: URL,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'POST',
        path: options.path ?? url.pathname,
        headers: options.headers,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const list = rpc('tools/list');
const listHeaders = () => Object.fromEntries(headersFor(list));

describe('listen', () => {
  it('binds 127.0.0.1 on a free port; url includes the path; other paths 404; GET 405', async () => {
    const server = await start(makeServer());
    expect(server.url.hostname).toBe('127.0.0.1');
    expect(server.url.pathname).toBe('/mcp');
    expect(Number(server.url.port)).toBeGreaterThan(0);
    const ok = await raw(server.url, { headers: listHeaders(), body: JSON.stringify(list) });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).result.tools).toBeDefined();
    const other = await raw(server.url, { path: '/other', headers: listHeaders(), body: '{}' });
    expect([other.status, other.body]).toEqual([404, 'Not Found']);
    const get = await raw(server.url, { method: 'GET' });
    expect([get.status, get.headers.allow]).toEqual([405, 'POST']);
  });

  it('fills the Host and Origin allow-lists for a loopback bind (DNS rebinding → 403)', async () => {
    const server = await start(makeServer(), { path: '/rpc' });
    expect(server.url.pathname).toBe('/rpc');
    const body = JSON.stringify(list);
    const rebound = await raw(server.url, {
      headers: { ...listHeaders(), host: `evil.example:${server.url.port}` },
      body,
    });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error.message).toMatch(/Host/);
    const crossOrigin = await raw(server.url, {
      headers: { ...listHeaders(), origin: 'http://evil.example' },
      body,
    });
    expect(crossOrigin.status).toBe(403);
    const local = await raw(server.url, {
      headers: {
        ...listHeaders(),
        host: `localhost:${server.url.port}`,
        origin: `http://localhost:${server.url.port}`,
      },
      body,
    });
    expect(local.status).toBe(200);
  });

  it('puts its own Host check in front of a fetch handler built with createHttpHandler', async () => {
    const server = await start(createHttpHandler(makeServer()));
    const body = JSON.stringify(list);
    const rebound = await raw(server.url, { headers: { ...listHeaders(), host: 'evil.example' }, body });
    expect(rebound.status).toBe(403);
    expect((await raw(server.url, { headers: listHeaders(), body })).status).toBe(200);
  });

  it('serves a MessageHandler natively: same answers as the handler, query strings, authenticate, Content-Length', async () => {
    const seen: Request[] = [];
    const server = await start(makeServer(), {
      authenticate: (request) => {
        seen.push(request);
        return request.headers.get('authorization') === 'Bearer ok'
          ? { token: 'ok', clientId: 'c', scopes: [] }
          : new Response(null, { status: 401, headers: { 'www-authenticate': 'Bearer' } });
      },
    });
    const body = JSON.stringify(list);
    const denied = await raw(server.url, { headers: listHeaders(), body });
    expect([denied.status, denied.headers['www-authenticate']]).toEqual([401, 'Bearer']);
    const headers = { ...listHeaders(), authorization: 'Bearer ok' };
    const ok = await raw(server.url, { path: '/mcp?x=1', headers, body });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('application/json');
    expect(Number(ok.headers['content-length'])).toBe(Buffer.byteLength(ok.body));
    expect(JSON.parse(ok.body).result.tools).toBeDefined();
    expect(seen[1]?.url).toBe(`${server.url.origin}/mcp?x=1`);
    expect(seen[1]?.headers.get('mcp-method')).toBe('tools/list');
    const bad = await raw(server.url, { headers: { ...headers, 'content-type': 'text/plain' }, body });
    expect([bad.status, JSON.parse(bad.body).error.code]).toEqual([415, -32600]);
    const notJson = await raw(server.url, { headers, body: '{' });
    expect([notJson.status, JSON.parse(notJson.body).error.code]).toEqual([400, -32700]);
    // A repeated field reads as Headers would join it (node's req.headers keeps only the first Content-Type).
    const twoTypes = ['application/json', 'text/plain'] as unknown as string;
    const joined = await raw(server.url, { headers: { ...headers, 'content-type': twoTypes }, body });
    expect(joined.status).toBe(415);
    const twoMethods = ['tools/list', 'tools/list'] as unknown as string;
    const mismatch = await raw(server.url, { headers: { ...headers, 'mcp-method': twoMethods }, body });
    expect([mismatch.status, JSON.parse(mismatch.body).error.code]).toEqual([400, -32020]);
  });

  it('answers 413 to an over-limit body and closes that connection', async () => {
    const server = await start(makeServer(), { maxBodyBytes: 400 });
    const response = await raw(server.url, { headers: listHeaders(), body: 'x'.repeat(10_000) });
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe('close');
    expect((await raw(server.url, { headers: listHeaders(), body: JSON.stringify(list) })).status).toBe(200);
  });

  it('answers 413 while a chunked body is still streaming in (it never ends)', async () => {
    const server = await start(makeServer(), { maxBodyBytes: 64 * 1024 });
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: server.url.port, method: 'POST', path: '/mcp', headers: listHeaders() },
        (res) => {
          resolve(res.statusCode ?? 0);
          res.resume();
          req.destroy();
        },
      );
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      const chunk = 'x'.repeat(8192);
      const pump = () => {
        while (!req.destroyed && req.write(chunk)) {}
        if (!req.destroyed) req.once('drain', pump);
      };
      pump();
    });
    expect(status).toBe(413);
    expect((await raw(server.url, { headers: listHeaders(), body: JSON.stringify(list) })).status).toBe(200);
  });

  it('a client that goes away aborts its handler signal', async () => {
    const observed: Observed = { slowSignals: [] };
    const server = await start(makeServer(observed));
    const transport = new StreamableHttpClientTransport(server.url);
    const controller = new AbortController();
    const call = transport.request(rpc('tools/call', { name: 'slow' }, 1), { signal: controller.signal });
    const ended = call.catch((error: unknown) => error);
    await vi.waitFor(() => expect(observed.slowSignals).toHaveLength(1));
    controller.abort();
    expect(await ended).toBe(controller.signal.reason);
    await vi.waitFor(() => expect(observed.slowSignals[0]?.aborted).toBe(true));
    await transport.close();
  });

  it('hands the handler a lazy cancellation: onAbort fires on disconnect, and a signal read late is aborted', async () => {
    let seen: HandleContext | undefined;
    let onAborted!: () => void;
    const aborted = new Promise<void>((resolve) => {
      onAborted = resolve;
    });
    const handler: MessageHandler = {
      handle: (_message, ctx) => {
        seen = ctx;
        ctx?.cancellation?.onAbort(() => onAborted());
        return new Promise(() => {}); // never answers: only the disconnect ends it
      },
    };
    const server = await start(handler);
    const transport = new StreamableHttpClientTransport(server.url);
    const controller = new AbortController();
    const ended = transport.request(rpc('tools/list', {}, 1), { signal: controller.signal }).catch(() => {});
    await vi.waitFor(() => expect(seen).toBeDefined());
    expect(seen?.cancellation?.aborted).toBe(false);
    controller.abort();
    await aborted;
    await ended;
    expect(seen?.cancellation?.aborted).toBe(true);
    expect(seen?.signal?.aborted).toBe(true); // made now, already aborted, with the reason
    expect(seen?.signal?.reason).toEqual(new Error('the client disconnected'));
    await transport.close();
  });

  it('close() ends keep-alive and streaming connections, and aborts their handlers', async () => {
    const observed: Observed = { slowSignals: [] };
    const server = await start(makeServer(observed));
    const transport = new StreamableHttpClientTransport(server.url, { onWarning: () => {} });
    // leaves an idle keep-alive connection
    expect(await transport.request(rpc('tools/list', {}, 1))).toMatchObject({ id: 1 });
    const progress: unknown[] = [];
    const slow = transport.request(
      rpc('tools/call', { name: 'slow', _meta: meta({ progressToken: 2 }) }, 2),
      {
        onMessage: (message) => progress.push(message),
      },
    );
    await vi.waitFor(() => expect(progress).toMatchObject([{ method: 'notifications/progress' }]));
    await server.close();
    await vi.waitFor(() => expect(observed.slowSignals[0]?.aborted).toBe(true));
    const broken = (await slow) as { id: number; error: { message: string } };
    expect(broken).toMatchObject({ id: 2, error: { code: -32603 } });
    expect(broken.error.message).toMatch(/HTTP transport/);
    await transport.close();
  });
});

describe('listen routes', () => {
  const metadata = {
    url: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
    handler: async (request: Request) =>
      request.method === 'GET'
        ? Response.json(
            { resource: 'https://mcp.example.com/mcp' },
            { headers: { 'access-control-allow-origin': '*' } },
          )
        : new Response('Method Not Allowed', { status: 405 }),
  };

  it('serves extra paths exactly (record or { url, handler } list); the rest still 404; MCP stays native', async () => {
    const seen: Request[] = [];
    const server = await start(makeServer(), {
      routes: {
        '/health': (request) => {
          seen.push(request);
          return new Response(`ok ${request.method}`);
        },
      },
    });
    const health = await raw(server.url, { method: 'GET', path: '/health?probe=1' });
    expect([health.status, health.body]).toEqual([200, 'ok GET']);
    expect(seen[0]?.url).toBe(`${server.url.origin}/health?probe=1`);
    expect((await raw(server.url, { method: 'GET', path: '/health/' })).status).toBe(404);
    expect((await raw(server.url, { method: 'GET', path: '/other' })).body).toBe('Not Found');
    const mcp = await raw(server.url, { headers: listHeaders(), body: JSON.stringify(list) });
    expect([mcp.status, Number(mcp.headers['content-length'])]).toEqual([200, Buffer.byteLength(mcp.body)]);

    const listed = await start(makeServer(), { routes: [metadata, { url: '/echo', handler: echo }] });
    const prm = await raw(listed.url, {
      method: 'GET',
      path: '/.well-known/oauth-protected-resource/mcp',
      headers: { origin: 'https://elsewhere.example' }, // CORS-open: no Origin check on routes
    });
    expect([prm.status, JSON.parse(prm.body)]).toEqual([200, { resource: 'https://mcp.example.com/mcp' }]);
    expect(prm.headers['access-control-allow-origin']).toBe('*');
    const posted = await raw(listed.url, { path: '/echo', body: 'é'.repeat(3) });
    expect([posted.status, posted.body]).toEqual([200, 'POST ééé']);
  });

  it('routes a fetch-handler server too; checks Host on routes; 500 for a throwing route', async () => {
    const server = await start(createHttpHandler(makeServer()), {
      routes: [
        metadata,
        {
          url: '/boom',
          handler: () => {
            throw new Error('boom');
          },
        },
      ],
    });
    const path = '/.well-known/oauth-protected-resource/mcp';
    expect((await raw(server.url, { method: 'GET', path })).status).toBe(200);
    const rebound = await raw(server.url, { method: 'GET', path, headers: { host: 'evil.example' } });
    expect(rebound.status).toBe(403);
    expect((await raw(server.url, { method: 'GET', path: '/boom' })).status).toBe(500);
    expect((await raw(server.url, { method: 'GET', path: '/nope' })).status).toBe(404);
    expect((await raw(server.url, { headers: listHeaders(), body: JSON.stringify(list) })).status).toBe(200);
  });

  it('refuses a route on the MCP path, a relative path, or the same path twice', async () => {
    await expect(listen(makeServer(), { routes: { '/mcp': echo } })).rejects.toThrow(/MCP endpoint/);
    await expect(listen(makeServer(), { routes: { health: echo } })).rejects.toThrow(/starting with/);
    await expect(
      listen(makeServer(), {
        routes: [metadata, { url: '/.well-known/oauth-protected-resource/mcp', handler: echo }],
      }),
    ).rejects.toThrow(/twice/);
  });
});

async function echo(request: Request): Promise<Response> {
  return new Response(`${request.method} ${await request.text()}`);
}

describe('Client ↔ Server over listen() on 127.0.0.1 (smoke test)', () => {
  it('discovers, runs a two-round sealed MRTR call, streams progress, and closes', async () => {
    const server = await start(makeServer(), { tools });
    const client = new Client(
      { name: 'smoke', version: '1.0.0' },
      {
        elicitation: async (params) => {
          expect(params.message).toBe('Which color?');
          return { action: 'accept', content: { color: 'teal' } };
        },
      },
    );
    await client.connect(new StreamableHttpClientTransport(server.url, { onWarning: () => {} }));
    expect((await client.discover()).supportedVersions).toEqual(['2026-07-28']);
    expect((await client.callTool('ask')).content).toEqual([{ type: 'text', text: 'color: teal' }]);
    const progress: number[] = [];
    await client.callTool('progress', {}, { onprogress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2, 3]);
    await client.listTools();
    expect((await client.callTool('echo', { text: 'é', region: ' padded ' })).content).toEqual([
      { type: 'text', text: 'é' },
    ]);
    await client.close();
  });
});
