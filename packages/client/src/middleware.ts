// Client middleware: onion functions around every request a call sends (each round of a flow), and the call they
// belong to, which every round of it shares. The client's own behaviours that wrap a request (the -32021 remedy,
// waiting out a rate limit) are steps of the same shape.
import { argumentError, isPlainObject, MetaKey, type Result } from '@boomerang/protocol';
import { MAX_CALL_CARRIED } from './continuation.js';
import type { CallOptions } from './options.js';

/** How a call settled in this process: its result, the continuation it paused at, or its error. */
export type CallOutcome =
  | { readonly result: unknown; readonly paused?: undefined; readonly error?: undefined }
  | { readonly paused: true; readonly result?: undefined; readonly error?: undefined }
  | { readonly error: unknown; readonly result?: undefined; readonly paused?: undefined };

/**
 * One call (`callTool`, `getPrompt`, `request`, a `start()` or a `resume()`…) as its middleware see it, shared
 * by every round it sends: where middleware keep what spans rounds (a call's span), and what travels with a
 * flow that pauses into a continuation and resumes in another process.
 */
export interface ClientCallContext {
  /** The call's method. */
  readonly method: string;
  /** The call's params as given (no `_meta`, no round inputs). */
  readonly params: Readonly<Record<string, unknown>>;
  /** The call's options. */
  readonly options: CallOptions;
  /** What earlier steps of the flow carried (`carry`, kept in the continuation it resumed from); `{}` otherwise. */
  readonly carried: Readonly<Record<string, string>>;
  /**
   * Keeps `value` under `key` in the continuation this call pauses at (`start()`/`resume()`), so the step that
   * resumes it, in this process or another, reads it in {@link carried}: how a trace continues across processes.
   * At most {@link MAX_CALL_CARRIED} characters in all.
   */
  carry(key: string, value: string): void;
  /** A scratch map shared by the middleware of this call's rounds, in this process (a call span, a counter). */
  readonly state: Map<unknown, unknown>;
  /** Calls `listener` once when the call settles in this process: its result, its pause, or its error. */
  onSettled(listener: (outcome: CallOutcome) => void): void;
}

/** What a client middleware sees of one request (one round of a call). */
export interface ClientMiddlewareContext {
  /** The request's method. */
  readonly method: string;
  /** The request's params: the call's, with this round's `inputResponses` and `requestState` (no `_meta`). */
  readonly params: Readonly<Record<string, unknown>>;
  /** The round of the flow: `0` for a first request; a resumed flow counts on from its continuation. */
  readonly round: number;
  /** The call's options. */
  readonly options: CallOptions;
  /**
   * Members added to this request's `_meta` (a middleware may add more: a `traceparent`): the call's
   * `options.meta`, under the client's own `io.modelcontextprotocol/*` keys, which always win.
   */
  readonly meta: Record<string, unknown>;
  /** The call's signal (its abort and time limit), if it has one. */
  readonly signal: AbortSignal | undefined;
  /** When the call's time limit ends (epoch ms); `undefined` for a call without one. */
  readonly deadline: number | undefined;
  /** The revision the connection speaks (`"2026-07-28"`, or `"2025-11-25"` with an older server). */
  readonly protocolVersion: string;
  /** The call this request is a round of. */
  readonly call: ClientCallContext;
}

/**
 * A client middleware, `(ctx, next) => result`: runs around every request a call sends, in registration order (the
 * first registered is the outermost). `next()` sends the request (through the middleware registered after) and
 * resolves to its raw result (`resultType` `"complete"`, `"input_required"`, or an extension's) or rejects with
 * the `McpError` the server answered or the `ClientError` of a local failure. A middleware may call `next()`
 * again (a retry sends a new request), return another result, or throw to fail the round.
 */
export type ClientMiddleware = (ctx: ClientMiddlewareContext, next: () => Promise<Result>) => Promise<Result>;

const NOTHING: Readonly<Record<string, string>> = Object.freeze({});

/** The {@link ClientCallContext} of one call. */
export class CallContext implements ClientCallContext {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly options: CallOptions;
  readonly carried: Readonly<Record<string, string>>;
  readonly state = new Map<unknown, unknown>();
  /** What was carried for the continuation (starts as what was carried in). */
  outgoing: Readonly<Record<string, string>>;
  #listeners: ((outcome: CallOutcome) => void)[] | undefined;

  constructor(
    method: string,
    params: Readonly<Record<string, unknown>>,
    options: CallOptions,
    carried: Readonly<Record<string, string>> = NOTHING,
  ) {
    this.method = method;
    this.params = params;
    this.options = options;
    this.carried = carried;
    this.outgoing = carried;
  }

  carry(key: string, value: string): void {
    if (typeof key !== 'string' || key === '') throw argumentError('key', 'a non-empty string', key);
    if (typeof value !== 'string') throw argumentError('value', 'a string', value);
    const next = { ...this.outgoing, [key]: value };
    let size = 0;
    for (const [k, v] of Object.entries(next)) size += k.length + v.length;
    if (size > MAX_CALL_CARRIED) {
      throw new RangeError(`"carry" expected at most ${MAX_CALL_CARRIED} characters in all, got ${size}`);
    }
    this.outgoing = next;
  }

  onSettled(listener: (outcome: CallOutcome) => void): void {
    if (typeof listener !== 'function') throw argumentError('listener', 'a function', listener);
    this.#listeners ??= [];
    this.#listeners.push(listener);
  }

  /** Tells the listeners once (a listener that throws is ignored: telemetry never fails a call). */
  settle(outcome: CallOutcome): void {
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners === undefined) return;
    for (const listener of listeners) {
      try {
        listener(outcome);
      } catch {}
    }
  }
}

/** The `_meta` members a caller may add: everything but the client's own keys (`io.modelcontextprotocol/*`, `progressToken`). */
export function callerMeta(meta: unknown): Record<string, unknown> {
  const own: Record<string, unknown> = {};
  if (!isPlainObject(meta)) return own;
  for (const [key, value] of Object.entries(meta)) {
    if (key.startsWith(RESERVED_PREFIX) || key === MetaKey.progressToken) continue;
    own[key] = value;
  }
  return own;
}

const RESERVED_PREFIX = 'io.modelcontextprotocol/';

/** Checks what `Client#use` is given. */
export function checkMiddleware(value: unknown): ClientMiddleware {
  if (typeof value !== 'function') {
    throw argumentError('middleware', 'a function (ctx, next) => result', value);
  }
  return value as ClientMiddleware;
}

/** A step of the round chain: a user's middleware, or one of the client's own, which may read more of `ctx`. */
export type RoundStep<C extends ClientMiddlewareContext> = (
  ctx: C,
  next: () => Promise<Result>,
) => Promise<Result>;

/**
 * Runs `middleware` around `send`, first registered outermost; each may call `next()` more than once (a retry).
 * What a middleware resolves to must be a result object.
 */
export function runClientChain<C extends ClientMiddlewareContext>(
  middleware: readonly RoundStep<C>[],
  ctx: C,
  send: () => Promise<Result>,
): Promise<Result> {
  const step = (index: number): Promise<Result> => {
    if (index === middleware.length) return send();
    const mw = middleware[index] as RoundStep<C>;
    return Promise.resolve(mw(ctx, () => step(index + 1))).then((result: unknown) => {
      if (!isPlainObject(result)) {
        throw new TypeError('a client middleware resolved to something other than a result object');
      }
      return result as Result;
    });
  };
  return step(0);
}
