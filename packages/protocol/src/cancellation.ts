import type { AuthInfo, Cancellation, HandleContext } from './transport.js';

const noop = (): void => {};

/**
 * The {@link Cancellation} a transport owns for one request: `abort(reason)` as on an `AbortController`, but
 * the controller and its `AbortSignal` exist only once `signal` is read.
 *
 * ```ts
 * const cancellation = new RequestCancellation();
 * socket.once('close', () => cancellation.abort(new Error('the client disconnected')));
 * await server.handle(message, new CancellableHandleContext(cancellation));
 * ```
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

  /**
   * Cancels the request: `signal` aborts with `reason` and every {@link onAbort} listener runs once, in the order
   * they subscribed. Later calls do nothing.
   */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason ?? new DOMException('This operation was aborted', 'AbortError');
    this.#controller?.abort(this.#reason);
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
 * A {@link HandleContext} around a {@link Cancellation}: `signal` reads the cancellation's (so the
 * `AbortController` is made only for a handler that reads it). A class rather than an object literal with a
 * `signal` getter, which costs several times more to create on every request.
 */
export class CancellableHandleContext implements HandleContext {
  readonly cancellation: Cancellation;
  declare readonly notify?: NonNullable<HandleContext['notify']>;
  declare readonly auth?: AuthInfo;

  constructor(cancellation: Cancellation, notify?: HandleContext['notify'], auth?: AuthInfo) {
    this.cancellation = cancellation;
    // Only members that are there, as an object literal spreading them would have them.
    if (notify !== undefined) (this as { notify?: HandleContext['notify'] }).notify = notify;
    if (auth !== undefined) (this as { auth?: AuthInfo }).auth = auth;
  }

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }
}
