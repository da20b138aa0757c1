import { ErrorCode, inputRequired, McpError, MetaKey } from '@boomerang/protocol';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client } from './client.js';
import { correlate } from './correlator.js';
import {
  askFor,
  cacheable,
  deferred,
  fakeServer,
  harness,
  INFO,
  NO_REPLY,
  progressOf,
  type Reply,
  script,
  textResult,
} from './test-support/fake-server.js';

const meta = {
  [MetaKey.protocolVersion]: '2026-07-28',
  [MetaKey.clientCapabilities]: {},
  [MetaKey.clientInfo]: INFO,
};

/** Every method, how to call it, what the server answers, and the params it must receive. */
const METHODS: [string, (c: Client) => Promise<unknown>, object, object][] = [
  [
    'server/discover',
    (c) => c.discover(),
    cacheable({ supportedVersions: ['2026-07-28'], capabilities: {} }),
    {},
  ],
  [
    'tools/list',
    (c) => c.listTools({ cursor: 'p2' }),
    cacheable({ tools: [], nextCursor: 'p3' }),
    { cursor: 'p2' },
  ],
  [
    'tools/call',
    (c) => c.callTool('echo', { x: 1 }),
    textResult('hi'),
    { name: 'echo', arguments: { x: 1 } },
  ],
  ['prompts/list', (c) => c.listPrompts(), cacheable({ prompts: [] }), {}],
  [
    'prompts/get',
    (c) => c.getPrompt('greet', { who: 'ann' }),
    { resultType: 'complete', messages: [] },
    { name: 'greet', arguments: { who: 'ann' } },
  ],
  ['resources/list', (c) => c.listResources(), cacheable({ resources: [] }), {}],
  ['resources/templates/list', (c) => c.listResourceTemplates(), cacheable({ resourceTemplates: [] }), {}],
  ['resources/read', (c) => c.readResource('file:///a'), cacheable({ contents: [] }), { uri: 'file:///a' }],
  [
    'completion/complete',
    (c) => c.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'a' } }),
    { resultType: 'complete', completion: { values: ['ann'] } },
    { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'a' } },
  ],
];

describe('Client requests', () => {
  it.each(METHODS)(
    '%s carries full _meta and returns the protocol result',
    async (method, call, result, params) => {
      await using h = await harness(script(result));
      expect(await call(h.client)).toEqual(result);
      expect(h.server.requests).toEqual([{ id: 1, method, params: { ...params, _meta: meta } }]);
    },
  );

  it('leaves undefined params off the wire', async () => {
    await using h = await harness(script(cacheable({ tools: [] })));
    await h.client.listTools({ cursor: undefined });
    expect(h.server.requests[0]?.params).toEqual({ _meta: meta });
  });

  it('list methods return { items, nextCursor } as sent', async () => {
    await using h = await harness(
      script(cacheable({ tools: [{ name: 't', inputSchema: { type: 'object' } }], nextCursor: 'c2' })),
    );
    const page = await h.client.listTools();
    expect(page.tools.map((t) => t.name)).toEqual(['t']);
    expect(page.nextCursor).toBe('c2');
  });

  it('a missing resultType is "complete" (servers of earlier revisions), then validated', async () => {
    await using h = await harness(script({ content: [{ type: 'text', text: 'old server' }] }));
    const result = await h.client.callTool('t');
    expect(result).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'old server' }] });
  });

  it.each([
    ['an unknown resultType', 'tools/call', { resultType: 'task', content: [] }, 'unknown resultType "task"'],
    ['a null resultType', 'tools/call', { resultType: null, content: [] }, 'unknown resultType null'],
    [
      'input_required on a list method',
      'tools/list',
      inputRequired({ requestState: 's' }),
      'resultType "input_required" is only allowed on tools/call, prompts/get, resources/read and methods outside the spec',
    ],
    [
      'input_required on discover',
      'server/discover',
      inputRequired({ requestState: 's' }),
      'only allowed on',
    ],
    [
      'an InputRequiredResult with neither field',
      'tools/call',
      { resultType: 'input_required' },
      'does not match its schema (InputRequiredResult needs inputRequests or requestState)',
    ],
    [
      'an InputRequiredResult with an empty inputRequests and no state',
      'tools/call',
      { resultType: 'input_required', inputRequests: {} },
      'an InputRequiredResult needs inputRequests or requestState',
    ],
    [
      'an unknown input request method',
      'tools/call',
      { resultType: 'input_required', inputRequests: { x: { method: 'tasks/get' } } },
      'the InputRequiredResult does not match its schema',
    ],
    ['a wrong shape', 'tools/call', { resultType: 'complete', content: 'nope' }, 'content:'],
  ])('%s is an invalid-result ClientError', async (_, method, result, message) => {
    await using h = await harness(script(result));
    const call =
      method === 'tools/call'
        ? h.client.callTool('t')
        : method === 'tools/list'
          ? h.client.listTools()
          : h.client.discover();
    const error = await call.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ClientError', reason: 'invalid-result' });
    expect((error as Error).message).toContain(`Invalid result for ${method}: `);
    expect((error as Error).message).toContain(message);
    expect(error).toMatchObject({ method });
    expect(h.server.requests).toHaveLength(1);
  });

  it('keeps the schema error as cause', async () => {
    await using h = await harness(script({ resultType: 'complete', content: 'nope' }));
    const error = await h.client.callTool('t').catch((e: unknown) => e);
    expect((error as Error).cause).toHaveProperty('issues');
  });

  it('a JSON-RPC error response rejects with McpError (code, message, data)', async () => {
    await using h = await harness(() => {
      throw McpError.unsupportedProtocolVersion('2026-07-28', ['2025-11-25']);
    });
    const error = await h.client.callTool('t').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({
      code: ErrorCode.UnsupportedProtocolVersion,
      message: 'Unsupported protocol version',
      data: { supported: ['2025-11-25'], requested: '2026-07-28' },
    });
  });
});

