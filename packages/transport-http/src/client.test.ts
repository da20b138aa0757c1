import { getEventListeners } from 'node:events';
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
} from '@boomerang/protocol';
import type { ExchangeOptions, FetchLike } from '@boomerang/protocol/transport';
import { requestTransportSuite } from '@boomerang/test-kit';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { StreamableHttpClientTransport } from './client.js';
import { createHttpHandler, type FetchHandler } from './handler.js';
import { listen } from './node.js';
import { makeServer, meta, type Observed, rpc, tools } from './test-support/fixture.js';

// The client transport against the real handler, through its `fetch` option: no sockets.

/** A received message, loosely typed: tests poke at wire fields. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary wire fields
type Wire = Record<string, any>;

const URL_ = 'http://127.0.0.1:3000/mcp';

/** A fetch that serves `handler` in process and records every Request it was given. */
function via(handler: FetchHandler) {
  const requests: Request[] = [];
  const fetch: FetchLike = async (input, init) => {
    const request = new Request(input, init);
    requests.push(request.clone());
    return handler(request);
  };
  return { fetch, requests };
}

function setup(options: { observed?: Observed; warn?: (m: string) => void } = {}) {
  const { fetch, requests } = via(createHttpHandler(makeServer(options.observed), { tools }));
  const transport = new StreamableHttpClientTransport(URL_, {
    fetch,
    onWarning: options.warn ?? (() => {}),
  });
  /** `transport.request`, loosely typed for reading wire fields. */
  const exchange = async (message: JSONRPCRequest, exchangeOptions?: ExchangeOptions) =>
    (await transport.request(message, exchangeOptions)) as JSONRPCResponse & Wire;
  return { transport, requests, exchange };
}

/** A transport whose fetch answers every POST with `respond()`. */
function scripted(respond: () => Response | Promise<Response>) {
  const transport = new StreamableHttpClientTransport(URL_, { fetch: async () => respond() });
  const exchange = async (message: JSONRPCRequest, exchangeOptions?: ExchangeOptions) =>
    (await transport.request(message, exchangeOptions)) as JSONRPCResponse & Wire;
  return { transport, exchange };
}

// The client's transport contract over HTTP: through the handler in process, and over a real socket. Large
// messages stay under the handler's default 4 MiB body limit.
const httpSuite = { largeMessageBytes: 3 * 1024 * 1024 };
requestTransportSuite(
  'Streamable HTTP (createHttpHandler through fetch)',
  (handler) => new StreamableHttpClientTransport(URL_, { fetch: via(createHttpHandler(handler)).fetch }),
  httpSuite,
);

const endpoints: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(endpoints.splice(0).map((endpoint) => endpoint.close()));
});
requestTransportSuite(
  'Streamable HTTP on 127.0.0.1 (listen)',
  async (handler) => {
    const endpoint = await listen(createHttpHandler(handler));
    endpoints.push(endpoint);
    return new StreamableHttpClientTransport(endpoint.url);
  },
  httpSuite,
);

