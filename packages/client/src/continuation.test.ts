// Continuations: `client.start()` / `client.resume()`, the format, and every way a resume can be refused.
import { type CallToolResult, inputRequired, McpError } from '@boomerang/protocol';
import { Server, sealed } from '@boomerang/server';
import { connectInMemory } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from './client.js';
import { type Continuation, continuationProblem, responsesProblem } from './continuation.js';
import { isClientError } from './errors.js';
import { askFor, harness, type Reply, script, textResult } from './test-support/fake-server.js';

/** A stateless server: asks for a region (and on a second call for a size), finishing from the retry alone. */
const provisioner: Reply = (request) => {
  const { inputResponses, requestState, arguments: args } = request.params;
  if (requestState === undefined) {
    return inputRequired({
      inputRequests: { region: askFor('region', `Region for ${args.name}?`) },
      requestState: `provision:${args.name}`,
    });
  }
  if (requestState === 'expired') throw new McpError(-32602, 'Invalid or expired requestState');
  if (args.size === true && requestState.startsWith('provision:')) {
    return inputRequired({ inputRequests: { size: askFor('size') }, requestState: `sized:${args.name}` });
  }
  const answer = inputResponses.region ?? inputResponses.size;
  return textResult(`${requestState} → ${answer.content.region ?? answer.content.size}`);
};

const region = (value: string) => ({ region: { action: 'accept' as const, content: { region: value } } });