describe('Client connection', () => {
  it('protocolVersion is undefined until connected, then 2026-07-28; connecting sends nothing', async () => {
    const client = new Client(INFO);
    expect(client.protocolVersion).toBeUndefined();
    await using h = await harness(script());
    expect(h.client.protocolVersion).toBe('2026-07-28');
    expect(h.server.requests).toEqual([]);
    await h.client.close();
    expect(h.client.protocolVersion).toBeUndefined();
  });

  it('requests before connect reject with a not-connected ClientError', async () => {
    const client = new Client(INFO);
    await expect(client.listTools()).rejects.toMatchObject({ name: 'ClientError', reason: 'not-connected' });
    await expect(client.callTool('t')).rejects.toThrow(
      'Cannot send tools/call: the client is not connected; call client.connect(transport) first',
    );
  });

  it('refuses a second connect, and reconnects after close', async () => {
    await using h = await harness(script());
    await expect(h.client.connect(createInMemoryPair()[0])).rejects.toThrow('already connected');
    const fresh = new Client(INFO, { protocol: '2026-07-28' }); // nobody serves a and b: no probe
    const [a, b] = [createInMemoryPair(), createInMemoryPair()];
    const both = await Promise.allSettled([fresh.connect(a[0]), fresh.connect(b[0])]);
    expect(both.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    await fresh.close();
    await h.client.close();
    await h.client.close();
    await using pair = createInMemoryPair();
    await h.client.connect(pair[0]);
    expect(h.client.protocolVersion).toBe('2026-07-28');
  });

  it('validates its options', () => {
    expect(() => new Client(INFO, { inputRequiredMaxRounds: -1 })).toThrow(RangeError);
    expect(() => new Client(INFO, { inputRequiredMaxRounds: 1.5 })).toThrow(RangeError);
    expect(() => new Client(INFO, { requestTimeoutMs: 0 })).toThrow(RangeError);
    expect(() => new Client(INFO, { requestTimeoutMs: Number.NaN })).toThrow(RangeError);
    expect(() => new Client(INFO, { samplingTools: true })).toThrow(TypeError);
    expect(new Client(INFO, { inputRequiredMaxRounds: 0 })).toBeInstanceOf(Client);
    for (const bad of [0, -1, Number.NaN, 2 ** 31]) {
      expect(() => new Client(INFO, { responseTimeoutMs: bad })).toThrow(
        /"responseTimeoutMs" expected a number of milliseconds in \(0, 2\^31\) or false/,
      );
      expect(() => new Client(INFO, { connectTimeoutMs: bad })).toThrow(RangeError);
    }
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => new Client(INFO, { maxInputRequests: bad })).toThrow(
        /"maxInputRequests" expected a positive integer/,
      );
    }
    expect(new Client(INFO, { responseTimeoutMs: false, connectTimeoutMs: false })).toBeInstanceOf(Client);
  });

  it('rejects a bad per-call timeoutMs', async () => {
    await using h = await harness(script(textResult('ok')));
    await expect(h.client.callTool('t', {}, { timeoutMs: -5 })).rejects.toThrow(RangeError);
  });
});

