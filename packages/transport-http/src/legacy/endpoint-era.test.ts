// Stateless 2025-11-25 serving (`legacy: { sessions: false }`), and how a modern-only server refuses a
// 2025-11-25 `initialize` over HTTP in either mode.
import { Server } from '@boomerang/server';
import { describe, expect, it } from 'vitest';
import { createHttpHandler, type HttpHandlerOptions } from '../handler.js';
import { bodyOf, post, rpc } from '../test-support/fixture.js';
import {
  callTool,
  initializeRequest,
  legacyRequest,
  makeLegacyServer,
  useLegacyHandlers,
} from './test-support/fixture.js';

const { setup, serve } = useLegacyHandlers();
const stateless = (options: HttpHandlerOptions = {}) => setup({ legacy: { sessions: false }, ...options });

/** A stateless 2025-11-25 POST: the version header, no session. */
const statelessPost = (body: unknown, version: string | null = '2025-11-25') => {
  const request = legacyRequest('POST', body, { version: null });
  if (version !== null) request.headers.set('mcp-protocol-version', version);
  return request;
};

describe('legacy: { sessions: false }', () => {
  it('answers initialize without a session id, and serves each later request on its own', async () => {
    const { handler } = stateless();
    const init = await handler(legacyRequest('POST', initializeRequest()));
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    expect((await bodyOf(init)).result).toMatchObject({ protocolVersion: '2025-11-25' });
    const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
    expect((await handler(statelessPost(initialized))).status).toBe(202);
    const list = await bodyOf(await handler(statelessPost({ jsonrpc: '2.0', id: 1, method: 'tools/list' })));
    expect(list.result.tools.map((t: { name: string }) => t.name)).toContain('ask');
    expect(list.result).not.toHaveProperty('resultType');
    const call = await bodyOf(await handler(statelessPost(callTool('whoami', 2))));
    expect(call).toMatchObject({ id: 2, result: { content: [{ text: 'undefined' }] } });
  });

  it('fails a server→client request at once with a clear error: there is nobody to ask', async () => {
    const { handler } = stateless();
    const response = await handler(statelessPost(callTool('ask', 3)));
    expect(response.status).toBe(200);
    const body = await bodyOf(response);
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).toMatch(/came without a session, so the server cannot ask the client/);
    const ping = await bodyOf(await handler(statelessPost({ jsonrpc: '2.0', id: 4, method: 'ping' })));
    expect(ping.result).toEqual({});
  });

  it('reads a request without MCP-Protocol-Version as 2025-11-25-era, and one naming 2026-07-28 as modern', async () => {
    const { handler } = stateless();
    const bare = await handler(statelessPost({ jsonrpc: '2.0', id: 1, method: 'ping' }, null));
    expect((await bodyOf(bare)).result).toEqual({});
    const modernHeader = await handler(
      statelessPost({ jsonrpc: '2.0', id: 2, method: 'ping' }, '2026-07-28'),
    );
    expect(modernHeader.status).toBe(400);
    const modern = await handler(post(rpc('tools/list')));
    expect((await bodyOf(modern)).result.resultType).toBe('complete');
  });

  it('keeps GET and DELETE at 405, session id or not', async () => {
    const { handler } = stateless();
    expect((await handler(legacyRequest('GET', undefined, { session: 'x' }))).status).toBe(405);
    expect((await handler(legacyRequest('DELETE', undefined, { session: 'x' }))).status).toBe(405);
  });

  it('rejects a non-boolean sessions setting', () => {
    const { server } = makeLegacyServer();
    expect(() => createHttpHandler(server, { legacy: { sessions: 'no' as never } })).toThrow(TypeError);
  });
});

describe('a modern-only server behind a dual-era endpoint', () => {
  const modernOnly = () =>
    new Server({ name: 'modern', version: '1' }, { legacy: false, onListTools: () => ({ tools: [] }) });

  for (const legacy of [true, { sessions: false }] as const) {
    it(`answers a 2025-11-25 initialize 400 -32022 naming the versions (legacy: ${JSON.stringify(legacy)})`, async () => {
      const handler = serve(modernOnly(), { legacy });
      const response = await handler(legacyRequest('POST', initializeRequest()));
      expect(response.status).toBe(400);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      expect((await bodyOf(response)).error).toMatchObject({
        code: -32022,
        data: { supported: ['2026-07-28'] },
      });
    });
  }
});
