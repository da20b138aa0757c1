// The scheduled deletion of expired tasks. Expired tasks already read as unknown; sweeping frees their storage and
// their place under the open-task limits.
import type { LogFn } from '@boomerang/server';

/**
 * Runs `sweep` every `intervalMs` on a timer that does not keep the process alive; a sweep still running when the
 * next is due is not doubled, and a failed one is logged (the next one tries again).
 */
export function scheduleSweeps(
  sweep: () => Promise<number>,
  intervalMs: number,
  warn: LogFn,
): { stop(): void } {
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweep()
      .catch((failure: unknown) => warn('the scheduled sweep of expired tasks failed', { failure }))
      .finally(() => {
        sweeping = false;
      });
  }, intervalMs);
  // Plain numbers where timers are (browsers): nothing to unref there.
  if (typeof timer === 'object' && 'unref' in timer && typeof timer.unref === 'function') timer.unref();
  return { stop: () => clearInterval(timer) };
}