describe('StreamableHttpClientTransport: headers', () => {
  it('sends the required headers on every POST', async () => {
    const { transport, requests, exchange } = setup();
    const response = await exchange(rpc('tools/call', { name: 'echo', arguments: { text: 'hi' } }, 1));
    expect(response.result.content).toEqual([{ type: 'text', text: 'hi' }]);
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(Object.fromEntries(request?.headers ?? [])).toMatchObject({
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
    });
    await transport.close();
  });

  it('encodes Mcp-Name for resources/read URIs outside plain ASCII', async () => {
    const { transport, requests, exchange } = setup();
    await exchange(rpc('resources/read', { uri: 'file:///données' }, 2));
    expect(requests[0]?.headers.get('mcp-name')).toBe(`=?base64?${btoa('file:///donn\u00c3\u00a9es')}?=`);
    await transport.close();
  });

  it('mirrors Mcp-Param-* from the latest tools/list and drops tools with invalid x-mcp-header', async () => {
    const warn = vi.fn();
    const { transport, requests, exchange } = setup({ warn });
    // Not listed yet: no Mcp-Param-Region, so -32020; the transport re-reads tools/list and retries once.
    const before = await exchange(rpc('tools/call', { name: 'echo', arguments: { region: 'eu' } }, 'before'));
    expect(before).toMatchObject({ id: 'before', result: { content: [{ text: '' }] } });
    expect(requests.map((r) => r.headers.get('mcp-method'))).toEqual([
      'tools/call',
      'tools/list',
      'tools/call',
    ]);
    expect(requests[0]?.headers.has('mcp-param-region')).toBe(false);
    expect(requests[2]?.headers.get('mcp-param-region')).toBe('eu');
    // The refresh carries the refused call's own id: the transport mints none.
    expect(await requests[1]?.json()).toMatchObject({ id: 'before', method: 'tools/list' });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/dropped tool "bad-header"/));
    warn.mockClear();

    const list = await exchange(rpc('tools/list', {}, 'list'));
    expect(list.result.tools.map((t: { name: string }) => t.name)).not.toContain('bad-header');
    expect(list.result.tools.map((t: { name: string }) => t.name)).toContain('echo');
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/dropped tool "bad-header"/));

    const args = { text: 't', region: 'Hello, 世界', options: { count: 42 } };
    const after = await exchange(rpc('tools/call', { name: 'echo', arguments: args }, 'after'));
    expect(after.result.content).toEqual([{ type: 'text', text: 't' }]);
    const last = requests.at(-1);
    expect(last?.headers.get('mcp-param-region')).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
    expect(last?.headers.get('mcp-param-count')).toBe('42');

    const none = await exchange(rpc('tools/call', { name: 'echo', arguments: { region: null } }, 'null'));
    expect(none.result).toBeDefined();
    expect(requests.at(-1)?.headers.has('mcp-param-region')).toBe(false);
    await transport.close();
  });

  it('returns a -32020 as is when a fresh tools/list changes nothing (no retry)', async () => {
    const { transport, requests, exchange } = setup();
    await exchange(rpc('tools/list', {}, 'l'));
    const call = rpc('tools/call', { name: 'echo', arguments: {} }, 'c');
    expect(await exchange(call, { headers: { 'mcp-name': 'other' } })).toMatchObject({
      id: 'c',
      error: { code: -32020 },
    });
    expect(requests.map((r) => r.headers.get('mcp-method'))).toEqual([
      'tools/list',
      'tools/call',
      'tools/list',
    ]);
    await transport.close();
  });

  it('adds static headers (or a function of them) and per-request headers, in that order', async () => {
    const { fetch, requests } = via(createHttpHandler(makeServer()));
    let n = 0;
    const transport = new StreamableHttpClientTransport(new URL(URL_), {
      fetch,
      onWarning: () => {},
      headers: async () => ({ authorization: `Bearer t${++n}`, 'x-a': 'static' }),
    });
    await transport.request(rpc('tools/list'), { headers: { 'x-a': 'per-request' } });
    await transport.request(rpc('tools/list'));
    expect(requests.map((r) => [r.headers.get('authorization'), r.headers.get('x-a')])).toEqual([
      ['Bearer t1', 'per-request'],
      ['Bearer t2', 'static'],
    ]);
    await transport.close();
  });
});