/** The second round hangs: the first asks a question, the second never answers. */
const secondRoundHangs: Reply = (request) =>
  request.params.inputResponses === undefined
    ? inputRequired({ inputRequests: { q: askFor('q') }, requestState: 's' })
    : NO_REPLY;

describe('Client timeouts, cancellation and closing', () => {
  it('timeoutMs bounds all rounds: a timeout ClientError, and the round in flight is cancelled', async () => {
    await using h = await harness(secondRoundHangs, {
      elicitation: async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return { action: 'accept', content: { q: 'x' } };
      },
    });
    const started = performance.now();
    const error = await h.client.callTool('slow', {}, { timeoutMs: 80 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ClientError', reason: 'timeout' });
    expect((error as Error).message).toBe('tools/call "slow" timed out after 80 ms');
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(h.server.requests).toHaveLength(2);
    const cancelled = await h.server.waitForNotification('notifications/cancelled');
    expect(cancelled.params).toEqual({ requestId: 2, reason: 'tools/call "slow" timed out after 80 ms' });
  });

  it('requestTimeoutMs is the default limit, and a timeout also ends a callback wait', async () => {
    let callbackSignal: AbortSignal | undefined;
    await using h = await harness(secondRoundHangs, {
      requestTimeoutMs: 40,
      elicitation: (_params, ctx) => {
        callbackSignal = ctx.signal;
        return new Promise(() => {});
      },
    });
    await expect(h.client.callTool('t')).rejects.toMatchObject({ name: 'ClientError', reason: 'timeout' });
    expect(callbackSignal?.aborted).toBe(true);
    expect(callbackSignal?.reason).toMatchObject({ name: 'ClientError', reason: 'timeout' });
    expect(h.server.notifications).toEqual([]); // nothing was in flight during the callback
  });

  it('an AbortSignal cancels across rounds and rejects with its reason', async () => {
    const controller = new AbortController();
    await using h = await harness(secondRoundHangs, {
      elicitation: () => ({ action: 'accept', content: { q: 'x' } }),
    });
    const call = h.client.callTool('t', {}, { signal: controller.signal });
    await h.server.waitForRequests(2);
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect((await h.server.waitForNotification('notifications/cancelled')).params).toEqual({
      requestId: 2,
      reason: 'user pressed stop',
    });
  });

  it('the transport closing mid-call fails the call with a closed ClientError', async () => {
    const answered = deferred();
    await using h = await harness(secondRoundHangs, {
      elicitation: () => {
        answered.resolve();
        return { action: 'accept', content: { q: 'x' } };
      },
    });
    const call = h.client.callTool('t');
    await h.server.waitForRequests(2);
    await h.transport.close();
    const error = await call.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ClientError', reason: 'closed' });
    expect((error as Error).message).toBe(
      'The connection closed before tools/call (request id 2) got a response',
    );
  });

  it('close() fails every call in flight at once', async () => {
    await using h = await harness(() => NO_REPLY);
    const calls = [h.client.listTools(), h.client.callTool('a'), h.client.readResource('file:///x')];
    await h.server.waitForRequests(3);
    await h.client.close();
    const errors = await Promise.all(calls.map((c) => c.catch((e: unknown) => e)));
    for (const error of errors) expect(error).toMatchObject({ name: 'ClientError', reason: 'closed' });
  });
});

describe('Client default time limits: responseTimeoutMs and connectTimeoutMs', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a call without a time limit waits at most responseTimeoutMs per request; the request is cancelled', async () => {
    await using h = await harness(() => NO_REPLY, { responseTimeoutMs: 40 });
    const error = await h.client.callTool('silent').catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'ClientError',
      reason: 'timeout',
      timeoutMs: 40,
      method: 'tools/call',
    });
    expect((error as Error).message).toMatch(
      /^tools\/call "silent" got no response within 40 ms \(responseTimeoutMs\): the server went silent or never ended its answer/,
    );
    const cancelled = await h.server.waitForNotification('notifications/cancelled');
    expect(cancelled.params).toEqual({
      requestId: 1,
      reason: 'no response within 40 ms (responseTimeoutMs)',
    });
  });

  it('notifications do not extend it: a server streaming progress forever still times out', async () => {
    let streaming: ReturnType<typeof setInterval> | undefined;
    const endless: Reply = (request, _i, server) => {
      streaming = setInterval(() => void server.send(progressOf(request, 1)).catch(() => {}), 5);
      return NO_REPLY;
    };
    await using h = await harness(endless, { responseTimeoutMs: 400 });
    const progress: number[] = [];
    const call = h.client.callTool('endless', {}, { onprogress: (p) => progress.push(p.progress) });
    await expect(call).rejects.toMatchObject({ reason: 'timeout', timeoutMs: 400 });
    clearInterval(streaming);
    expect(progress.length).toBeGreaterThan(2);
  });

  it('each round has its own limit, and the callbacks between rounds are not counted', async () => {
    const later = (value: object) => new Promise((resolve) => setTimeout(() => resolve(value), 20));
    const reply: Reply = (request) =>
      request.params.inputResponses === undefined
        ? later(inputRequired({ inputRequests: { q: askFor('q') }, requestState: 's' }))
        : later(textResult('done'));
    // Margins wide enough for a loaded machine: each round answers in ~20 ms against a 400 ms limit, and the
    // callback alone takes 1 s, so the call only completes when callback time is not counted.
    await using h = await harness(reply, {
      responseTimeoutMs: 400,
      elicitation: async () => {
        await new Promise((resolve) => setTimeout(resolve, 1_000)); // a person filling in the form
        return { action: 'accept', content: { q: 'x' } };
      },
    });
    expect(await h.client.callTool('two-rounds')).toMatchObject({ content: [{ text: 'done' }] });
  });

  it("a call's timeoutMs (or requestTimeoutMs) replaces it: the call is bounded by that alone", async () => {
    const slow: Reply = () => new Promise((resolve) => setTimeout(() => resolve(textResult('slow')), 80));
    await using h = await harness(slow, { responseTimeoutMs: 20 });
    expect(await h.client.callTool('a', {}, { timeoutMs: 1_000 })).toMatchObject({
      content: [{ text: 'slow' }],
    });
    await using g = await harness(slow, { responseTimeoutMs: 20, requestTimeoutMs: 1_000 });
    expect(await g.client.callTool('b')).toMatchObject({ content: [{ text: 'slow' }] });
    await using f = await harness(slow, { responseTimeoutMs: false });
    expect(await f.client.callTool('c')).toMatchObject({ content: [{ text: 'slow' }] });
  });

  it('listen() streams are exempt: a subscription stays open past responseTimeoutMs', async () => {
    await using h = await harness(() => NO_REPLY, { responseTimeoutMs: 20 });
    const sub = h.client.listen({ toolsListChanged: true });
    await h.server.waitForRequests(1);
    await new Promise((resolve) => setTimeout(resolve, 80));
    const id = h.server.requests[0]?.id;
    const tag = { _meta: { 'io.modelcontextprotocol/subscriptionId': id } };
    await h.server.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: tag });
    const first = await sub[Symbol.asyncIterator]().next();
    expect(first.value).toMatchObject({ method: 'notifications/tools/list_changed' });
    expect(h.server.notifications).toEqual([]); // not cancelled
    await sub.close();
  });

  it('defaults to five minutes per request, give or take the second during which requests share a deadline (fake timers)', async () => {
    await using h = await harness(() => NO_REPLY);
    vi.useFakeTimers();
    let outcome: unknown;
    const call = h.client.callTool('silent').catch((e: unknown) => e);
    void call.then((value) => (outcome = value));
    await vi.advanceTimersByTimeAsync(299_999);
    expect(outcome).toBeUndefined();
    expect(h.server.notifications).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_001);
    expect(outcome).toMatchObject({ reason: 'timeout', timeoutMs: 300_000 });
  });

  it('requests starting within the same moment share one deadline; each still gets its full limit', async () => {
    await using h = await harness(() => NO_REPLY, { responseTimeoutMs: 100 });
    vi.useFakeTimers();
    const outcomes: [string, unknown][] = [];
    const first = h.client.callTool('a').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(9); // the window of a 100 ms limit is 10 ms
    const second = h.client.callTool('b').catch((e: unknown) => e);
    void first.then((e) => outcomes.push(['a', e]));
    void second.then((e) => outcomes.push(['b', e]));
    await vi.advanceTimersByTimeAsync(100); // t = 109: b has had 100 ms, a 109
    expect(outcomes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1); // t = 110: the window's budget (100 + 10) is spent
    expect(outcomes.map(([name]) => name).sort()).toEqual(['a', 'b']);
    const third = h.client.callTool('c').catch((e: unknown) => e); // a new window
    await vi.advanceTimersByTimeAsync(109);
    expect(await Promise.race([third, Promise.resolve('pending')])).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(await third).toMatchObject({
      reason: 'timeout',
      message: expect.stringMatching(/^tools\/call "c"/),
    });
  });

  it('connect() to a silent server rejects after connectTimeoutMs (default 30 s) and closes the transport', async () => {
    vi.useFakeTimers();
    const pair = createInMemoryPair();
    const [clientEnd, serverEnd] = pair;
    const server = fakeServer(serverEnd, () => NO_REPLY);
    // A request transport (as HTTP is): 'auto' waits for the probe without its own probe timeout.
    const client = new Client(INFO);
    const connecting = client.connect(correlate(clientEnd)).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(server.requests.map((r) => r.method)).toEqual(['server/discover']);
    await vi.advanceTimersByTimeAsync(1);
    const error = await connecting;
    expect(error).toMatchObject({
      name: 'ClientError',
      reason: 'timeout',
      method: 'connect',
      timeoutMs: 30_000,
    });
    expect((error as Error).message).toMatch(
      /^connect\(\) got no answer within 30000 ms \(connectTimeoutMs\)/,
    );
    expect(client.protocolVersion).toBeUndefined();
    await expect(clientEnd.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow(); // closed
    await pair[Symbol.asyncDispose]();
  });

  it('connectTimeoutMs also bounds a 2025-11-25 initialize; false waits', async () => {
    const initializing: Reply = (request) => {
      if (request.method === 'server/discover') throw new McpError(-32601, 'Method not found');
      return NO_REPLY;
    };
    await expect(harness(initializing, { protocol: 'auto', connectTimeoutMs: 40 })).rejects.toMatchObject({
      reason: 'timeout',
      method: 'connect',
    });
    let answer: (() => void) | undefined;
    const discover = { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} };
    const late: Reply = () => new Promise((resolve) => (answer = () => resolve(discover)));
    const connecting = harness(late, { protocol: 'auto', connectTimeoutMs: false, asRequestTransport: true });
    await new Promise((resolve) => setTimeout(resolve, 60));
    answer?.();
    await using h = await connecting;
    expect(h.client.protocolVersion).toBe('2026-07-28');
  });
});

