import { ErrorCode, inputRequired, McpError, MetaKey } from '@boomerang/protocol';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { Client } from './client.js';
import {
  askFor,
  cacheable,
  deferred,
  harness,
  INFO,
  NO_REPLY,
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