describe('StreamableHttpClientTransport: responses', () => {
  it('hands SSE notifications to onMessage in order, then resolves to the response', async () => {
    const { transport, exchange } = setup();
    const _meta = meta({ progressToken: 7, 'io.modelcontextprotocol/logLevel': 'info' });
    const got: string[] = [];
    const response = await exchange(rpc('tools/call', { name: 'progress', _meta }, 7), {
      onMessage: (message) => got.push(message.method),
    });
    expect(got).toEqual(Array(3).fill(['notifications/progress', 'notifications/message']).flat());
    expect(response).toMatchObject({ id: 7, result: { resultType: 'complete' } });
    await transport.close();
  });

  it('without onMessage, a request’s notifications go to messages', async () => {
    const { transport, exchange } = setup();
    const messages = transport.messages[Symbol.asyncIterator]();
    await exchange(rpc('tools/call', { name: 'progress', _meta: meta({ progressToken: 3 }) }, 3));
    expect((await messages.next()).value).toMatchObject({ method: 'notifications/progress' });
    await transport.close();
  });

  it('POSTs notifications (202) and rejects send on an HTTP error', async () => {
    const { transport, requests } = setup();
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(requests).toHaveLength(1);
    const failing = scripted(() => new Response('nope', { status: 400 }));
    await expect(failing.transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow(/HTTP 400/);
    await Promise.all([transport.close(), failing.transport.close()]);
  });

  it('resolves an HTTP error with a JSON-RPC body to that error, with the request id filled in', async () => {
    const { transport, exchange } = setup();
    expect(await exchange(rpc('nope/nope', {}, 'u'))).toMatchObject({ id: 'u', error: { code: -32601 } });
    const refused = scripted(() =>
      Response.json({ jsonrpc: '2.0', error: { code: -32600, message: 'Forbidden' } }, { status: 403 }),
    );
    expect(await refused.exchange(rpc('tools/list', {}, 'f'))).toEqual({
      jsonrpc: '2.0',
      id: 'f',
      error: { code: -32600, message: 'Forbidden' },
    });
    await Promise.all([transport.close(), refused.transport.close()]);
  });

  const failures: [string, () => Response | Promise<Response>, RegExp][] = [
    [
      'a 502 HTML page',
      () => new Response('<h1>Bad Gateway</h1>', { status: 502, statusText: 'Bad Gateway' }),
      /HTTP 502 Bad Gateway without a JSON-RPC response: <h1>/,
    ],
    ['a 202 for a request', () => new Response(null, { status: 202 }), /HTTP 202/],
    [
      'a network error',
      () => Promise.reject(new TypeError('fetch failed')),
      /could not POST tools\/list to .*fetch failed/,
    ],
    [
      'an event stream that ends before the response',
      () =>
        new Response('data: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n', {
          headers: { 'content-type': 'text/event-stream' },
        }),
      /event stream of tools\/list ended before its response/,
    ],
    [
      'an event stream that breaks',
      () =>
        new Response(new ReadableStream({ start: (c) => c.error(new Error('socket hang up')) }), {
          headers: { 'content-type': 'text/event-stream' },
        }),
      /broke off: socket hang up/,
    ],
  ];
  for (const [what, respond, message] of failures) {
    it(`resolves to a marked -32603 error response for ${what}`, async () => {
      const { transport, exchange } = scripted(respond);
      const got = await exchange(rpc('tools/list', {}, 'x'), { onMessage: () => {} });
      expect(got).toMatchObject({
        jsonrpc: '2.0',
        id: 'x',
        error: { code: -32603, data: { transportFailure: true } },
      });
      expect(got.error.message).toMatch(message);
      await transport.close();
    });
  }
});

describe('StreamableHttpClientTransport: answer size limits', () => {
  const encoder = new TextEncoder();
  const SSE = { 'content-type': 'text/event-stream' };
  const result = (text: string) => ({
    jsonrpc: '2.0',
    id: 'big',
    result: { resultType: 'complete', content: [{ type: 'text', text }] },
  });

  /** A body handing out `bytes` in 64 KiB chunks; `cancelled` and `sent` tell how far it was read. */
  function body(bytes: Uint8Array) {
    const seen = { sent: 0, cancelled: false };
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (seen.sent >= bytes.length) {
          controller.close();
          return;
        }
        controller.enqueue(bytes.subarray(seen.sent, seen.sent + 65_536));
        seen.sent += 65_536;
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    return { stream, seen };
  }

  it('reads a large honest tool result over SSE under the default maxEventBytes (64 MiB)', async () => {
    const text = 'é'.repeat(6_000_000); // 12 MB of UTF-8 in one event, after a progress notification
    const progress = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1 },
    };
    const sse = `data: ${JSON.stringify(progress)}\n\nevent: message\ndata: ${JSON.stringify(result(text))}\n\n`;
    const { stream } = body(encoder.encode(sse));
    const { transport, exchange } = scripted(() => new Response(stream, { headers: SSE }));
    const notes: unknown[] = [];
    const got = await exchange(rpc('tools/call', { name: 'export' }, 'big'), {
      onMessage: (m) => notes.push(m),
    });
    expect(got.result.content[0].text.length).toBe(6_000_000);
    expect(notes).toHaveLength(1);
    await transport.close();
  });

  it('fails the request past maxEventBytes with a marked -32603 naming the option, and closes the stream', async () => {
    const { stream, seen } = body(encoder.encode(`data: ${JSON.stringify(result('x'.repeat(200_000)))}\n\n`));
    const transport = new StreamableHttpClientTransport(URL_, {
      fetch: async () => new Response(stream, { headers: SSE }),
      maxEventBytes: 100_000,
    });
    const got = (await transport.request(rpc('tools/call', { name: 'export' }, 'big'))) as Wire;
    expect(got).toMatchObject({ id: 'big', error: { code: -32603, data: { transportFailure: true } } });
    expect(got.error.message).toMatch(
      /an event of the event stream of tools\/call is larger than maxEventBytes \(100000 bytes\).*raise the maxEventBytes option of StreamableHttpClientTransport/,
    );
    expect(seen.cancelled).toBe(true);
    expect(seen.sent).toBeLessThanOrEqual(100_000 + 3 * 65_536);
    await transport.close();
  });

  it('stops a line that never ends at maxEventBytes (a hostile server), having read little more', async () => {
    let sent = 0;
    const slice = encoder.encode('x'.repeat(65_536));
    const endless = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(encoder.encode('data: ')),
      pull(controller) {
        sent += slice.length;
        controller.enqueue(slice);
      },
    });
    const transport = new StreamableHttpClientTransport(URL_, {
      fetch: async () => new Response(endless, { headers: SSE }),
      maxEventBytes: 1024 * 1024,
    });
    const got = (await transport.request(rpc('tools/list', {}, 1))) as Wire;
    expect(got.error.message).toMatch(/maxEventBytes \(1048576 bytes\)/);
    expect(sent).toBeLessThanOrEqual(1024 * 1024 + 3 * 65_536);
    await transport.close();
  });

  it('refuses a JSON body over maxResponseBytes: by Content-Length unread, else cancelled at the limit', async () => {
    const json = encoder.encode(JSON.stringify(result('y'.repeat(300_000))));
    const declared = body(json);
    const byLength = new StreamableHttpClientTransport(URL_, {
      fetch: async () =>
        new Response(declared.stream, {
          headers: { 'content-type': 'application/json', 'content-length': String(json.length) },
        }),
      maxResponseBytes: 200_000,
    });
    const refused = (await byLength.request(rpc('tools/call', { name: 'export' }, 'big'))) as Wire;
    expect(refused).toMatchObject({
      id: 'big',
      error: { code: -32603, data: { transportFailure: true, status: 200 } },
    });
    expect(refused.error.message).toMatch(
      /the answer to tools\/call is larger than maxResponseBytes \(200000 bytes\).*raise the maxResponseBytes option/,
    );
    expect(declared.seen.sent).toBeLessThanOrEqual(65_536); // at most the stream's own first pull
    const streamed = body(json);
    const growing = new StreamableHttpClientTransport(URL_, {
      fetch: async () => new Response(streamed.stream, { headers: { 'content-type': 'application/json' } }),
      maxResponseBytes: 200_000,
    });
    const cut = (await growing.request(rpc('tools/call', { name: 'export' }, 'big'))) as Wire;
    expect(cut.error.message).toMatch(/larger than maxResponseBytes \(200000 bytes\)/);
    expect(streamed.seen.cancelled).toBe(true);
    expect(streamed.seen.sent).toBeLessThanOrEqual(200_000 + 3 * 65_536);
    const fits = scripted(
      () => new Response(body(json).stream, { headers: { 'content-type': 'application/json' } }),
    );
    expect((await fits.exchange(rpc('tools/call', { name: 'export' }, 'big'))).result).toBeDefined();
    await Promise.all([byLength.close(), growing.close(), fits.transport.close()]);
  });

  it('checks its limits and redirect policy when constructed', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new StreamableHttpClientTransport(URL_, { maxEventBytes: bad })).toThrow(
        /"maxEventBytes" expected a positive integer number of bytes/,
      );
      expect(() => new StreamableHttpClientTransport(URL_, { maxResponseBytes: bad })).toThrow(RangeError);
    }
    expect(() => new StreamableHttpClientTransport(URL_, { redirect: 'follow' as never })).toThrow(
      /"redirect" expected same-origin \| error, got follow/,
    );
  });
});

