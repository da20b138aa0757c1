import { describe, expect, it, vi } from 'vitest';
import { sleep } from './timing.js';

describe('sleep', () => {
  it('waits, and rejects with the reason when aborted (at once when it already was)', async () => {
    const controller = new AbortController();
    await sleep(1, controller.signal);
    const waiting = sleep(10_000, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    await expect(sleep(1, controller.signal)).rejects.toThrow('cancelled');
  });

  it('leaves no timer or listener behind once settled', async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const listeners = vi.spyOn(controller.signal, 'removeEventListener');
      const done = sleep(50, controller.signal);
      vi.advanceTimersByTime(50);
      await done;
      expect(listeners).toHaveBeenCalledWith('abort', expect.any(Function));
      const aborted = sleep(50, controller.signal);
      controller.abort(new Error('stop'));
      await expect(aborted).rejects.toThrow('stop');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
