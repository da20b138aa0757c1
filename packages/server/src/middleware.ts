// Server middleware: onion functions around every request, after parsing and era translation. The chain is
// composed once per request from the registered list; with none registered the dispatcher never builds it.
import {
  type AuthInfo,
  argumentError,
  isPlainObject,
  type Principal,
  principalOf,
  type RequestId,
  type Result,
} from '@boomerang/protocol';
import type { Cancellation } from '@boomerang/protocol/transport';
import type { StateView } from './state-opening.js';

/**
 * What a server middleware sees of one request. Everything is known before `next()` runs: the request as received
 * (after a 2025-11-25 session's request was translated), who sent it, and which round of its flow it is.
 */
export interface ServerMiddlewareContext {
  /** The JSON-RPC id of the request. */
  readonly requestId: RequestId;
  /** The JSON-RPC method, e.g. `"tools/call"`. */
  readonly method: string;
  /** The request's params as received (`{}` when absent); validated only once `next()` resolves. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The request's `_meta` (`{}` when absent), reserved `io.modelcontextprotocol/*` keys included. */
  readonly meta: Readonly<Record<string, unknown>>;
  /** The revision the request speaks (`"2025-11-25"` for a legacy session's), possibly one the server refuses. */
  readonly protocolVersion: string | undefined;
  /** The authenticated caller, when the transport authenticates. */
  readonly auth: AuthInfo | undefined;
  /**
   * Who the caller is, by the rule sealed state follows (`principalOf` of `@boomerang/protocol`): `null` when
   * anonymous, `[clientId, issuer, subject]`, `{ token }`, or `undefined` for an `auth` naming neither.
   */
  readonly principal: Principal | null | undefined;
  /**
   * The round of a multi-round-trip flow this request is: `0` for a first round. Exact when the round that
   * minted the request's state was served by a server sealing with `sealed()` (the round is sealed beside the
   * handler's state); otherwise `1` for any retry (a request that brings `inputResponses` or `requestState`).
   * For telemetry and logs, not for enforcement: sealed state may be replayed while it lives (a replayed round-1
   * state is served as round 2 again), and a client may start a flow over without it; limit by principal instead.
   *
   * The state is unsealed when this, {@link carried} or {@link stateRefusal} is first read, or when the request
   * goes on past the last middleware: a middleware that refuses a request without reading them (a rate limit)
   * spares the server the unsealing. With an envelope that opens asynchronously (not `synchronous`), the state
   * is opened before the first middleware runs.
   */
  readonly round: number;
  /** What the previous round's middleware carried to this one (see {@link carry}); `{}` on a first round. */
  readonly carried: Readonly<Record<string, string>>;
  /**
   * Why the request's `requestState` did not open (`expired`, `forged`, `context`…, the `SealError` reason), for
   * metrics and logs: the wire only ever says `Invalid or expired requestState`. `undefined` when it opened or
   * there was none.
   */
  readonly stateRefusal: string | undefined;
  /** Aborted when the client cancels or the connection goes away. */
  readonly signal: AbortSignal;
  /**
   * Seals `value` under `key` beside the state this round mints (when it answers `input_required` with a
   * `requestState` and the server seals with `sealed()`), so that the next round reads it in {@link carried}:
   * how a trace links the rounds of one flow without the client's help. Call it before `next()` resolves. At
   * most {@link MAX_CARRIED_BYTES} in all (the UTF-8 bytes of the carried values as JSON); keys and values are
   * strings. Throws a `RangeError` beyond that: a middleware that must not fail the request catches it.
   */
  carry(key: string, value: string): void;
}

/**
 * A server middleware, `(ctx, next) => result`: runs around every request after parsing and era translation, in
 * registration order (the first registered is the outermost). `next()` resolves to the result the request would
 * answer (`resultType` `"complete"`, `"input_required"` or an extension's), or rejects with the `McpError` it would
 * answer (an internal error is logged first and seen here as `-32603`). A middleware returns that result (or
 * another one), or throws an `McpError` to answer with it instead: a short-circuit need not call `next()`.
 */
export type ServerMiddleware = (ctx: ServerMiddlewareContext, next: () => Promise<Result>) => Promise<Result>;

/** The most bytes (UTF-8, of the carried keys and values as JSON) middleware may carry from one round to the next. */
export const MAX_CARRIED_BYTES = 2_048;

