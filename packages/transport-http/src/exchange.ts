// What the endpoint reads of one HTTP request, whatever the server runtime, and the exchange of a web `Request`.
import { RequestCancellation } from '@boomerang/protocol/transport';
import { type BodyResult, readBody } from './body.js';
import type { HeaderReader } from './guard.js';

/**
 * @internal What the endpoint reads of one HTTP request, whatever the server runtime: a web `Request`
 * ({@link webExchange}) or a `node:http` request read natively (`listen`), which skips building a `Request`,
 * its body stream and a `Response` for every message.
 */
export interface Exchange {
  readonly method: string;
  readonly headers: HeaderReader;
  /** The request URL (for a request without a `Host` header). */
  readonly url: string;
  /** Aborts when the client goes away (made on first read when the exchange has a {@link cancellation}). */
  readonly signal: AbortSignal;
  /**
   * The cancellation behind `signal` when the exchange owns it (nobody else aborts it): the handler then gets it
   * as `ctx.cancellation`, and cancelling the event stream aborts it, instead of an `AbortController`, its signal
   * and a listener per request.
   */
  readonly cancellation?: RequestCancellation | undefined;
  /** Reads the body under `limit` bytes (see {@link readBody}); rejects when it cannot be read. */
  readBody(limit: number): Promise<BodyResult>;
  /** The request as a web `Request`, for `authenticate` (built on demand). */
  toRequest(): Request;
}

/**
 * @internal The exchange of a web-standard `Request`. Reads no more of the request than the endpoint needs: its
 * `signal` only once the handler waits on its cancellation (a fetch framework's light request, such as
 * `@hono/node-server`'s, makes its `AbortController` on first read), its body through the runtime's own whole-body
 * read where the size is declared (see {@link readBody}).
 */
export function webExchange(request: Request): Exchange {
  return new WebExchange(request);
}

/** A class: one shape for every exchange, `signal` a getter read only when needed. */
class WebExchange implements Exchange {
  readonly method: string;
  readonly headers: HeaderReader;
  readonly url: string;
  readonly cancellation: RequestCancellation;
  readonly #request: Request;

  constructor(request: Request) {
    this.#request = request;
    this.method = request.method;
    this.headers = request.headers;
    this.url = request.url;
    this.cancellation = new FollowingCancellation(request);
  }

  get signal(): AbortSignal {
    return this.#request.signal;
  }

  readBody(limit: number): Promise<BodyResult> {
    return readBody(this.#request, limit);
  }

  toRequest(): Request {
    return this.#request;
  }
}

/**
 * The cancellation of a web request: aborted by the endpoint (an event stream the client cancelled) or by the
 * request's own `signal` (the client went away). It reads that signal only for a handler still waiting a turn of
 * the event loop after it subscribed ({@link onAbort}), or that asks for `signal` itself: most requests are
 * answered within the turn they arrived in, and a fetch framework's light request (`@hono/node-server`'s) makes
 * an `AbortController` on the first read of its `signal`. A signal already aborted by then aborts at once, so a
 * waiting handler learns of a client gone away at most one turn late. It holds the request, so the request (whose
 * signal may follow its runtime's through a weak reference) lives as long as the handler that may wait on it.
 */
class FollowingCancellation extends RequestCancellation {
  readonly #request: Request;
  #following = false;
  #waiting = 0;

  constructor(request: Request) {
    super();
    this.#request = request;
  }

  override get signal(): AbortSignal {
    this.follow();
    return super.signal;
  }

  override onAbort(listener: () => void): () => void {
    const unsubscribe = super.onAbort(listener);
    if (this.#following || this.aborted) return unsubscribe;
    if (this.#waiting++ === 0) followNextTurn(this);
    let subscribed = true;
    return () => {
      if (subscribed) {
        subscribed = false;
        this.#waiting--;
      }
      unsubscribe();
    };
  }

  /** Follows the request's signal, when somebody still waits on this cancellation (or always, with `force`). */
  follow(force = true): void {
    if (this.#following || this.aborted || (!force && this.#waiting === 0)) return;
    this.#following = true;
    const { signal } = this.#request;
    if (signal.aborted) this.abort(signal.reason);
    else signal.addEventListener('abort', () => this.abort(signal.reason), { once: true });
  }
}

/** The cancellations subscribed to during this turn of the event loop, checked at the start of the next one. */
let subscribed: FollowingCancellation[] | undefined;

function followNextTurn(cancellation: FollowingCancellation): void {
  if (subscribed === undefined) {
    subscribed = [];
    setTimeout(followWaiting, 0);
  }
  subscribed.push(cancellation);
}

function followWaiting(): void {
  const due = subscribed ?? [];
  subscribed = undefined;
  for (const cancellation of due) cancellation.follow(false);
}
