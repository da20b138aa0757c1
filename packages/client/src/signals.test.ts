import { describe, expect, it } from 'vitest';
import { callScope, raceSignal } from './signals.js';

describe('callScope', () => {
  it('aborts with a timeout ClientError after timeoutMs', async () => {
    using scope = callScope({ method: 'tools/list' }, undefined, 10);
    await new Promise((resolve) => scope.signal?.addEventListener('abort', resolve));
    expect(scope.signal?.reason).toMatchObject({ name: 'ClientError', reason: 'timeout' });
  });

  it('follows the caller signal, also when it is already aborted', () => {
    const controller = new AbortController();
    using scope = callScope({ method: 'x' }, controller.signal, undefined);
    expect(scope.signal?.aborted).toBe(false);
    controller.abort('why');
    expect(scope.signal?.reason).toBe('why');
    using early = callScope({ method: 'x' }, AbortSignal.abort('before'), 1_000);
    expect(early.signal?.reason).toBe('before');
  });

  it('makes no signal of its own without a time limit: the caller signal as is, or none', () => {
    const controller = new AbortController();
    using scope = callScope({ method: 'x' }, controller.signal, undefined);
    expect(scope.signal).toBe(controller.signal);
    using unbounded = callScope({ method: 'x' }, undefined, undefined);
    expect(unbounded.signal).toBeUndefined();
  });

  it('disposing stops the timer and unlinks the caller signal', async () => {
    const controller = new AbortController();
    const scope = callScope({ method: 'x' }, controller.signal, 5);
    scope[Symbol.dispose]();
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 15));
    expect(scope.signal?.aborted).toBe(false);
  });

  it.each([0, -1, Number.NaN, 2 ** 31, Number.POSITIVE_INFINITY])(
    'rejects timeoutMs %s (RangeError)',
    (ms) => {
      expect(() => callScope({ method: 'x' }, undefined, ms)).toThrow(RangeError);
    },
  );
});

describe('raceSignal', () => {
  it('raceSignal settles like the promise, or rejects with the abort reason first', async () => {
    const controller = new AbortController();
    expect(await raceSignal(Promise.resolve(1), controller.signal)).toBe(1);
    await expect(raceSignal(Promise.reject(new Error('e')), controller.signal)).rejects.toThrow('e');
    const pending = raceSignal(new Promise(() => {}), controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    await expect(raceSignal(Promise.resolve(1), controller.signal)).rejects.toThrow('stop');
    expect(await raceSignal(Promise.resolve(2), undefined)).toBe(2);
  });
});