/** The parts of a {@link ServerMiddlewareContext} the dispatcher decides. */
export interface MiddlewareContextInit {
  readonly requestId: RequestId;
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly protocolVersion: string | undefined;
  readonly auth: AuthInfo | undefined;
  /** The request's state, read on the first use of `round`, `carried` or `stateRefusal`. */
  readonly state: () => StateView;
  readonly cancel: Cancellation;
}

const NOTHING: Readonly<Record<string, string>> = Object.freeze({});

/** The context one request's middleware share; `outgoing` is what they carried (`undefined`: nothing). */
export class MiddlewareContext implements ServerMiddlewareContext {
  readonly requestId: RequestId;
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly meta: Readonly<Record<string, unknown>>;
  readonly protocolVersion: string | undefined;
  readonly auth: AuthInfo | undefined;
  outgoing: Record<string, string> | undefined;
  readonly #cancel: Cancellation;
  readonly #state: () => StateView;
  #view: StateView | undefined;
  #principal: Principal | null | undefined | typeof UNSET = UNSET;

  constructor(init: MiddlewareContextInit) {
    this.requestId = init.requestId;
    this.method = init.method;
    this.params = init.params;
    this.meta = isPlainObject(init.params._meta) ? init.params._meta : NOTHING;
    this.protocolVersion = init.protocolVersion;
    this.auth = init.auth;
    this.#state = init.state;
    this.#cancel = init.cancel;
  }

  get round(): number {
    this.#view ??= this.#state();
    return this.#view.round;
  }

  get carried(): Readonly<Record<string, string>> {
    this.#view ??= this.#state();
    return this.#view.carried;
  }

  get stateRefusal(): string | undefined {
    this.#view ??= this.#state();
    return this.#view.stateRefusal;
  }

  get principal(): Principal | null | undefined {
    if (this.#principal === UNSET) this.#principal = principalOf(this.auth);
    return this.#principal;
  }

  get signal(): AbortSignal {
    return this.#cancel.signal;
  }

  carry(key: string, value: string): void {
    if (typeof key !== 'string' || key === '') throw argumentError('key', 'a non-empty string', key);
    if (typeof value !== 'string') throw argumentError('value', 'a string', value);
    const next = { ...this.outgoing, [key]: value };
    const size = utf8Length(JSON.stringify(next));
    if (size > MAX_CARRIED_BYTES) {
      throw new RangeError(`"carry" expected at most ${MAX_CARRIED_BYTES} bytes in all, got ${size}`);
    }
    this.outgoing = next;
  }
}

const UNSET: unique symbol = Symbol('unset');

/** The UTF-8 length of `text` (what it takes in the sealed frame), without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) bytes += code >= 0x800 && (code < 0xd800 || code > 0xdfff) ? 2 : 1;
  }
  return bytes;
}

/**
 * Runs `middleware` around `inner` (the request served without them), first registered outermost. Each `next`
 * may be called once, and only before its middleware has answered (a late `next()` rejects and runs nothing); the
 * value a middleware resolves to must be a result object (`-32603` otherwise, logged).
 */
export function runChain(
  middleware: readonly ServerMiddleware[],
  ctx: ServerMiddlewareContext,
  inner: () => Promise<Result>,
): Promise<Result> {
  const step = (index: number): Promise<Result> => {
    const mw = middleware[index];
    if (mw === undefined) return inner();
    let called = false;
    let answered = false;
    const next = (): Promise<Result> => {
      if (called) return Promise.reject(new Error('a server middleware called next() twice'));
      if (answered) return Promise.reject(new Error('a server middleware called next() after it answered'));
      called = true;
      return step(index + 1);
    };
    return Promise.resolve()
      .then(() => mw(ctx, next))
      .then(
        (result: unknown) => {
          answered = true;
          if (!isPlainObject(result))
            throw new Error('a server middleware resolved to something other than a result');
          return result as Result;
        },
        (error: unknown) => {
          answered = true;
          throw error;
        },
      );
  };
  return step(0);
}

/** Whether `value` may be registered as a middleware; the `TypeError` otherwise. */
export function checkMiddleware(value: unknown): ServerMiddleware {
  if (typeof value !== 'function') {
    throw argumentError('middleware', 'a function (ctx, next) => result', value);
  }
  return value as ServerMiddleware;
}
