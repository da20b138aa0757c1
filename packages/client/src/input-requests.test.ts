import {
  createMessageRequest,
  elicitUrlRequest,
  type InputRequests,
  inputRequired,
  listRootsRequest,
  MetaKey,
} from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import type { InputRequestContext } from './input-requests.js';
import { askFor, deferred, harness, script, textResult } from './test-support/fake-server.js';

const sampleRequest = createMessageRequest({
  messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }],
  maxTokens: 20,
});
const sampled = { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm1' } as const;

describe('answering input requests', () => {
  it('dispatches every entry to its callback concurrently and answers under the same keys', async () => {
    // Each callback waits until all three have started: sequential dispatch would deadlock here.
    const started = { elicitation: deferred(), sampling: deferred(), roots: deferred() };
    const all = Promise.all(Object.values(started).map((d) => d.promise));
    await using h = await harness(
      script(
        inputRequired({
          inputRequests: { login: askFor('login'), capital: sampleRequest, dirs: listRootsRequest() },
          requestState: 's',
        }),
        textResult('done'),
      ),
      {
        elicitation: async () => {
          started.elicitation.resolve();
          await all;
          return { action: 'accept', content: { login: 'octocat' } };
        },
        sampling: async () => {
          started.sampling.resolve();
          await all;
          return sampled;
        },
        roots: async () => {
          started.roots.resolve();
          await all;
          return { roots: [{ uri: 'file:///work', name: 'work' }] };
        },
      },
    );
    await h.client.callTool('t', {}, { timeoutMs: 2_000 });
    expect(h.server.requests[1]?.params.inputResponses).toEqual({
      login: { action: 'accept', content: { login: 'octocat' } },
      capital: sampled,
      dirs: { roots: [{ uri: 'file:///work', name: 'work' }] },
    });
  });

  it('takes answers of different shapes from one expression and drops undefined fields before sending', async () => {
    await using h = await harness(
      script(
        inputRequired({ inputRequests: { where: askFor('region'), sure: askFor('ok') }, requestState: 's' }),
        textResult('done'),
      ),
      {
        // `cond ? { region } : { ok }` widens to `{ region: string; ok?: undefined } | …`: ElicitAnswer takes it.
        elicitation: async ({ message }) =>
          message.includes('region')
            ? { action: 'accept', content: { region: 'eu' } }
            : { action: 'accept', content: { ok: true } },
      },
    );
    await h.client.callTool('t', {}, { timeoutMs: 2_000 });
    expect(h.server.requests[1]?.params.inputResponses).toEqual({
      where: { action: 'accept', content: { region: 'eu' } },
      sure: { action: 'accept', content: { ok: true } },
    });
    const sent = h.server.requests[1]?.params.inputResponses as Record<string, { content: object }>;
    expect(Object.keys(sent.where?.content ?? {})).toEqual(['region']);
  });

  it('drops an explicitly undefined content field rather than refusing the answer', async () => {
    await using h = await harness(
      script(
        inputRequired({ inputRequests: { who: askFor('login') }, requestState: 's' }),
        textResult('done'),
      ),
      { elicitation: () => ({ action: 'accept', content: { login: 'octocat', nickname: undefined } }) },
    );
    await h.client.callTool('t', {}, { timeoutMs: 2_000 });
    const sent = h.server.requests[1]?.params.inputResponses as Record<string, { content: object }>;
    expect(sent.who?.content).toStrictEqual({ login: 'octocat' });
  });

  it('gives callbacks data first and a context last: signal, key, round, originating request, serverInfo', async () => {
    const seen: { params: unknown; ctx: InputRequestContext }[] = [];
    const serverInfo = { name: 'shop', version: '2.0.0' };
    await using h = await harness(
      script(
        {
          ...inputRequired({ inputRequests: { a: askFor('a') }, requestState: '1' }),
          _meta: { [MetaKey.serverInfo]: serverInfo },
        },
        inputRequired({ inputRequests: { b: askFor('b') } }),
        { resultType: 'complete', contents: [], ttlMs: 0, cacheScope: 'private' },
      ),
      {
        elicitation: (params, ctx) => {
          seen.push({ params, ctx });
          return { action: 'decline' };
        },
      },
    );
    await h.client.readResource('file:///x');
    expect(seen.map(({ ctx }) => ({ ...ctx, signal: ctx.signal instanceof AbortSignal }))).toEqual([
      { method: 'resources/read', uri: 'file:///x', key: 'a', round: 1, serverInfo, signal: true },
      { method: 'resources/read', uri: 'file:///x', key: 'b', round: 2, signal: true },
    ]);
    expect(seen[0]?.params).toEqual(askFor('a').params);
  });

  it('roots callbacks get only the context', async () => {
    const calls: unknown[][] = [];
    await using h = await harness(
      script(inputRequired({ inputRequests: { r: listRootsRequest() } }), textResult('ok')),
      {
        roots: (...args: unknown[]) => {
          calls.push(args);
          return { roots: [] };
        },
      },
    );
    await h.client.callTool('t');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(1);
    expect(calls[0]?.[0]).toMatchObject({ method: 'tools/call', name: 't', key: 'r', round: 1 });
  });

  it('a callback that throws rejects the call with its error as cause, aborts its siblings, and retries nothing', async () => {
    const boom = new Error('user closed the window');
    let siblingSignal: AbortSignal | undefined;
    await using h = await harness(
      script(inputRequired({ inputRequests: { form: askFor('x'), llm: sampleRequest }, requestState: 's' })),
      {
        elicitation: () => {
          throw boom;
        },
        sampling: (_params, ctx) => {
          siblingSignal = ctx.signal;
          return new Promise(() => {});
        },
      },
    );
    const error = await h.client.callTool('t').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ClientError', reason: 'callback-failed' });
    expect(error).toMatchObject({ key: 'form', inputMethod: 'elicitation/create', cause: boom });
    expect((error as Error).message).toBe(
      'The elicitation callback threw for elicitation/create (input request "form" of tools/call "t")',
    );
    expect(siblingSignal?.aborted).toBe(true);
    expect(h.server.requests).toHaveLength(1);
  });

  it('a callback that first reads its signal after a sibling failed finds it aborted with that failure', async () => {
    const boom = new Error('user closed the window');
    const late = deferred<AbortSignal>();
    await using h = await harness(
      script(inputRequired({ inputRequests: { form: askFor('x'), llm: sampleRequest }, requestState: 's' })),
      {
        elicitation: () => {
          throw boom;
        },
        sampling: (_params, ctx) =>
          new Promise(() => {
            setTimeout(() => late.resolve(ctx.signal), 5);
          }),
      },
    );
    const error = await h.client.callTool('t').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ClientError', reason: 'callback-failed' });
    const signal = await late.promise;
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).cause).toBe(boom);
  });

  it('a callback that returns an invalid answer rejects the call (the answer is validated)', async () => {
    await using h = await harness(script(inputRequired({ inputRequests: { s: sampleRequest } })), {
      sampling: () => ({ role: 'robot' }) as never,
    });
    const error = await h.client.callTool('t').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ClientError', reason: 'callback-failed' });
    expect((error as Error).message).toContain('The sampling callback returned an invalid answer');
    expect((error as Error).cause).toBeDefined();
    expect(h.server.requests).toHaveLength(1);
  });

  it.each([
    ['elicitation', { e: askFor('x') }, {}, 'this client has no elicitation callback'],
    [
      'sampling',
      { s: sampleRequest },
      { elicitation: () => ({ action: 'cancel' }) as const },
      'no sampling callback',
    ],
    ['roots', { r: listRootsRequest() }, { sampling: () => sampled }, 'no roots callback'],
    [
      'url-mode elicitation',
      { u: elicitUrlRequest({ message: 'Pay', url: 'https://pay.example.com/x' }) },
      { elicitation: () => ({ action: 'accept' }) as const, elicitationModes: ['form'] as const },
      'did not declare url-mode elicitation',
    ],
    [
      'sampling with tools',
      { s: createMessageRequest({ ...sampleRequest.params, toolChoice: { mode: 'auto' } }) },
      { sampling: () => sampled },
      'did not declare sampling with tools',
    ],
  ])(
    'a request for %s the client did not declare is a clear error, never a silent retry',
    async (_, requests, options, problem) => {
      await using h = await harness(
        script(inputRequired({ inputRequests: requests as InputRequests, requestState: 's' })),
        options,
      );
      const error = await h.client.callTool('deploy').catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'ClientError', reason: 'unsupported-input-request' });
      expect((error as Error).message).toContain('tools/call "deploy" asked for');
      expect((error as Error).message).toContain(problem);
      expect(h.server.requests).toHaveLength(1);
    },
  );

  it('a URL-mode elicitation reaches the callback when declared', async () => {
    await using h = await harness(
      script(
        inputRequired({
          inputRequests: { u: elicitUrlRequest({ message: 'Sign in', url: 'https://id.example.com/a' }) },
        }),
        textResult('ok'),
      ),
      { elicitation: (params) => ({ action: params.mode === 'url' ? 'accept' : 'decline' }) },
    );
    await h.client.callTool('t');
    expect(h.server.requests[1]?.params.inputResponses).toEqual({ u: { action: 'accept' } });
  });

  it('answers and state never leak into another call running in parallel', async () => {
    const gate = deferred();
    await using h = await harness(
      (request) => {
        const { name, inputResponses, requestState } = request.params;
        if (inputResponses === undefined) {
          return inputRequired({
            inputRequests: { [`q-${name}`]: askFor(name) },
            requestState: `state-${name}`,
          });
        }
        return textResult(`${name}:${JSON.stringify(inputResponses)}:${requestState}`);
      },
      {
        elicitation: async (params, ctx) => {
          if (ctx.method === 'tools/call' && ctx.name === 'a')
            await gate.promise; // a answers after b
          else gate.resolve();
          return { action: 'accept', content: { who: params.message } };
        },
      },
    );
    const [a, b] = await Promise.all([h.client.callTool('a'), h.client.callTool('b')]);
    expect(a.content).toEqual([
      { type: 'text', text: 'a:{"q-a":{"action":"accept","content":{"who":"Your a?"}}}:state-a' },
    ]);
    expect(b.content).toEqual([
      { type: 'text', text: 'b:{"q-b":{"action":"accept","content":{"who":"Your b?"}}}:state-b' },
    ]);
    for (const request of h.server.requests) {
      const { name, inputResponses, requestState } = request.params;
      if (inputResponses !== undefined) {
        expect(Object.keys(inputResponses)).toEqual([`q-${name}`]);
        expect(requestState).toBe(`state-${name}`);
      }
    }
  });

  it('a callback that ignores its signal does not hold the call past an abort', async () => {
    await using h = await harness(() => inputRequired({ inputRequests: { q: askFor('q') } }), {
      elicitation: () => new Promise(() => {}),
    });
    const controller = new AbortController();
    const call = h.client.callTool('t', {}, { signal: controller.signal });
    await h.server.waitForRequests(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error('enough'));
    await expect(call).rejects.toThrow('enough');
  });
});
