// 2025-11-25 sessions on the endpoint, spoken by hand (web Requests, no sockets): the session lifecycle, the
// back-channel on the POST's event stream, the GET stream, and every refusal, next to modern traffic.
import type { AuthInfo } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { createHttpHandler } from '../handler.js';
import { bodyOf, post, rpc } from '../test-support/fixture.js';
import {
  callTool,
  eventReader,
  initializeRequest,
  legacyRequest,
  makeLegacyServer,
  openSession,
  until,
  useLegacyHandlers,
} from './test-support/fixture.js';

const { setup } = useLegacyHandlers();

describe('initialize opens a session', () => {
  it('answers the 2025-11-25 InitializeResult with an unguessable Mcp-Session-Id', async () => {
    const { handler } = setup();
    const response = await handler(legacyRequest('POST', initializeRequest()));
    expect(response.status).toBe(200);
    const id = response.headers.get('mcp-session-id');
    expect(id).toMatch(/^[\x21-\x7e]{32,}$/);
    const body = await bodyOf(response);
    expect(body.result).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'legacy-http-test' },
      capabilities: { tools: {}, logging: {} },
    });
    expect(body.result).not.toHaveProperty('resultType');
    const other = await handler(legacyRequest('POST', initializeRequest()));
    expect(other.headers.get('mcp-session-id')).not.toBe(id);
  });

  it('serves the session: initialized (202), ping, tools/list and tools/call in the 2025-11-25 shapes', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const ping = await handler(legacyRequest('POST', { jsonrpc: '2.0', id: 1, method: 'ping' }, { session }));
    expect(await bodyOf(ping)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const list = await bodyOf(
      await handler(legacyRequest('POST', { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { session })),
    );
    expect(list.result.tools.map((t: { name: string }) => t.name)).toEqual([
      'ask',
      'wait',
      'log',
      'whoami',
      'wait-ask',
    ]);
    expect(list.result).not.toHaveProperty('resultType');
    expect(list.result).not.toHaveProperty('ttlMs');
    const call = await handler(legacyRequest('POST', callTool('whoami', 3), { session }));
    expect(call.headers.get('content-type')).toBe('application/json');
    expect((await bodyOf(call)).result).toEqual({ content: [{ type: 'text', text: 'undefined' }] });
  });

  it('answers a JSON-RPC error inside a session with status 200 (2025-11-25 clients read others as failures)', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const response = await handler(
      legacyRequest('POST', { jsonrpc: '2.0', id: 9, method: 'no/such' }, { session }),
    );
    expect(response.status).toBe(200);
    expect((await bodyOf(response)).error.code).toBe(-32601);
  });

  it('opens no session when initialize fails, and answers with the error', async () => {
    const { handler } = setup();
    const bad = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 7 } };
    const response = await handler(legacyRequest('POST', bad));
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect((await bodyOf(response)).error.code).toBe(-32602);
  });
});

describe('the back-channel', () => {
  it('carries the server→client request on the POST stream and the answer back as a POST (202)', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const response = await handler(legacyRequest('POST', callTool('ask', 'call-1'), { session }));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = eventReader(response);
    const ask = (await events.next()) as { id: string; method: string; params: { message: string } };
    expect(ask).toMatchObject({ method: 'elicitation/create', params: { message: 'Your name?' } });
    const answer = {
      jsonrpc: '2.0',
      id: ask.id,
      result: { action: 'accept', content: { name: 'Ada' } },
    };
    const ack = await handler(legacyRequest('POST', answer, { session }));
    expect(ack.status).toBe(202);
    expect(await events.next()).toEqual({
      jsonrpc: '2.0',
      id: 'call-1',
      result: { content: [{ type: 'text', text: 'hello Ada' }] },
    });
    expect(await events.next()).toBeUndefined(); // the stream ends with the response
  });

  it('puts the notifications of a request on its stream before the response', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const level = { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'info' } };
    await (await handler(legacyRequest('POST', level, { session }))).text();
    const events = eventReader(await handler(legacyRequest('POST', callTool('log', 2), { session })));
    expect(await events.next()).toMatchObject({
      method: 'notifications/message',
      params: { level: 'info', data: 'about to answer' },
    });
    expect(await events.next()).toMatchObject({ id: 2, result: { content: [{ text: 'logged' }] } });
  });

  it('refuses to ask a client that did not declare the capability at initialize', async () => {
    const { handler } = setup();
    const session = await openSession(handler, {});
    const body = await bodyOf(await handler(legacyRequest('POST', callTool('ask', 5), { session })));
    expect(body.error).toMatchObject({ code: -32021 });
    expect(body.error.message).toMatch(/elicitation/);
  });

  it('cancels a request on notifications/cancelled: the handler stops and its POST ends without a response', async () => {
    const { handler, observed } = setup();
    const session = await openSession(handler);
    const waiting = handler(legacyRequest('POST', callTool('wait', 'w1'), { session }));
    await until(() => observed.waits.length === 1);
    const cancel = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'w1', reason: 'user' },
    };
    expect((await handler(legacyRequest('POST', cancel, { session }))).status).toBe(202);
    const response = await waiting;
    expect(await response.text()).toBe('');
    await until(() => observed.waits[0]?.aborted === true);
  });

  it('does not cancel a request when its POST goes away (2025-11-25): only notifications/cancelled does', async () => {
    const { handler, observed, release } = setup();
    const session = await openSession(handler);
    const gone = new AbortController();
    const waiting = handler(
      legacyRequest('POST', callTool('wait', 'w2'), { session }, { signal: gone.signal }),
    );
    await until(() => observed.waits.length === 1);
    gone.abort();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(observed.waits[0]?.aborted).toBe(false);
    release();
    await waiting.catch(() => {});
  });

  it('refuses a request id already in flight in the session (400, -32600)', async () => {
    const { handler, observed, release } = setup();
    const session = await openSession(handler);
    const first = handler(legacyRequest('POST', callTool('wait', 'same'), { session }));
    await until(() => observed.waits.length === 1);
    const again = await handler(legacyRequest('POST', callTool('whoami', 'same'), { session }));
    expect(again.status).toBe(400);
    expect(await bodyOf(again)).toMatchObject({ id: 'same', error: { code: -32600 } });
    release();
    expect((await bodyOf(await first)).result.content[0].text).toBe('released');
  });

  it('accepts a response nobody waits for (202) and keeps serving', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const stray = { jsonrpc: '2.0', id: 'nobody', result: {} };
    expect((await handler(legacyRequest('POST', stray, { session }))).status).toBe(202);
    const ping = await handler(legacyRequest('POST', { jsonrpc: '2.0', id: 1, method: 'ping' }, { session }));
    expect((await bodyOf(ping)).result).toEqual({});
  });
});

