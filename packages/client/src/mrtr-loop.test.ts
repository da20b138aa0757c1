import { type InputRequiredResult, inputRequired, MetaKey } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { type ClientError, roundsExceeded } from './errors.js';
import { type LoopDeps, type RoundInputs, runInputRequiredLoop } from './mrtr-loop.js';
import { askFor, cacheable, harness, progressOf, script, textResult } from './test-support/fake-server.js';

const done = { resultType: 'complete', value: 'done' } as const;
type Done = typeof done;

/** A loop over a scripted list of results, recording what it sent and how long it slept. */
function scripted(results: (InputRequiredResult | Done)[], maxRounds = 10) {
  const sent: RoundInputs[] = [];
  const slept: number[] = [];
  const answered: number[] = [];
  const deps: LoopDeps<Done> = {
    send: async (inputs) => {
      sent.push(inputs);
      const next = results[sent.length - 1];
      if (next === undefined) throw new Error('script ran out');
      return next;
    },
    answer: async (result, round) => {
      answered.push(round);
      return Object.fromEntries(
        Object.keys(result.inputRequests ?? {}).map((k) => [k, { action: 'decline' }]),
      );
    },
    sleep: async (ms) => {
      slept.push(ms);
    },
    maxRounds,
    exceeded: (result) => roundsExceeded({ method: 'tools/call', name: 't' }, maxRounds, result),
    signal: new AbortController().signal,
  };
  return { run: () => runInputRequiredLoop({}, deps), sent, slept, answered };
}

const stateOnly = (state: string) => inputRequired({ requestState: state });
const asking = (state?: string) =>
  inputRequired(
    state === undefined
      ? { inputRequests: { q: askFor('q') } }
      : { inputRequests: { q: askFor('q') }, requestState: state },
  );

describe('runInputRequiredLoop', () => {
  it('returns the first complete result without answering anything', async () => {
    const loop = scripted([done]);
    expect(await loop.run()).toEqual({ result: done });
    expect(loop.sent).toEqual([{}]);
  });

  it('state-only rounds back off 50 ms doubling to 250 ms', async () => {
    const loop = scripted([...['a', 'b', 'c', 'd', 'e', 'f'].map(stateOnly), done]);
    await loop.run();
    expect(loop.slept).toEqual([50, 100, 200, 250, 250, 250]);
    expect(loop.sent.slice(1)).toEqual(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((requestState) => ({ requestState })),
    );
  });

  it('a round with input requests resets the back-off', async () => {
    const loop = scripted([
      stateOnly('1'),
      stateOnly('2'),
      asking('3'),
      stateOnly('4'),
      stateOnly('5'),
      done,
    ]);
    await loop.run();
    expect(loop.slept).toEqual([50, 100, 50, 100]);
    expect(loop.answered).toEqual([3]);
  });

  it('an empty inputRequests with state counts as state-only', async () => {
    const loop = scripted([{ resultType: 'input_required', inputRequests: {}, requestState: 's' }, done]);
    await loop.run();
    expect(loop.slept).toEqual([50]);
    expect(loop.sent[1]).toEqual({ requestState: 's' });
  });

  it('sends the answers, and the state only when there was one', async () => {
    const loop = scripted([asking(), asking('s2'), done]);
    await loop.run();
    expect(loop.sent).toEqual([
      {},
      { inputResponses: { q: { action: 'decline' } } },
      { inputResponses: { q: { action: 'decline' } }, requestState: 's2' },
    ]);
    expect('requestState' in (loop.sent[1] as object)).toBe(false);
  });

  it.each([0, 1, 3, 10])(
    'maxRounds %i: follows that many input_required results, the next one throws',
    async (max) => {
      const loop = scripted(
        Array.from({ length: max + 5 }, () => asking('s')),
        max,
      );
      const error = await loop.run().catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'ClientError', reason: 'rounds-exceeded' });
      expect(loop.sent).toHaveLength(max + 1);
      expect(loop.answered).toHaveLength(max);
      expect((error as ClientError).result).toEqual(asking('s'));
    },
  );

  it('stops between rounds when the signal aborts during a sleep', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    let sends = 0;
    const error = await runInputRequiredLoop(
      {},
      {
        send: async () => {
          sends++;
          return stateOnly('a');
        },
        answer: async () => ({}),
        sleep: async () => controller.abort(reason),
        maxRounds: 10,
        exceeded: () => new Error('unreachable'),
        signal: controller.signal,
      },
    ).catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(sends).toBe(1);
  });
});

