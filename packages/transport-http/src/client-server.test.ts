import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import { Client } from '@boomerang/client';
import {
  elicitRequest,
  inputRequired,
  isTransportFailure,
  type JSONRPCRequest,
  McpError,
  type Result,
} from '@boomerang/protocol';
import type { FetchLike } from '@boomerang/protocol/transport';
import { jsonRpcResult, type MessageHandler } from '@boomerang/protocol/transport';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StreamableHttpClientTransport } from './client.js';
import { createHttpHandler, type HttpHandlerOptions } from './handler.js';
import { makeServer, type Observed, tools } from './test-support/fixture.js';

// `Client` ↔ `Server` over the HTTP pair, in process: the client transport's fetch calls the handler directly.
// The transport contract itself runs in client.test.ts (`requestTransportSuite` of @boomerang/testing).

async function connect(
  options: { observed?: Observed; http?: HttpHandlerOptions; fetch?: (f: FetchLike) => FetchLike } = {},
) {
  const handler = createHttpHandler(makeServer(options.observed), { tools, ...options.http });
  const direct: FetchLike = async (input, init) => handler(new Request(input, init));
  const transport = new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', {
    fetch: options.fetch ? options.fetch(direct) : direct,
    onWarning: () => {},
  });
  const client = new Client(
    { name: 'test-host', version: '1.0.0' },
    { elicitation: async () => ({ action: 'accept', content: { color: 'teal' } }) },
  );
  await client.connect(transport);
  return client;
}

describe('Client ↔ Server over createHttpHandler (no sockets)', () => {
  it('discovers, lists (dropping the invalid tool) and calls', async () => {
    const client = await connect();
    expect((await client.discover()).supportedVersions).toEqual(['2026-07-28']);
    const { tools: listed } = await client.listTools();
    expect(listed.map((t) => t.name)).toEqual(['echo', 'progress', 'slow', 'ask']);
    const result = await client.callTool('echo', { text: 'hi', region: 'eu', options: { count: 3 } });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    await client.close();
  });

  it('runs the MRTR loop: two rounds, sealed state, each a new POST', async () => {
    const client = await connect();
    const result = await client.callTool('ask');
    expect(result.content).toEqual([{ type: 'text', text: 'color: teal' }]);
    await client.close();
  });

  it('delivers progress through SSE to onprogress', async () => {
    const client = await connect();
    const onprogress = vi.fn();
    await client.callTool('progress', {}, { onprogress });
    expect(onprogress.mock.calls.map(([p]) => p.progress)).toEqual([1, 2, 3]);
    await client.close();
  });

  it('cancels: aborting the call aborts the handler signal', async () => {
    const observed: Observed = { slowSignals: [] };
    const client = await connect({ observed });
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal });
    await vi.waitFor(() => expect(observed.slowSignals).toHaveLength(1));
    controller.abort(new Error('user gave up'));
    await expect(call).rejects.toThrow('user gave up');
    await vi.waitFor(() => expect(observed.slowSignals[0]?.aborted).toBe(true));
    expect((await client.callTool('echo', { text: 'still here' })).content).toHaveLength(1);
    await client.close();
  });

  it('serves 100 interleaved calls concurrently', async () => {
    const client = await connect();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => client.callTool('echo', { text: `n${i}` })),
    );
    expect(results.map((r) => (r.content[0] as { text: string }).text)).toEqual(
      Array.from({ length: 100 }, (_, i) => `n${i}`),
    );
    await client.close();
  });

  it('carries large messages (~4 MiB, multi-byte UTF-8) both ways under a raised limit', async () => {
    const client = await connect({ http: { maxBodyBytes: 16 * 1024 * 1024 } });
    const text = 'abc é 日本 🪃 '.repeat(200_000);
    const result = await client.callTool('echo', { text });
    expect((result.content[0] as { text: string }).text).toBe(text);
    await client.close();
  });

  it('fails a call clearly when the body is over the limit (413), and keeps working', async () => {
    const client = await connect({ http: { maxBodyBytes: 1024 } });
    const failure = client.callTool('echo', { text: 'x'.repeat(2000) });
    await expect(failure).rejects.toBeInstanceOf(McpError);
    await expect(failure).rejects.toThrow(/exceeds 1024 bytes/);
    expect((await client.callTool('echo', { text: 'small' })).content).toHaveLength(1);
    await client.close();
  });

  it('fails a call clearly on a non-JSON-RPC failure; the caller may retry (a new id)', async () => {
    let broken = false; // connect() probes with server/discover first; the proxy breaks after that
    const client = await connect({
      fetch: (direct) => async (input, init) => {
        if (!broken) return direct(input, init);
        broken = false;
        return new Response('<html>proxy down</html>', { status: 502, statusText: 'Bad Gateway' });
      },
    });
    broken = true;
    const failure = await client.callTool('echo', { text: 'a' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((failure as Error).message).toMatch(/HTTP transport: tools\/call got HTTP 502 Bad Gateway/);
    expect(isTransportFailure(failure)).toBe(true); // made up by the transport, marked so, with the status
    expect((failure as { data: unknown }).data).toEqual({ transportFailure: true, status: 502 });
    expect((await client.callTool('echo', { text: 'a' })).content).toHaveLength(1);
    await client.close();
  });
});

