import type { Cancellation, HandleContext } from '@boomerang/protocol/transport';

const noop = (): void => {};

/** The cancellation of a request that nothing can cancel (a `handle()` call without a signal). */
const NEVER: Cancellation = Object.freeze({
  aborted: false,
  signal: new AbortController().signal,
  onAbort: () => noop,
});

/**
 * The cancellation behind `hctx`: the transport's own (`hctx.cancellation`: stdio, memory and `listen` hand the
 * server a lazy one, whose AbortController exists only if the handler reads `ctx.signal`), else one over
 * `hctx.signal` (a fetch handler, a direct `handle()` call), else one that never aborts. `hctx.signal` is not
 * read when the transport's own is there.
 */
export function cancellationOf(hctx: HandleContext): Cancellation {
  const own = hctx.cancellation;
  if (own !== undefined) return own;
  const { signal } = hctx;
  return signal === undefined ? NEVER : new SignalCancellation(signal);
}

/** A {@link Cancellation} over an `AbortSignal` (a class: cheaper to make per request than a literal with a getter). */
class SignalCancellation implements Cancellation {
  readonly signal: AbortSignal;

  constructor(signal: AbortSignal) {
    this.signal = signal;
  }

  get aborted(): boolean {
    return this.signal.aborted;
  }

  onAbort(listener: () => void): () => void {
    const { signal } = this;
    if (signal.aborted) return noop;
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  }
}
