// The legacy (2025-11-25) path: questions asked mid-call through a back-channel instead of returned.
import type { InputRequest } from '@boomerang/protocol';
import { expect, it, describe as suite } from 'vitest';
import { z } from 'zod';
import {
  elicit,
  elicitResult,
  listRoots,
  planResolvers,
  ResolutionError,
  resolver,
  runResolvers,
} from './index.js';
import { describe, fakeCtx } from './test-support/rounds.js';

const Confirm = z.object({ confirm: z.boolean() });

function legacyRound(
  resolve: Parameters<typeof planResolvers>[1],
  ask: (request: InputRequest) => Promise<unknown>,
) {
  const plan = planResolvers("tool 'x'", resolve, []);
  return runResolvers(plan, { args: {}, ctx: fakeCtx(), inputResponses: undefined, state: undefined, ask });
}

suite('runResolvers: legacy back-channel', () => {
  it('asks every question mid-call, one at a time, and resolves in one round', async () => {
    const log: string[] = [];
    let open = 0;
    const a = resolver({}, () => elicit('A?', Confirm));
    const b = resolver({}, () => listRoots());
    const c = resolver({ uses: { a } }, ({ a }) => elicit(`C after ${a.confirm}?`, Confirm));
    const result = await legacyRound({ a, b, c }, async (request) => {
      open++;
      expect(open).toBe(1); // never two dialogs at once
      log.push(describe(request));
      await new Promise((resolve) => setTimeout(resolve, 1));
      open--;
      return request.method === 'roots/list'
        ? { roots: [] }
        : { action: 'accept', content: { confirm: true } };
    });
    expect(result).toEqual({
      kind: 'resolved',
      values: { a: { confirm: true }, b: { roots: [] }, c: { confirm: true } },
    });
    expect(log).toEqual(['A?', 'roots/list', 'C after true?']);
  });

  it('validates answers and applies the refusal rules like a retry', async () => {
    const a = resolver({}, () => elicit('A?', Confirm));
    await expect(
      legacyRound({ a }, async () => ({ action: 'accept', content: { confirm: 'y' } })),
    ).rejects.toMatchObject({
      code: -32602,
      message:
        "Resolver for 'a' received an accepted elicitation whose content does not match the requested schema",
    });
    await expect(legacyRound({ a }, async () => ({ action: 'decline' }))).rejects.toBeInstanceOf(
      ResolutionError,
    );
    const outcome = resolver({}, () => elicitResult('A?', Confirm));
    const result = await legacyRound({ outcome }, async () => ({ action: 'cancel' }));
    expect(result).toEqual({ kind: 'resolved', values: { outcome: { action: 'cancel' } } });
  });

  it('fails the call with what the back-channel throws, and asks nothing after it', async () => {
    const asked: string[] = [];
    const a = resolver({}, () => elicit('A?', Confirm));
    const b = resolver({ uses: { a } }, () => elicit('B?', Confirm));
    const failure = new Error('client went away');
    const run = legacyRound({ b }, async (request) => {
      asked.push(describe(request));
      throw failure;
    });
    await expect(run).rejects.toBe(failure);
    expect(asked).toEqual(['A?']);
  });

  it('stops asking independent questions once the back-channel failed', async () => {
    const asked: string[] = [];
    const a = resolver({}, () => elicit('A?', Confirm));
    const b = resolver({}, () => elicit('B?', Confirm));
    const failure = new Error('client went away');
    const run = legacyRound({ a, b }, async (request) => {
      asked.push(describe(request));
      throw failure;
    });
    await expect(run).rejects.toBe(failure);
    expect(asked).toEqual(['A?']);
  });
});