describe('GET and DELETE', () => {
  it('opens one GET stream per session (a second is 409), and another once it closed', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const closeFirst = new AbortController();
    const first = await handler(legacyRequest('GET', undefined, { session }, { signal: closeFirst.signal }));
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    const second = await handler(legacyRequest('GET', undefined, { session }));
    expect(second.status).toBe(409);
    await first.body?.cancel();
    const third = await handler(legacyRequest('GET', undefined, { session }));
    expect(third.status).toBe(200);
    await third.body?.cancel();
  });

  it('refuses a GET that does not accept text/event-stream (406)', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const response = await handler(
      legacyRequest('GET', undefined, { session, headers: { accept: 'application/json' } }),
    );
    expect(response.status).toBe(406);
  });

  it('carries a server→client request on the GET stream once the POST that caused it went away', async () => {
    const { handler, release } = setup();
    const session = await openSession(handler);
    const stream = eventReader(await handler(legacyRequest('GET', undefined, { session })));
    const gone = new AbortController();
    const request = legacyRequest('POST', callTool('wait-ask', 'a1'), { session }, { signal: gone.signal });
    const waiting = handler(request);
    await new Promise((resolve) => setTimeout(resolve, 10));
    gone.abort();
    release();
    const ask = (await stream.next()) as { id: string; method: string };
    expect(ask.method).toBe('elicitation/create');
    const answer = { jsonrpc: '2.0', id: ask.id, result: { action: 'decline' } };
    expect((await handler(legacyRequest('POST', answer, { session }))).status).toBe(202);
    await waiting.catch(() => {});
  });

  it('fails the ask at once when no stream can carry it, and keeps serving', async () => {
    const { handler, release } = setup();
    const session = await openSession(handler);
    const gone = new AbortController();
    const request = legacyRequest('POST', callTool('wait-ask', 'a2'), { session }, { signal: gone.signal });
    const waiting = handler(request);
    await new Promise((resolve) => setTimeout(resolve, 10));
    gone.abort();
    release();
    const response = await waiting;
    // Nobody reads this answer any more (the client left); it came at once instead of after a timeout.
    expect((await bodyOf(response)).error.code).toBe(-32603);
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect((await bodyOf(await handler(legacyRequest('POST', ping, { session })))).result).toEqual({});
  });

  it('ends the session on DELETE: later requests are 404, a request in flight gets an error', async () => {
    const { handler, observed } = setup();
    const session = await openSession(handler);
    const waiting = handler(legacyRequest('POST', callTool('wait', 'w'), { session }));
    await until(() => observed.waits.length === 1);
    const deleted = await handler(legacyRequest('DELETE', undefined, { session }));
    expect(deleted.status).toBe(200);
    expect((await bodyOf(await waiting)).error).toMatchObject({ code: -32603, message: 'Session ended' });
    expect(observed.waits[0]?.aborted).toBe(true);
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const response = await handler(legacyRequest('POST', ping, { session }));
    expect(response.status).toBe(404);
    expect((await bodyOf(response)).error.message).toMatch(/initialize again/);
    // GET and DELETE of a session that is gone keep the modern answer.
    for (const method of ['GET', 'DELETE']) {
      expect((await handler(legacyRequest(method, undefined, { session }))).status, method).toBe(405);
    }
  });

  it('answers 404 to a POST naming an unknown session, and 405 to GET/DELETE without a known one', async () => {
    const { handler } = setup();
    const unknown = await handler(
      legacyRequest('POST', { jsonrpc: '2.0', id: 1, method: 'ping' }, { session: 'nope' }),
    );
    expect(unknown.status).toBe(404);
    expect((await handler(legacyRequest('GET', undefined))).status).toBe(405);
    expect((await handler(legacyRequest('GET', undefined, { session: 'nope' }))).status).toBe(405);
    expect((await handler(legacyRequest('DELETE', undefined))).status).toBe(405);
  });

  it('refuses an unknown MCP-Protocol-Version on a session POST (400)', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const response = await handler(legacyRequest('POST', ping, { session, version: '1999-01-01' }));
    expect(response.status).toBe(400);
    expect((await bodyOf(response)).error.message).toMatch(/MCP-Protocol-Version/);
    const without = await handler(legacyRequest('POST', ping, { session, version: null }));
    expect(without.status).toBe(200);
  });
});

