import { type OriginatingRequest, timedOut } from './errors.js';

/** A signal bounding one call (all of its rounds), and the cleanup to run when the call settles. */
export interface CallScope extends Disposable {
  /**
   * Aborts with the caller's reason, or with a `timeout` {@link ClientError} when the time limit elapses;
   * `undefined` when nothing can abort the call (no caller signal, no time limit).
   */
  readonly signal: AbortSignal | undefined;
}

/** The scope of a call that nothing can abort: no signal, nothing to clean up. */
const UNBOUNDED: CallScope = Object.freeze({ signal: undefined, [Symbol.dispose]() {} });

/**
 * Joins the caller's `signal` and a `timeoutMs` limit into one signal for a whole call. The timeout aborts with a
 * `timeout` {@link ClientError} naming `request`; the caller's signal aborts with its own reason (as `fetch` does).
 * Dispose it when the call settles so neither the timer nor the listener outlives it. Without a time limit the
 * scope's signal is the caller's own (or `undefined` without one): an `AbortController` per call only when a
 * timer must be joined in, since most calls are never cancelled.
 */
export function callScope(
  request: OriginatingRequest,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): CallScope {
  if (timeoutMs !== undefined && !(timeoutMs > 0 && timeoutMs <= 2_147_483_647)) {
    throw new RangeError(`"timeoutMs" expected a number of milliseconds in (0, 2^31), got ${timeoutMs}`);
  }
  if (timeoutMs === undefined) return signal === undefined ? UNBOUNDED : { signal, [Symbol.dispose]() {} };
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const timer = controller.signal.aborted
    ? undefined
    : setTimeout(() => controller.abort(timedOut(request, timeoutMs)), timeoutMs);
  return {
    signal: controller.signal,
    [Symbol.dispose]() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * Settles like `promise`, or rejects with `signal.reason` as soon as `signal` aborts, whichever comes first. Used
 * around callbacks, which may ignore their signal: the call still ends on time. No signal: `promise` itself.
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
