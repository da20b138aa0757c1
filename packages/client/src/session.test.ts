import {
  type InputRequiredResult,
  type InputResponses,
  inputRequired,
  isInputRequired,
} from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { askFor, cacheable, harness, type Reply, script, textResult } from './test-support/fake-server.js';

/** A stateless server: asks for a region, then finishes using only what the retry carries. */
const provisioner: Reply = (request) => {
  const { inputResponses, requestState, arguments: args } = request.params;
  if (requestState === undefined) {
    return inputRequired({
      inputRequests: { region: askFor('region', `Region for ${args.name}?`) },
      requestState: `provision:${args.name}`,
    });
  }
  return textResult(`${requestState} in ${inputResponses.region.content.region}`);
};

describe('client.session (the manual loop)', () => {
  it('returns the InputRequiredResult as plain JSON that survives persistence and finishes in another client', async () => {
    let stored: string;
    {
      // Process 1: start the call, persist the pending round, exit.
      await using h = await harness(provisioner);
      const first = await h.client.session.callTool(
        'provision',
        { name: 'orders' },
        { allowInputRequired: true },
      );
      expect(isInputRequired(first)).toBe(true);
      stored = JSON.stringify({ tool: 'provision', args: { name: 'orders' }, pending: first });
    }
    // Process 2: a fresh client reads it, answers, and finishes the call.
    const saved = JSON.parse(stored) as {
      tool: string;
      args: Record<string, unknown>;
      pending: InputRequiredResult;
    };
    expect(saved.pending).toEqual({
      resultType: 'input_required',
      inputRequests: { region: askFor('region', 'Region for orders?') },
      requestState: 'provision:orders',
    });
    await using h = await harness(provisioner);
    const inputResponses: InputResponses = { region: { action: 'accept', content: { region: 'eu-west-1' } } };
    const options = {
      allowInputRequired: true,
      inputResponses,
      requestState: saved.pending.requestState,
    } as const;
    const final = await h.client.session.callTool(saved.tool, saved.args, options);
    expect(isInputRequired(final)).toBe(false);
    if (!isInputRequired(final))
      expect(final.content).toEqual([{ type: 'text', text: 'provision:orders in eu-west-1' }]);
    expect(h.server.requests[0]?.params).toMatchObject({
      name: 'provision',
      arguments: { name: 'orders' },
      inputResponses,
      requestState: 'provision:orders',
    });
  });

  it('without allowInputRequired it runs the automatic loop, like client.callTool', async () => {
    await using h = await harness(provisioner, {
      elicitation: () => ({ action: 'accept', content: { region: 'us-east-2' } }),
    });
    const result = await h.client.session.callTool('provision', { name: 'db' });
    expect(result.content).toEqual([{ type: 'text', text: 'provision:db in us-east-2' }]);
    const same = await h.client.session.callTool('provision', { name: 'db' }, { allowInputRequired: false });
    expect(same).toEqual(result);
    expect(h.server.requests).toHaveLength(4);
  });

  it('one round only: no callbacks run and the round cap does not apply', async () => {
    let called = 0;
    await using h = await harness(() => inputRequired({ inputRequests: { q: askFor('q') } }), {
      inputRequiredMaxRounds: 0,
      elicitation: () => {
        called++;
        return { action: 'cancel' };
      },
    });
    const once = await h.client.session.callTool('t', undefined, { allowInputRequired: true });
    expect(isInputRequired(once)).toBe(true);
    expect(called).toBe(0);
    await expect(h.client.session.callTool('t')).rejects.toMatchObject({
      name: 'ClientError',
      reason: 'rounds-exceeded',
    });
  });

  it('getPrompt and readResource have the same two modes', async () => {
    await using h = await harness(
      script(
        inputRequired({ requestState: 'p' }),
        { resultType: 'complete', messages: [] },
        inputRequired({ requestState: 'r' }),
        cacheable({ contents: [] }),
      ),
    );
    const prompt = await h.client.session.getPrompt('greet', { who: 'ann' }, { allowInputRequired: true });
    expect(prompt).toEqual({ resultType: 'input_required', requestState: 'p' });
    const done = await h.client.session.getPrompt(
      'greet',
      { who: 'ann' },
      { allowInputRequired: true, requestState: 'p' },
    );
    expect(done).toEqual({ resultType: 'complete', messages: [] });
    const read = await h.client.session.readResource('file:///a', { allowInputRequired: true });
    expect(read).toEqual({ resultType: 'input_required', requestState: 'r' });
    expect(
      await h.client.session.readResource('file:///a', { allowInputRequired: true, requestState: 'r' }),
    ).toEqual(cacheable({ contents: [] }));
    expect(h.server.requests.map((r) => r.params.requestState)).toEqual([undefined, 'p', undefined, 'r']);
    expect(h.server.requests[1]?.params).toMatchObject({ name: 'greet', arguments: { who: 'ann' } });
  });

  it('results are still normalised and validated', async () => {
    await using h = await harness(script({ content: [] }, { resultType: 'later', content: [] }));
    expect(await h.client.session.callTool('t', {}, { allowInputRequired: true })).toEqual({
      resultType: 'complete',
      content: [],
    });
    await expect(h.client.session.callTool('t', {}, { allowInputRequired: true })).rejects.toMatchObject({
      reason: 'invalid-result',
    });
  });
});
