// What the endpoint reads of one HTTP request, whatever the server runtime, and the exchange of a web `Request`.
import type { RequestCancellation } from '@boomerang/protocol/transport';
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

/** @internal The exchange of a web-standard `Request`. */
export function webExchange(request: Request): Exchange {
  return {
    method: request.method,
    headers: request.headers,
    url: request.url,
    signal: request.signal,
    readBody: (limit) => readBody(request, limit),
    toRequest: () => request,
  };
}