describe('the automatic loop through Client', () => {
  it('each round is a new request: new id, fresh _meta, same params, new answers, exact state', async () => {
    const state = ' opaque \u00e9 "q" \\ \u2028 🚀 +/= \n end ';
    await using h = await harness(
      script(
        inputRequired({ inputRequests: { name: askFor('name') }, requestState: state }),
        inputRequired({ inputRequests: { region: askFor('region') } }),
        textResult('provisioned'),
      ),
      { elicitation: (params) => ({ action: 'accept', content: { answer: params.message } }) },
    );
    const result = await h.client.callTool('provision', { size: 3 });
    expect(result.content).toEqual([{ type: 'text', text: 'provisioned' }]);
    const [first, second, third] = h.server.requests;
    expect(new Set(h.server.requests.map((r) => r.id)).size).toBe(3);
    expect(first?.params).toEqual({
      name: 'provision',
      arguments: { size: 3 },
      _meta: {
        [MetaKey.protocolVersion]: '2026-07-28',
        [MetaKey.clientCapabilities]: { elicitation: { form: {}, url: {} } },
        [MetaKey.clientInfo]: { name: 'test-client', version: '1.0.0' },
      },
    });
    expect(second?.params).toEqual({
      ...first?.params,
      inputResponses: { name: { action: 'accept', content: { answer: 'Your name?' } } },
      requestState: state,
    });
    expect(second?.params.requestState).toBe(state);
    // Only the latest round's answers, and no state when the server sent none.
    expect(third?.params.inputResponses).toEqual({
      region: { action: 'accept', content: { answer: 'Your region?' } },
    });
    expect('requestState' in (third?.params ?? {})).toBe(false);
  });

  it('sends a fresh progress token each round and routes each round’s progress', async () => {
    await using h = await harness(
      script(
        async (request, _i, server) => {
          await server.send(progressOf(request, 1));
          return inputRequired({ requestState: 's' });
        },
        async (request, _i, server) => {
          await server.send(progressOf(request, 2));
          return textResult('ok');
        },
      ),
      { sleep: async () => {} },
    );
    const progress: unknown[] = [];
    await h.client.callTool('slow', {}, { onprogress: (p) => progress.push(p) });
    const tokens = h.server.requests.map((r) => r.params._meta.progressToken);
    expect(tokens[0]).not.toEqual(tokens[1]);
    expect(progress).toEqual([
      { progressToken: tokens[0], progress: 1 },
      { progressToken: tokens[1], progress: 2 },
    ]);
  });

  it('stops at the round cap: exactly 11 requests, then a rounds-exceeded ClientError', async () => {
    await using h = await harness(
      () => inputRequired({ inputRequests: { again: askFor('again') }, requestState: 'loop' }),
      {
        elicitation: () => ({ action: 'accept', content: { again: 'yes' } }),
      },
    );
    const error = await h.client.callTool('forever').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ClientError', reason: 'rounds-exceeded' });
    expect(h.server.requests).toHaveLength(11);
    expect((error as Error).message).toBe(
      'tools/call "forever" returned input_required more than 10 times; raise inputRequiredMaxRounds in the ' +
        'Client options, or drive the rounds yourself with client.start() and client.resume().',
    );
    expect(error).toMatchObject({ maxRounds: 10, request: { method: 'tools/call', name: 'forever' } });
  });

  it('honours a custom inputRequiredMaxRounds', async () => {
    await using h = await harness(() => inputRequired({ requestState: 'x' }), {
      inputRequiredMaxRounds: 2,
      sleep: async () => {},
    });
    const error = await h.client.readResource('file:///r').catch((e: unknown) => e);
    expect(h.server.requests).toHaveLength(3);
    expect((error as Error).message).toContain('more than 2 times');
    expect(error).toMatchObject({ maxRounds: 2, request: { method: 'resources/read', uri: 'file:///r' } });
  });

  it('backs off state-only rounds through the injected sleep', async () => {
    const slept: number[] = [];
    await using h = await harness(
      script(
        inputRequired({ requestState: '1' }),
        inputRequired({ requestState: '2' }),
        inputRequired({ requestState: '3' }),
        inputRequired({ requestState: '4' }),
        textResult('ok'),
      ),
      { sleep: async (ms) => void slept.push(ms) },
    );
    await h.client.callTool('busy');
    expect(slept).toEqual([50, 100, 200, 250]);
    expect(h.server.requests.map((r) => r.params.requestState)).toEqual([undefined, '1', '2', '3', '4']);
  });

  it('the default sleep really waits', async () => {
    await using h = await harness(script(inputRequired({ requestState: '1' }), textResult('ok')));
    const started = performance.now();
    await h.client.callTool('busy');
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('runs the same loop for prompts/get and resources/read, repeating their params', async () => {
    await using h = await harness(
      script(
        inputRequired({ inputRequests: { r: { method: 'roots/list' } } as never }),
        { resultType: 'complete', messages: [] },
        inputRequired({ requestState: 'st' }),
        cacheable({ contents: [{ uri: 'file:///a', text: 'hi' }] }),
      ),
      { roots: () => ({ roots: [{ uri: 'file:///home' }] }), sleep: async () => {} },
    );
    expect(await h.client.getPrompt('greet', { who: 'ann' })).toMatchObject({ messages: [] });
    expect((await h.client.readResource('file:///a')).contents).toHaveLength(1);
    const [, promptRetry, , readRetry] = h.server.requests;
    expect(promptRetry?.params).toMatchObject({
      name: 'greet',
      arguments: { who: 'ann' },
      inputResponses: { r: { roots: [{ uri: 'file:///home' }] } },
    });
    expect(readRetry?.params).toMatchObject({ uri: 'file:///a', requestState: 'st' });
    expect(readRetry?.params).not.toHaveProperty('inputResponses');
  });
});