describe('client.start() and client.resume()', () => {
  it('start: { result } when the server answers at once', async () => {
    await using h = await harness(script(textResult('done')));
    const step = await h.client.start('tools/call', { name: 'quick' });
    expect(step).toEqual({ result: textResult('done') });
    expect(step.continuation).toBeUndefined();
  });

  it('start: { continuation }, plain JSON, that another client resumes to the CallToolResult', async () => {
    let stored: string;
    {
      // Process 1: start the flow, store it, go away. No callback is asked.
      const asked: unknown[] = [];
      await using h = await harness(provisioner, { elicitation: (p) => void asked.push(p) as never });
      const step = await h.client.start('tools/call', { name: 'provision', arguments: { name: 'orders' } });
      expect(step.result).toBeUndefined();
      const continuation = step.continuation as Continuation<'tools/call'>;
      expect(continuation).toEqual({
        version: 1,
        method: 'tools/call',
        params: { name: 'provision', arguments: { name: 'orders' } },
        inputRequests: { region: askFor('region', 'Region for orders?') },
        requestState: 'provision:orders',
        round: 1,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      expect(asked).toEqual([]);
      stored = JSON.stringify(continuation);
    }
    // Process 2: a fresh client, another connection.
    await using h = await harness(provisioner);
    const continuation = JSON.parse(stored) as Continuation<'tools/call'>;
    const step = await h.client.resume(continuation, region('eu-west-1'));
    const result: CallToolResult | undefined = step.result;
    expect(result).toEqual(textResult('provision:orders → eu-west-1'));
    expect(h.server.requests[0]?.params).toMatchObject({
      name: 'provision',
      arguments: { name: 'orders' },
      inputResponses: region('eu-west-1'),
      requestState: 'provision:orders',
    });
  });

  it('resume: the next { continuation } when the server asks again, one round later', async () => {
    await using h = await harness(provisioner);
    const first = await h.client.start('tools/call', { name: 'p', arguments: { name: 'db', size: true } });
    const second = await h.client.resume(first.continuation as Continuation<'tools/call'>, region('eu'));
    expect(second.continuation).toMatchObject({
      round: 2,
      requestState: 'sized:db',
      inputRequests: { size: {} },
    });
    const done = await h.client.resume(second.continuation as Continuation<'tools/call'>, {
      size: { action: 'accept', content: { size: 'xl' } },
    });
    expect(done.result).toEqual(textResult('sized:db → xl'));
  });

  it('start follows state-only rounds (with the back-off) and stops at the round that asks', async () => {
    const slept: number[] = [];
    await using h = await harness(
      script(
        inputRequired({ requestState: 'a' }),
        inputRequired({ inputRequests: { q: askFor('q') }, requestState: 'b' }),
      ),
      { sleep: async (ms) => void slept.push(ms) },
    );
    const step = await h.client.start('prompts/get', { name: 'greet', arguments: { who: 'ann' } });
    expect(step.continuation).toMatchObject({ method: 'prompts/get', round: 2, requestState: 'b' });
    expect(slept).toEqual([50]);
    expect(h.server.requests[1]?.params).toMatchObject({ name: 'greet', requestState: 'a' });
  });

  it('a flow of any method: start and resume with its result schema', async () => {
    const Hits = z.object({ hits: z.array(z.string()) });
    const reply: Reply = (request) =>
      request.params.requestState === undefined
        ? inputRequired({ inputRequests: { index: askFor('index') }, requestState: 'search' })
        : { resultType: 'complete', hits: [request.params.inputResponses.index.content.index] };
    await using h = await harness(reply);
    const step = await h.client.start('acme/search', { query: 'dune' }, { result: Hits });
    const continuation = step.continuation as Continuation<'acme/search'>;
    expect(continuation).toMatchObject({ method: 'acme/search', params: { query: 'dune' } });
    const answer = { index: { action: 'accept' as const, content: { index: 'books' } } };
    await expect(h.client.resume(continuation, answer, undefined as never)).rejects.toThrow(TypeError);
    await expect(h.client.start('acme/search', {}, undefined as never)).rejects.toThrow(TypeError);
    const done = await h.client.resume(continuation, answer, { result: Hits });
    const hits: string[] | undefined = done.result?.hits;
    expect(hits).toEqual(['books']);
  });

  it('answers under keys that were not asked are invalid-input-responses, and nothing is sent', async () => {
    await using h = await harness(provisioner);
    const { continuation } = await h.client.start('tools/call', { name: 'p', arguments: { name: 'x' } });
    const sent = h.server.requests.length;
    const error = await h.client
      .resume(continuation as Continuation<'tools/call'>, { ...region('eu'), colour: { action: 'decline' } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'ClientError',
      reason: 'invalid-input-responses',
      keys: ['colour'],
      request: { method: 'tools/call', name: 'p' },
    });
    expect((error as Error).message).toContain('answers for keys that were not asked: colour');
    expect(h.server.requests).toHaveLength(sent);
  });

  it('an answer of the wrong kind for its question is invalid-input-responses', async () => {
    await using h = await harness(provisioner);
    const { continuation } = await h.client.start('tools/call', { name: 'p', arguments: { name: 'x' } });
    const roots = { roots: [{ uri: 'file:///x' }] };
    await expect(
      h.client.resume(continuation as Continuation<'tools/call'>, { region: roots as never }),
    ).rejects.toMatchObject({ reason: 'invalid-input-responses', keys: ['region'] });
  });

  it('the server refusing the state is state-rejected, with its McpError as cause', async () => {
    await using h = await harness(provisioner);
    const { continuation } = await h.client.start('tools/call', { name: 'p', arguments: { name: 'x' } });
    const stale = { ...(continuation as Continuation<'tools/call'>), requestState: 'expired' };
    const error = await h.client.resume(stale, region('eu')).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ClientError', reason: 'state-rejected', request: { name: 'p' } });
    expect((error as Error).cause).toBeInstanceOf(McpError);
    expect((error as Error).cause).toMatchObject({
      code: -32602,
      message: 'Invalid or expired requestState',
    });
  });

  it('other server errors stay McpError', async () => {
    const reply: Reply = (request) => {
      if (request.params.requestState === undefined)
        return inputRequired({ inputRequests: { q: askFor('q') }, requestState: 's' });
      throw new McpError(-32602, 'Unknown tool: p');
    };
    await using h = await harness(reply);
    const { continuation } = await h.client.start('tools/call', { name: 'p' });
    const error = await h.client
      .resume(continuation as Continuation<'tools/call'>, { q: { action: 'decline' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
  });

  it('rounds-exceeded in the automatic loop carries the continuation to go on by hand', async () => {
    await using h = await harness(
      (request) =>
        request.params.inputResponses?.q?.content?.q === 'by hand'
          ? textResult('finished by hand')
          : inputRequired({ inputRequests: { q: askFor('q') }, requestState: 'loop' }),
      { inputRequiredMaxRounds: 1, elicitation: () => ({ action: 'accept', content: { q: 'auto' } }) },
    );
    const error = await h.client.callTool('t', { n: 1 }).catch((e: unknown) => e);
    const continuation = (error as { continuation: Continuation<'tools/call'> }).continuation;
    expect(continuation).toMatchObject({
      method: 'tools/call',
      params: { name: 't', arguments: { n: 1 } },
      round: 2,
    });
    const step = await h.client.resume(continuation, { q: { action: 'accept', content: { q: 'by hand' } } });
    expect(step.result).toEqual(textResult('finished by hand'));
  });

  it('a timeout or an abort mid-resume fails it like any call', async () => {
    await using h = await harness((request) =>
      request.params.requestState === undefined
        ? inputRequired({ inputRequests: { q: askFor('q') }, requestState: 's' })
        : new Promise(() => {}),
    );
    const { continuation } = await h.client.start('tools/call', { name: 't' });
    const answers = { q: { action: 'cancel' as const } };
    await expect(
      h.client.resume(continuation as Continuation<'tools/call'>, answers, { timeoutMs: 30 }),
    ).rejects.toMatchObject({ reason: 'timeout', timeoutMs: 30 });
    const reason = new Error('stop');
    await expect(
      h.client.resume(continuation as Continuation<'tools/call'>, answers, {
        signal: AbortSignal.abort(reason),
      }),
    ).rejects.toBe(reason);
  });
});

describe('malformed or tampered continuations', () => {
  const valid: Continuation<'tools/call'> = {
    version: 1,
    method: 'tools/call',
    params: { name: 'p', arguments: { name: 'x' } },
    inputRequests: { region: askFor('region') },
    requestState: 's',
    round: 1,
    createdAt: '2026-07-28T10:00:00.000Z',
  };

  it.each<[string, unknown, RegExp]>([
    ['not an object', 'tools/call', /not an object/],
    ['another version', { ...valid, version: 2 }, /version 2 is not 1/],
    ['an unknown member', { ...valid, extra: true }, /unknown member "extra"/],
    ['no method', { ...valid, method: '' }, /"method"/],
    [
      'a method that never asks',
      { ...valid, method: 'tools/list' },
      /tools\/list never answers input_required/,
    ],
    [
      'params carrying a state',
      { ...valid, params: { name: 'p', requestState: 'x' } },
      /"params" carries "requestState"/,
    ],
    ['params carrying _meta', { ...valid, params: { name: 'p', _meta: {} } }, /"params" carries "_meta"/],
    ['a tool call without a name', { ...valid, params: { arguments: {} } }, /"params.name" is missing/],
    [
      'a resource read without a uri',
      { ...valid, method: 'resources/read', params: {} },
      /"params.uri" is missing/,
    ],
    [
      'prompt arguments that are not strings',
      { ...valid, method: 'prompts/get', params: { name: 'g', arguments: { n: 1 } } },
      /strings/,
    ],
    [
      'questions that are not input requests',
      { ...valid, inputRequests: { q: { method: 'x' } } },
      /"inputRequests"/,
    ],
    ['no question', { ...valid, inputRequests: {} }, /asks nothing/],
    ['a state that is not a string', { ...valid, requestState: 42 }, /"requestState"/],
    ['round 0', { ...valid, round: 0 }, /"round"/],
    ['a creation time that is no date', { ...valid, createdAt: 'yesterday' }, /"createdAt"/],
  ])('%s is invalid-continuation, and nothing is sent', async (_, continuation, problem) => {
    expect(await continuationProblem(continuation)).toMatch(problem);
    await using h = await harness(provisioner);
    const error = await h.client
      .resume(continuation as Continuation<'tools/call'>, {})
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ClientError', reason: 'invalid-continuation' });
    expect((error as Error).message).toMatch(problem);
    expect(h.server.requests).toEqual([]);
  });

  it('a valid one has no problem; missing answers are the server’s to ask again', async () => {
    expect(await continuationProblem(valid)).toBeUndefined();
    expect(await continuationProblem(JSON.parse(JSON.stringify(valid)))).toBeUndefined();
    expect(await responsesProblem(valid, {})).toBeUndefined();
    expect(await responsesProblem(valid, 'nope')).toMatchObject({ keys: [] });
  });
});

describe('resuming against a server that seals its state (@boomerang/server sealed())', () => {
  // A real low-level Server: its state is sealed, bound to the tool and its arguments, and expires. `clock` is
  // the server's, so a test moves time without waiting.
  function provisioningServer(key: number, clock: { now: number }) {
    const server = new Server(
      { name: 'provisioner', version: '1.0.0' },
      {
        requestState: sealed({
          keys: [new Uint8Array(32).fill(key)],
          ttlSeconds: 60,
          clock: () => clock.now,
        }),
        logger: { warn: () => {}, error: () => {} },
        onCallTool: ({ arguments: args }, ctx) => {
          const answer = ctx.inputResponses?.region as { content?: { region?: string } } | undefined;
          if (ctx.requestState === 'asked' && answer?.content?.region !== undefined)
            return { content: [{ type: 'text', text: `${String(args?.name)} in ${answer.content.region}` }] };
          return inputRequired({
            inputRequests: { region: askFor('region', 'Which region?') },
            requestState: 'asked',
          });
        },
      },
    );
    let served = 0;
    return {
      async client() {
        const client = new Client({ name: 'inbox', version: '1' }, { capabilities: { elicitation: {} } });
        await connectInMemory(client, server);
        served++;
        return client;
      },
      get served() {
        return served;
      },
    };
  }

  async function stored(server: ReturnType<typeof provisioningServer>): Promise<string> {
    const client = await server.client();
    const step = await client.start('tools/call', { name: 'provision', arguments: { name: 'orders' } });
    await client.close();
    expect(step.continuation?.requestState).toMatch(/^sl1_/);
    return JSON.stringify(step.continuation);
  }

  it('another client, on another connection, resumes the stored flow to its result', async () => {
    const clock = { now: Date.parse('2026-07-28T10:00:00Z') };
    const server = provisioningServer(1, clock);
    const json = await stored(server);
    clock.now += 59_000;
    const client = await server.client();
    const step = await client.resume(JSON.parse(json) as Continuation<'tools/call'>, region('eu-west-1'));
    expect(step.result?.content).toEqual([{ type: 'text', text: 'orders in eu-west-1' }]);
    await client.close();
  });

  it.each<[string, (c: Continuation<'tools/call'>) => Continuation<'tools/call'>, number, number]>([
    ['its state expired (past the TTL)', (c) => c, 1, 61_000],
    ['the server restarted under another key', (c) => c, 2, 0],
    [
      'its arguments were changed in storage',
      (c) => ({ ...c, params: { ...c.params, arguments: { name: 'billing' } } }),
      1,
      0,
    ],
    [
      'its requestState was changed in storage',
      (c) => ({ ...c, requestState: `${c.requestState?.slice(0, -2)}AA` }),
      1,
      0,
    ],
    ['it names another tool', (c) => ({ ...c, params: { ...c.params, name: 'deprovision' } }), 1, 0],
  ])('state-rejected when %s', async (_, tamper, key, later) => {
    const clock = { now: Date.parse('2026-07-28T10:00:00Z') };
    const json = await stored(provisioningServer(1, clock));
    clock.now += later;
    const client = await provisioningServer(key, clock).client();
    const continuation = tamper(JSON.parse(json) as Continuation<'tools/call'>);
    const error = await client.resume(continuation, region('eu')).catch((e: unknown) => e);
    expect(isClientError(error, 'state-rejected')).toBe(true);
    expect((error as Error).cause).toMatchObject({
      code: -32602,
      message: 'Invalid or expired requestState',
    });
    await client.close();
  });

  it('a continuation is not spent by resuming it: exactly once is the job of whoever stores it', async () => {
    // The server keeps nothing between rounds, so the same stored continuation resumes twice. A store that must
    // resume each flow once claims it first (apps/inbox: a conditional UPDATE … FOR UPDATE SKIP LOCKED).
    const clock = { now: Date.parse('2026-07-28T10:00:00Z') };
    const server = provisioningServer(1, clock);
    const continuation = JSON.parse(await stored(server)) as Continuation<'tools/call'>;
    const a = await server.client();
    const b = await server.client();
    const [first, second] = await Promise.all([
      a.resume(continuation, region('eu')),
      b.resume(continuation, region('us')),
    ]);
    expect(first.result?.content).toEqual([{ type: 'text', text: 'orders in eu' }]);
    expect(second.result?.content).toEqual([{ type: 'text', text: 'orders in us' }]);
    await a.close();
    await b.close();
  });
});
