import type { ClientCapabilities, CompleteRequestParams, StandardSchemaV1 } from '@boomerang/protocol';
import { type ClientCacheOptions, ResultCache } from './cache.js';
import { deriveCapabilities, type ElicitationMode, mergeCapabilities } from './capabilities.js';
import type { Era } from './connection.js';
import { defaultEra, type EraOptions } from './eras.js';
import type { InputCallbacks } from './input-requests.js';
import type { ProgressHandler } from './requester.js';
import { restartsAllowed } from './restart.js';
import { sleep } from './signals.js';

/**
 * Options of `Client`: the callbacks that answer input requests, the limits of the MRTR loop, and the options of
 * the protocol eras the client speaks (`protocol`, `protocolProbeTimeoutMs`).
 */
export interface ClientOptions extends InputCallbacks, EraOptions {
  /** Narrows the declared `elicitation` capability (default both: `{ form: {}, url: {} }`). Needs `elicitation`. */
  readonly elicitationModes?: readonly ElicitationMode[] | undefined;
  /** Declares `sampling.tools`, so servers may send `tools`/`toolChoice` in sampling requests. Needs `sampling`. */
  readonly samplingTools?: boolean | undefined;
  /**
   * Capabilities to declare besides those the callbacks derive, merged with them member by member: for a host
   * that answers the rounds itself (`client.start()` / `client.resume()`) and so has no callback, e.g.
   * `{ elicitation: { form: {} } }`, or the extensions it supports (`{ extensions: { 'acme/tasks': {} } }`). The automatic loop still needs the callback: a round asking for
   * something declared here but without a callback fails the call with an `unsupported-input-request` `ClientError` (and a
   * 2025-11-25 server's request for it is answered `-32601`).
   */
  readonly capabilities?: ClientCapabilities | undefined;
  /**
   * How many `input_required` results one call follows (default 10); the next one fails the call with
   * a `rounds-exceeded` `ClientError`. A call thus sends at most `inputRequiredMaxRounds + 1` requests.
   */
  readonly inputRequiredMaxRounds?: number | undefined;
  /**
   * Default time limit of every call, in milliseconds, bounding all of its rounds and callbacks (a call's own
   * `timeoutMs` wins). None by default: a user filling in a form should not be timed out behind their back.
   */
  readonly requestTimeoutMs?: number | undefined;
  /**
   * The wait before a state-only retry (a server shedding load returns only `requestState`): 50 ms doubling to
   * 250 ms. Replace it in tests, or to schedule retries differently; it must reject when `signal` aborts.
   */
  readonly sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
  /**
   * Caching of `listTools`, `listPrompts`, `listResources`, `listResourceTemplates` and `readResource` results
   * per their `ttlMs` / `cacheScope` (see the README): on by default with an in-memory store per client;
   * `false` turns it off. Results with `ttlMs` absent or `0` are never cached.
   */
  readonly cache?: false | ClientCacheOptions | undefined;
  /**
   * Starts a flow over from its first round when the server refuses its `requestState` (`-32602` "Invalid or
   * expired requestState": the state expired, or was sealed under a key the instance no longer has, e.g. after a
   * botched key rotation) instead of failing the call. Off by default; `true` allows one restart per call,
   * `{ maxRestarts }` up to 10.
   *
   * It fires only in the automatic loop (`callTool`, `getPrompt`, `readResource`, `request`; never for
   * `resume()`, whose continuation may come from another process), only when the refused request carried a
   * `requestState` (a round after the first), and only for a flow that is safe to run again from scratch: a
   * prompt or a resource read, or a tool whose last `tools/list` (as this client received it) said
   * `readOnlyHint: true` or `idempotentHint: true`. Any other tool, and any custom method, restarts only when
   * the call itself passes `restartOnInvalidState: true` (the refused request may have been the final round,
   * the one that acts, and a restart asks your callbacks again). A call's `restartOnInvalidState: false` never
   * restarts. The restarts share the call's `timeoutMs` and signal; when none is left, the refusal is the error.
   */
  readonly restartOnInvalidState?: boolean | { readonly maxRestarts?: number | undefined } | undefined;
}

