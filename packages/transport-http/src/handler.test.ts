import type { HandleContext } from '@boomerang/protocol/transport';
import { describe, expect, it, vi } from 'vitest';
import { createHttpHandler } from './handler.js';
import {
  bodyOf,
  eventsOf,
  makeServer,
  meta,
  type Observed,
  post,
  rpc,
  tools,
} from './test-support/fixture.js';

describe('createHttpHandler: answers', () => {
  const handler = createHttpHandler(makeServer(), { tools });

  it('answers a request with one JSON response (200)', async () => {
    const response = await handler(post(rpc('tools/call', { name: 'echo', arguments: { text: 'hi' } }, 1)));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await bodyOf(response)).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { resultType: 'complete', content: [{ type: 'text', text: 'hi' }] },
    });
  });

  it('answers server/discover and tools/list', async () => {
    const discover = await bodyOf(await handler(post(rpc('server/discover', {}, 'd'))));
    expect(discover.result.supportedVersions).toContain('2026-07-28');
    const list = await bodyOf(await handler(post(rpc('tools/list', {}, 'l'))));
    expect(list.result.tools.map((t: { name: string }) => t.name)).toContain('echo');
  });

  it('answers a notification with 202 and no body', async () => {
    const response = await handler(post({ jsonrpc: '2.0', method: 'notifications/initialized', params: {} }));
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it('maps error codes to statuses: -32601 → 404, -32602 → 400, -32022 → 400, other errors → 200', async () => {
    const unknown = await handler(post(rpc('nope/nope', {}, 2)));
    expect([unknown.status, (await bodyOf(unknown)).error.code]).toEqual([404, -32601]);

    const noMeta = { jsonrpc: '2.0' as const, id: 3, method: 'tools/list', params: {} };
    const missing = await handler(post(noMeta));
    expect([missing.status, (await bodyOf(missing)).error.code]).toEqual([400, -32602]);

    const version = '2030-01-01';
    const future = rpc(
      'tools/list',
      { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': version }) },
      4,
    );
    const unsupported = await handler(post(future, { 'mcp-protocol-version': version }));
    const body = await bodyOf(unsupported);
    expect([unsupported.status, body.error.code]).toEqual([400, -32022]);
    expect(body.error.data.supported).toEqual(['2026-07-28']);

    const internal = await handler(post(rpc('tools/call', { name: 'boom' }, 5)));
    expect([internal.status, (await bodyOf(internal)).error.code]).toEqual([200, -32603]);
  });

  it('answers 400 with -32021 when the tool asks for a capability the request did not declare', async () => {
    const request = rpc(
      'tools/call',
      { name: 'ask', _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': {} }) },
      6,
    );
    const response = await handler(post(request));
    expect([response.status, (await bodyOf(response)).error.code]).toEqual([400, -32021]);
  });

  it('runs a two-round sealed MRTR flow, each round its own POST', async () => {
    const first = await bodyOf(await handler(post(rpc('tools/call', { name: 'ask' }, 'r1'))));
    expect(first.result.resultType).toBe('input_required');
    expect(first.result.requestState).not.toBe('asked'); // sealed
    const retry = rpc(
      'tools/call',
      {
        name: 'ask',
        inputResponses: { color: { action: 'accept', content: { color: 'teal' } } },
        requestState: first.result.requestState,
      },
      'r2',
    );
    const second = await bodyOf(await handler(post(retry)));
    expect(second.result.content).toEqual([{ type: 'text', text: 'color: teal' }]);
  });

  it('passes authenticate()’s principal as ctx.auth and returns its Response as is', async () => {
    const seen: unknown[] = [];
    const server = makeServer();
    const spy = {
      handle: (message: unknown, ctx?: HandleContext) => {
        seen.push(ctx?.auth);
        return server.handle(message, ctx);
      },
    };
    const guarded = createHttpHandler(spy, {
      authenticate: (request) =>
        request.headers.get('authorization') === 'Bearer good'
          ? { clientId: 'c1', subject: 'alice' }
          : new Response(null, {
              status: 401,
              headers: { 'www-authenticate': 'Bearer resource_metadata="x"' },
            }),
    });
    const denied = await guarded(post(rpc('tools/list')));
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toBe('Bearer resource_metadata="x"');
    const allowed = await guarded(post(rpc('tools/list'), { authorization: 'Bearer good' }));
    expect(allowed.status).toBe(200);
    expect(seen).toEqual([{ clientId: 'c1', subject: 'alice' }]);
  });
});

describe('createHttpHandler: arguments and misbehaving handlers', () => {
  it('checks its arguments', () => {
    expect(() => createHttpHandler({} as never)).toThrow(TypeError);
    expect(() => createHttpHandler(makeServer(), { maxBodyBytes: -1 })).toThrow(RangeError);
    expect(() => createHttpHandler(makeServer(), { maxBodyBytes: 1.5 })).toThrow(RangeError);
  });

  it('answers -32603 (200) for a handler that rejects, reporting the error to onError only', async () => {
    const errors: unknown[] = [];
    const handler = createHttpHandler(
      { handle: () => Promise.reject(new Error('secret detail')) },
      { onError: (error) => errors.push(error) },
    );
    const response = await handler(post(rpc('tools/list', {}, 'x')));
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({
      jsonrpc: '2.0',
      id: 'x',
      error: { code: -32603, message: 'Internal error' },
    });
    expect(errors).toHaveLength(1);
    const note = await handler(post({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(note.status).toBe(202);
  });
});

describe('createHttpHandler: SSE', () => {
  it('switches to SSE on the first progress/log notification; the response is the last event', async () => {
    const handler = createHttpHandler(makeServer());
    const request = rpc(
      'tools/call',
      { name: 'progress', _meta: meta({ progressToken: 'p', 'io.modelcontextprotocol/logLevel': 'info' }) },
      7,
    );
    const response = await handler(post(request));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const events = await eventsOf(response);
    expect(events.map((e) => e.method ?? `response ${String(e.id)}`)).toEqual([
      'notifications/progress',
      'notifications/message',
      'notifications/progress',
      'notifications/message',
      'notifications/progress',
      'notifications/message',
      'response 7',
    ]);
    expect(
      events
        .slice(0, 6)
        .filter((e) => e.method === 'notifications/progress')
        .map((e) => e.params),
    ).toEqual([
      { progressToken: 'p', progress: 1, total: 3, message: 'step 1' },
      { progressToken: 'p', progress: 2, total: 3, message: 'step 2' },
      { progressToken: 'p', progress: 3, total: 3, message: 'step 3' },
    ]);
  });

  it('stays JSON when the request asked for no progress and no log', async () => {
    const response = await createHttpHandler(makeServer())(post(rpc('tools/call', { name: 'progress' })));
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it('aborts the handler signal when the client cancels the event stream, and keeps serving', async () => {
    const observed: Observed = { slowSignals: [] };
    const handler = createHttpHandler(makeServer(observed));
    const request = rpc('tools/call', { name: 'slow', _meta: meta({ progressToken: 's' }) });
    const response = await handler(post(request));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read(); // the progress event
    expect(observed.slowSignals[0]?.aborted).toBe(false);
    await reader.cancel();
    expect(observed.slowSignals[0]?.aborted).toBe(true);
    expect((await handler(post(rpc('tools/list')))).status).toBe(200);
  });

  it('aborts the handler signal when the HTTP request is aborted before any answer', async () => {
    const observed: Observed = { slowSignals: [] };
    const handler = createHttpHandler(makeServer(observed));
    const controller = new AbortController();
    const answer = handler(post(rpc('tools/call', { name: 'slow' }), {}, { signal: controller.signal }));
    await vi.waitFor(() => expect(observed.slowSignals).toHaveLength(1));
    controller.abort();
    await answer;
    expect(observed.slowSignals[0]?.aborted).toBe(true);
  });

  it('tells a handler waiting on ctx.cancellation (signal unread) that the request was aborted, early or late', async () => {
    for (const late of [false, true]) {
      let subscribed!: () => void;
      const waiting = new Promise<void>((resolve) => {
        subscribed = resolve;
      });
      const handler = createHttpHandler({
        handle: (_message: unknown, ctx?: HandleContext) =>
          new Promise((resolve) => {
            ctx?.cancellation?.onAbort(() => resolve(undefined));
            subscribed();
          }),
      });
      const controller = new AbortController();
      const answer = handler(post(rpc('tools/list'), {}, { signal: controller.signal }));
      await waiting;
      // Early: in the turn it subscribed, before the request's signal is read; late: once it is followed.
      if (late) await new Promise((resolve) => setTimeout(resolve, 5));
      controller.abort();
      expect((await bodyOf(await answer)).error.message).toBe('Request cancelled');
    }
  });

  it('still aborts the handler signal after the Request object was garbage-collected', async (ctx) => {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (gc === undefined) ctx.skip("needs node --expose-gc (this package's vitest config passes it)");
    const observed: Observed = { slowSignals: [] };
    const handler = createHttpHandler(makeServer(observed));
    const controller = new AbortController();
    // Nothing here keeps the Request: it forwards `signal` through a weak reference, so the endpoint must hold it.
    void handler(post(rpc('tools/call', { name: 'slow' }), {}, { signal: controller.signal }));
    await vi.waitFor(() => expect(observed.slowSignals).toHaveLength(1));
    for (let i = 0; i < 3; i++) {
      gc?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    controller.abort();
    await vi.waitFor(() => expect(observed.slowSignals[0]?.aborted).toBe(true));
  });
});

describe('createHttpHandler: body limit', () => {
  it('answers 413 while the body streams in, without waiting for its end', async () => {
    const handler = createHttpHandler(makeServer(), { maxBodyBytes: 1024 });
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(256).fill(0x20));
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request('http://127.0.0.1:3000/mcp', {
      method: 'POST',
      headers: post(rpc('tools/list')).headers,
      body: endless,
      duplex: 'half',
    } as RequestInit);
    const response = await handler(request);
    expect(response.status).toBe(413);
    expect((await bodyOf(response)).error.code).toBe(-32600);
    expect(pulled).toBeLessThan(10);
    expect(cancelled).toBe(true);
    expect((await handler(post(rpc('tools/list')))).status).toBe(200);
  });

  it('answers 413 from Content-Length alone, and accepts a body of exactly the limit', async () => {
    const handler = createHttpHandler(makeServer(), { maxBodyBytes: 300 });
    const big = post(rpc('tools/call', { name: 'echo', arguments: { text: 'x'.repeat(400) } }));
    expect((await handler(big)).status).toBe(413);
    const message = JSON.stringify(rpc('tools/list'));
    const exact = createHttpHandler(makeServer(), { maxBodyBytes: new TextEncoder().encode(message).length });
    expect((await exact(post(message, { 'mcp-method': 'tools/list' }))).status).toBe(200);
  });
});