describe('Client#request and continuations over HTTP (a vendor method, two rounds)', () => {
  /** A hand-written endpoint: `acme/search` asks which index, then answers from the retry alone. */
  const search: MessageHandler = {
    async handle(message) {
      const { id, params = {} } = message as JSONRPCRequest;
      const { requestState, inputResponses, query } = params as {
        requestState?: string;
        inputResponses?: { index?: { content?: { index?: string } } };
        query?: string;
      };
      if (requestState === undefined) {
        const ask = elicitRequest({
          message: 'Which index?',
          requestedSchema: { type: 'object', properties: { index: { type: 'string' } } },
        });
        return jsonRpcResult(
          id,
          inputRequired({ inputRequests: { index: ask }, requestState: `q:${query}` }),
        );
      }
      const index = inputResponses?.index?.content?.index;
      return jsonRpcResult(id, { resultType: 'complete', hits: [`${requestState} in ${index}`] } as Result);
    },
  };
  const Hits = {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: (value: unknown) => ({ value: value as { hits: string[] } }),
    },
  } as const;
  const transport = () => {
    const handler = createHttpHandler(search);
    return new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', {
      fetch: async (input, init) => handler(new Request(input, init)),
    });
  };

  it('request(): the loop answers from the callback', async () => {
    const client = new Client(
      { name: 'host', version: '1.0.0' },
      { protocol: '2026-07-28', elicitation: () => ({ action: 'accept', content: { index: 'books' } }) },
    );
    await client.connect(transport());
    expect(await client.request('acme/search', { query: 'dune' }, { result: Hits })).toMatchObject({
      hits: ['q:dune in books'],
    });
    await client.close();
  });

  it('start() in one client, resume() in another, through the JSON of the continuation', async () => {
    const first = new Client({ name: 'a', version: '1.0.0' }, { protocol: '2026-07-28' });
    await first.connect(transport());
    const step = await first.start('acme/search', { query: 'dune' }, { result: Hits });
    await first.close();
    const stored = JSON.stringify(step.continuation);
    const second = new Client({ name: 'b', version: '1.0.0' }, { protocol: '2026-07-28' });
    await second.connect(transport());
    const answer = { index: { action: 'accept' as const, content: { index: 'films' } } };
    const done = await second.resume(JSON.parse(stored), answer, { result: Hits });
    expect(done.result).toMatchObject({ hits: ['q:dune in films'] });
    await second.close();
  });
});

describe('Client over HTTP: silent servers, endless streams, large answers (127.0.0.1)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  });

  it('connect() to a server that accepts the connection and never answers rejects after connectTimeoutMs, aborting the POST', async () => {
    const sockets: Socket[] = [];
    const silent = createNetServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });
    const { port } = silent.address() as { port: number };
    const signals: AbortSignal[] = [];
    const fetch: FetchLike = (input, init) => {
      signals.push(init.signal as AbortSignal);
      return globalThis.fetch(input, init);
    };
    const client = new Client({ name: 'host', version: '1.0.0' }, { connectTimeoutMs: 150 });
    const started = performance.now();
    const error = await client
      .connect(new StreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`, { fetch }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'ClientError',
      reason: 'timeout',
      method: 'connect',
      timeoutMs: 150,
    });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(signals).toHaveLength(1); // the server/discover probe
    expect(signals[0]?.aborted).toBe(true);
    await vi.waitFor(() => expect(sockets.length).toBeGreaterThan(0)); // it did reach the silent server
  });

  it('a call on an event stream that sends keep-alives forever times out after responseTimeoutMs; the stream is closed', async () => {
    const streams: ServerResponse[] = [];
    const timers: ReturnType<typeof setInterval>[] = [];
    const closed: Promise<void>[] = [];
    const endless = createHttpServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      streams.push(response);
      timers.push(setInterval(() => response.write(': keep-alive\n\n'), 5));
      closed.push(new Promise((resolve) => response.on('close', () => resolve())));
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      for (const timer of timers) clearInterval(timer);
      endless.closeAllConnections();
      await new Promise((resolve) => endless.close(resolve));
    });
    const { port } = endless.address() as { port: number };
    const client = new Client(
      { name: 'host', version: '1.0.0' },
      { protocol: '2026-07-28', responseTimeoutMs: 200 },
    );
    await client.connect(new StreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`));
    const error = await client.callTool('forever').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ClientError', reason: 'timeout', timeoutMs: 200 });
    expect((error as Error).message).toMatch(
      /tools\/call "forever" got no response within 200 ms \(responseTimeoutMs\)/,
    );
    await Promise.all(closed);
    expect(streams[0]?.writableEnded).toBe(false); // the client went away; the server never ended it
    await client.close();
  });

  it('a tool result past maxEventBytes rejects the call with an McpError naming the option; the next call works', async () => {
    let big = true;
    const text = 'x'.repeat(300_000);
    const fetch: FetchLike = async (_input, init) => {
      const { id } = JSON.parse(init.body as string) as { id: number };
      const result = { resultType: 'complete', content: [{ type: 'text', text: big ? text : 'small' }] };
      return new Response(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`, {
        headers: { 'content-type': 'text/event-stream' },
      });
    };
    const client = new Client({ name: 'host', version: '1.0.0' }, { protocol: '2026-07-28' });
    await client.connect(
      new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', { fetch, maxEventBytes: 100_000 }),
    );
    const failure = await client.callTool('export').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(McpError);
    expect(isTransportFailure(failure)).toBe(true);
    expect((failure as McpError).message).toMatch(
      /^HTTP transport: an event of the event stream of tools\/call is larger than maxEventBytes \(100000 bytes\)/,
    );
    big = false;
    expect((await client.callTool('export')).content).toEqual([{ type: 'text', text: 'small' }]);
    await client.close();
  });
});