/** Options of one call (every method). */
export interface CallOptions {
  /** Cancels the call (every round): it rejects with `signal.reason`; the server is told (the transport's way). */
  readonly signal?: AbortSignal | undefined;
  /** Time limit of the whole call in milliseconds (all rounds); then it rejects with a `timeout` `ClientError`. */
  readonly timeoutMs?: number | undefined;
  /** Progress of the call; each request (each MRTR round) carries a fresh `progressToken` when this is set. */
  readonly onprogress?: ProgressHandler | undefined;
  /**
   * `true`: this flow is safe to start over when the server refuses its state (a restart is allowed even for a
   * tool not marked idempotent, and even when the client option is off: then once); `false`: never restart it.
   * See `ClientOptions.restartOnInvalidState`.
   */
  readonly restartOnInvalidState?: boolean | undefined;
}

/** Options of the cached calls: the list methods and `readResource`. */
export interface CachedCallOptions extends CallOptions {
  /**
   * `false`: this call neither reads nor fills the result cache; `'reload'`: it skips the lookup and stores the
   * fresh result (a forced refresh). Default: use the cache.
   */
  readonly cache?: boolean | 'reload' | undefined;
}

/**
 * Options of `client.request()` (and of `start()` / `resume()` for a method outside the spec): a call's options,
 * and the schema of its complete result.
 */
export interface RequestOptions<S extends StandardSchemaV1 = StandardSchemaV1> extends CallOptions {
  /**
   * Validates the complete result (any Standard Schema: zod 4, valibot, arktype…); the call resolves to the
   * schema's output, and a result it rejects is an `invalid-result` `ClientError` naming the issues.
   */
  readonly result: S;
}

/** Params of the list methods: the `nextCursor` of the previous page, if any. */
export interface ListParams {
  readonly cursor?: string | undefined;
}

/** Params of `completion/complete` (everything but `_meta`, which the client fills). */
export interface CompleteParams {
  readonly ref: CompleteRequestParams['ref'];
  readonly argument: CompleteRequestParams['argument'];
  readonly context?: CompleteRequestParams['context'];
}

/** What a `Client` runs with: its options checked, defaults filled in. */
export interface ClientSettings {
  readonly capabilities: ClientCapabilities;
  readonly callbacks: InputCallbacks;
  readonly maxRounds: number;
  readonly timeoutMs: number | undefined;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly cache: ResultCache | undefined;
  /** How connections open: the eras this client speaks. */
  readonly era: Era;
  /** Restarts per call on a refused `requestState` (0: off). */
  readonly restarts: number;
}

/**
 * Checks a client's options and fills in the defaults. Throws `TypeError` for a narrowing option without its
 * callback or a `capabilities` that is not an object, `RangeError` for a bad `elicitationModes`,
 * `inputRequiredMaxRounds` (a non-negative integer), `requestTimeoutMs` (positive milliseconds) or
 * `restartOnInvalidState.maxRestarts` (1…10), `TypeError` for a `restartOnInvalidState` of another type, and what the
 * eras' options throw (an unknown `protocol`, a bad `protocolProbeTimeoutMs`).
 */
export function resolveClientOptions(options: ClientOptions): ClientSettings {
  const { inputRequiredMaxRounds = 10, requestTimeoutMs } = options;
  const era = defaultEra(options);
  if (!Number.isSafeInteger(inputRequiredMaxRounds) || inputRequiredMaxRounds < 0) {
    throw new RangeError(
      `"inputRequiredMaxRounds" expected a non-negative integer, got ${inputRequiredMaxRounds}`,
    );
  }
  if (requestTimeoutMs !== undefined && !(requestTimeoutMs > 0 && requestTimeoutMs <= 2_147_483_647)) {
    throw new RangeError(
      `"requestTimeoutMs" expected a number of milliseconds in (0, 2^31), got ${requestTimeoutMs}`,
    );
  }
  return {
    capabilities: mergeCapabilities(deriveCapabilities(options), options.capabilities),
    callbacks: { elicitation: options.elicitation, sampling: options.sampling, roots: options.roots },
    maxRounds: inputRequiredMaxRounds,
    timeoutMs: requestTimeoutMs,
    sleep: options.sleep ?? sleep,
    cache: options.cache === false ? undefined : new ResultCache(options.cache),
    era,
    restarts: restartsAllowed(options.restartOnInvalidState),
  };
}