describe('StreamableHttpClientTransport: cancellation and close', () => {
  it('aborting the signal closes the POST and its stream: the handler signal aborts, request rejects', async () => {
    const observed: Observed = { slowSignals: [] };
    const { transport, requests, exchange } = setup({ observed });
    const controller = new AbortController();
    const call = exchange(rpc('tools/call', { name: 'slow', _meta: meta({ progressToken: 1 }) }, 's'), {
      signal: controller.signal,
      onMessage: () => {},
    });
    await vi.waitFor(() => expect(observed.slowSignals).toHaveLength(1));
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    await vi.waitFor(() => expect(observed.slowSignals[0]?.aborted).toBe(true));
    expect(requests).toHaveLength(1); // no notifications/cancelled on 2026-07-28
    await transport.close();
  });

  it('close() aborts every exchange, ends messages, and request and send then reject', async () => {
    const observed: Observed = { slowSignals: [] };
    const { transport, exchange } = setup({ observed });
    const messages = transport.messages[Symbol.asyncIterator]();
    const call = exchange(rpc('tools/call', { name: 'slow' }, 1));
    await vi.waitFor(() => expect(observed.slowSignals).toHaveLength(1));
    const pending = messages.next();
    await transport.close();
    await expect(call).rejects.toThrow(/closed/);
    expect((await pending).done).toBe(true);
    await vi.waitFor(() => expect(observed.slowSignals[0]?.aborted).toBe(true));
    await expect(transport.request(rpc('tools/list'))).rejects.toThrow(/closed/);
    await expect(transport.send({ jsonrpc: '2.0', method: 'n' })).rejects.toThrow(/closed/);
    await transport.close();
    await transport[Symbol.asyncDispose]();
  });

  it('links a caller signal to close() without AbortSignal.any (Node 20 keeps every such signal alive)', async () => {
    const any = vi.spyOn(AbortSignal, 'any');
    try {
      const observed: Observed = { slowSignals: [] };
      const { transport, exchange } = setup({ observed });
      for (let i = 0; i < 3; i++) {
        await exchange(rpc('tools/list', {}, i), { signal: new AbortController().signal });
      }
      await transport.send(
        { jsonrpc: '2.0', method: 'notifications/x' },
        { signal: new AbortController().signal },
      );
      const pending = exchange(rpc('tools/call', { name: 'slow' }, 'slow'), {
        signal: new AbortController().signal,
      });
      await vi.waitFor(() => expect(observed.slowSignals).toHaveLength(1));
      await transport.close();
      await expect(pending).rejects.toThrow(/closed/);
      await vi.waitFor(() => expect(observed.slowSignals[0]?.aborted).toBe(true));
      expect(any).not.toHaveBeenCalled();
    } finally {
      any.mockRestore();
    }
  });

  it('exchanges sharing a signal share one listener on it; its abort ends each; none stays after close()', async () => {
    const observed: Observed = { slowSignals: [] };
    const { transport, exchange } = setup({ observed });
    const kept = new AbortController(); // a signal the application keeps (a client's shared response deadline)
    for (let i = 0; i < 5; i++) await exchange(rpc('tools/list', {}, i), { signal: kept.signal });
    expect(getEventListeners(kept.signal, 'abort')).toHaveLength(1); // kept idle for the next exchange
    const shared = new AbortController();
    const calls = [1, 2].map((id) =>
      exchange(rpc('tools/call', { name: 'slow' }, `slow-${id}`), { signal: shared.signal }),
    );
    await vi.waitFor(() => expect(observed.slowSignals).toHaveLength(2));
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(1);
    expect(getEventListeners(kept.signal, 'abort')).toHaveLength(1);
    const reason = new Error('deadline');
    shared.abort(reason);
    for (const call of calls) await expect(call).rejects.toBe(reason);
    await vi.waitFor(() => expect(observed.slowSignals.every((signal) => signal.aborted)).toBe(true));
    await exchange(rpc('tools/list', {}, 'after'), { signal: kept.signal });
    await transport.close();
    expect(getEventListeners(kept.signal, 'abort')).toHaveLength(0);
  });

  it('has one consumer, refuses responses outside a session, and checks its URL', async () => {
    const { transport } = setup();
    transport.messages[Symbol.asyncIterator]();
    expect(() => transport.messages[Symbol.asyncIterator]()).toThrow(TypeError);
    const response = { jsonrpc: '2.0', id: 1, result: {} } as JSONRPCMessage;
    await expect(transport.send(response)).rejects.toThrow(TypeError);
    expect(() => new StreamableHttpClientTransport('ftp://x/')).toThrow(TypeError);
    await transport.close();
  });
});

describe('StreamableHttpClientTransport: send', () => {
  it('refuses a request (requests go through request(), one exchange, one answer)', async () => {
    const { transport, requests } = setup();
    await expect(transport.send(rpc('tools/list', {}, 4) as never)).rejects.toThrow(TypeError);
    expect(requests).toHaveLength(0);
    await transport.close();
  });

  it('drops a notifications/cancelled outside a 2025-11-25 session (closing the exchange is the cancellation)', async () => {
    const { transport, requests } = setup();
    const cancelled: JSONRPCNotification = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 9 },
    };
    await transport.send(cancelled);
    expect(requests).toHaveLength(0);
    await transport.close();
  });
});