describe('both eras on one endpoint', () => {
  it('serves modern requests beside sessions, even with a stray Mcp-Session-Id', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const modern = await handler(post(rpc('tools/list'), { 'mcp-session-id': session }));
    expect(modern.status).toBe(200);
    expect((await bodyOf(modern)).result.resultType).toBe('complete');
    const stray = await handler(post(rpc('tools/list'), { 'mcp-session-id': 'unknown' }));
    expect(stray.status).toBe(200);
  });

  it('keeps 2025-11-25 requests without a session on the modern path (400)', async () => {
    const { handler } = setup();
    const response = await handler(
      legacyRequest('POST', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { version: null }),
    );
    expect(response.status).toBe(400);
  });

  it('legacy: false answers initialize with the supported versions and ignores session ids', async () => {
    const { handler } = setup({ legacy: false });
    const response = await handler(legacyRequest('POST', initializeRequest()));
    expect(response.status).toBe(400);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect((await bodyOf(response)).error).toMatchObject({
      code: -32022,
      data: { supported: ['2026-07-28'] },
    });
    expect((await handler(legacyRequest('GET', undefined, { session: 'x' }))).status).toBe(405);
  });
});

describe('limits and principals', () => {
  it('binds a session to its principal: another user gets 404, a refreshed token of the same user is served', async () => {
    const users: Record<string, AuthInfo> = {
      alice: { subject: 'alice', token: 'a1' },
      alice2: { subject: 'alice', token: 'a2', scopes: ['more'] },
      bob: { subject: 'bob', token: 'b1' },
    };
    const { handler, observed } = setup({
      authenticate: (request) => users[request.headers.get('authorization') ?? ''],
    });
    const session = await openSession(handler, { elicitation: {} }, { authorization: 'alice' });
    const asBob = await handler(
      legacyRequest('POST', callTool('whoami'), { session, headers: { authorization: 'bob' } }),
    );
    expect(asBob.status).toBe(404);
    const refreshed = await handler(
      legacyRequest('POST', callTool('whoami'), { session, headers: { authorization: 'alice2' } }),
    );
    expect((await bodyOf(refreshed)).result.content[0].text).toBe('alice');
    expect(observed.principals).toEqual([users.alice2]);
  });

  it('ends a session idle for idleTimeoutMs', async () => {
    const { handler } = setup({ legacy: { idleTimeoutMs: 20 } });
    const session = await openSession(handler);
    await new Promise((resolve) => setTimeout(resolve, 250)); // every request restarts the idle clock
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect((await handler(legacyRequest('POST', ping, { session }))).status).toBe(404);
  });

  it('makes room by ending the session idle longest, and answers 503 when every session is busy', async () => {
    const { handler, observed, release } = setup({ legacy: { maxSessions: 2 } });
    const first = await openSession(handler);
    const second = await openSession(handler);
    const third = await openSession(handler); // evicts `first`
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect((await handler(legacyRequest('POST', ping, { session: first }))).status).toBe(404);
    const busy = [second, third].map((session) =>
      handler(legacyRequest('POST', callTool('wait'), { session })),
    );
    await until(() => observed.waits.length === 2);
    const refused = await handler(legacyRequest('POST', initializeRequest()));
    expect(refused.status).toBe(503);
    release();
    await Promise.all(busy);
  });

  it('rejects bad legacy settings at construction', () => {
    const { server } = makeLegacyServer();
    expect(() => createHttpHandler(server, { legacy: { maxSessions: 0 } })).toThrow(RangeError);
    expect(() => createHttpHandler(server, { legacy: { idleTimeoutMs: 1.5 } })).toThrow(RangeError);
    expect(() => createHttpHandler(server, { legacy: 'yes' as never })).toThrow(TypeError);
  });

  it('ends every session on close()', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    await handler.close();
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect((await handler(legacyRequest('POST', ping, { session }))).status).toBe(404);
  });
});