describe('Client maxInputRequests', () => {
  /** An `input_required` result asking `count` questions (keys q0, q1, …). */
  const asking = (count: number) => {
    const inputRequests: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) inputRequests[`q${i}`] = askFor('q');
    return { resultType: 'input_required', inputRequests, requestState: 's' };
  };

  it('refuses 100,000 elicitations in one result before running a single callback', async () => {
    let calls = 0;
    await using h = await harness(script(asking(100_000)), {
      elicitation: () => {
        calls++;
        return { action: 'accept', content: { q: 'x' } };
      },
    });
    const error = await h.client.callTool('flood').catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'ClientError',
      reason: 'too-many-input-requests',
      maxInputRequests: 64,
      method: 'tools/call',
    });
    expect((error as Error).message).toBe(
      'tools/call "flood" returned input_required with 100000 input requests in one round, more than ' +
        'maxInputRequests (64); none was answered. Raise maxInputRequests in the Client options if the server is ' +
        'trusted to ask that many at once.',
    );
    expect(Object.keys((error as { result: { inputRequests: object } }).result.inputRequests)).toHaveLength(
      100_000,
    );
    expect(calls).toBe(0);
    expect(h.server.requests).toHaveLength(1);
  });

  it('answers up to the cap, all at once', async () => {
    let running = 0;
    let most = 0;
    const gate = deferred();
    await using h = await harness(script(asking(64), textResult('done')), {
      elicitation: async () => {
        running++;
        most = Math.max(most, running);
        if (most === 64) gate.resolve();
        await gate.promise;
        running--;
        return { action: 'accept', content: { q: 'x' } };
      },
    });
    expect(await h.client.callTool('many')).toMatchObject({ content: [{ text: 'done' }] });
    expect(most).toBe(64);
    expect(Object.keys(h.server.requests[1]?.params.inputResponses)).toHaveLength(64);
  });

  it('is an option, and also bounds the manual loop (start)', async () => {
    await using h = await harness(script(asking(3), asking(3)), { maxInputRequests: 2 });
    await expect(h.client.callTool('three')).rejects.toMatchObject({
      reason: 'too-many-input-requests',
      maxInputRequests: 2,
    });
    await expect(h.client.start('tools/call', { name: 'three' })).rejects.toMatchObject({
      reason: 'too-many-input-requests',
    });
  });
});
