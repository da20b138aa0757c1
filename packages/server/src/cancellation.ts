import type { AuthInfo, HandleContext } from '@boomerang/protocol';

/**
 * How one request learns that it was cancelled. Most requests never are, and most handlers never read
 * `ctx.signal`, so the stream transports hand the server a {@link RequestCancellation}, which makes its
 * `AbortController` only when somebody reads `signal`; the server itself waits with {@link onAbort}.
 */
export interface Cancellation {
  /** True once the request was cancelled (or its connection went away). */
  readonly aborted: boolean;
  /** The request's signal, made on first read: aborted already (with the reason) if the request was. */
  readonly signal: AbortSignal;
  /** Calls `listener` once when the request is cancelled (never if it already was); returns the unsubscribe. */
  onAbort(listener: () => void): () => void;
}

/** The key under which a stream transport's {@link HandleContext} carries its {@link RequestCancellation}. */
export const CANCELLATION: unique symbol = Symbol('boomerang.cancellation');

/** A {@link HandleContext} as the stream transports build it (see connect.ts). */
export interface CancellableContext extends HandleContext {
  readonly [CANCELLATION]?: Cancellation;
}

/**
 * The cancellation of one request served over a stream transport: `abort(reason)` as on an `AbortController`,
 * but the controller and its `AbortSignal` exist only once `signal` is read.
 */
export class RequestCancellation implements Cancellation {
  #aborted = false;
  #reason: unknown;
  #controller: AbortController | undefined;
  #listeners: (() => void)[] | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Cancels the request: `signal` aborts with `reason`, and every {@link onAbort} listener runs once. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener();
  }

  onAbort(listener: () => void): () => void {
    if (this.#aborted) return noop;
    this.#listeners ??= [];
    this.#listeners.push(listener);
    return () => {
      const at = this.#listeners?.indexOf(listener) ?? -1;
      if (at >= 0) this.#listeners?.splice(at, 1);
    };
  }
}

/**
 * The {@link HandleContext} a stream transport gives each request: a class rather than an object literal with
 * a `signal` getter, which costs several times more to create on every request. `signal` is read through the
 * prototype (it makes the request's AbortController on first read); the other members are own.
 */
export class StreamHandleContext implements CancellableContext {
  readonly [CANCELLATION]: RequestCancellation;
  readonly notify: NonNullable<HandleContext['notify']>;
  declare readonly auth?: AuthInfo;

  constructor(
    cancellation: RequestCancellation,
    notify: NonNullable<HandleContext['notify']>,
    auth: AuthInfo | undefined,
  ) {
    this[CANCELLATION] = cancellation;
    this.notify = notify;
    if (auth !== undefined) (this as { auth?: AuthInfo }).auth = auth;
  }

  get signal(): AbortSignal {
    return this[CANCELLATION].signal;
  }
}

const noop = (): void => {};

/** The cancellation of a request that nothing can cancel (a `handle()` call without a signal). */
const NEVER: Cancellation = Object.freeze({
  aborted: false,
  signal: new AbortController().signal,
  onAbort: () => noop,
});

/**
 * The cancellation behind `hctx`: the stream transport's own, else one over `hctx.signal` (what HTTP passes to
 * `handle()`), else one that never aborts. `hctx.signal` is not read when the transport's own is there.
 */
export function cancellationOf(hctx: CancellableContext): Cancellation {
  const own = hctx[CANCELLATION];
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
