import type {
  ClientCapabilities,
  CompleteRequestParams,
  LoggingLevel,
  StandardSchemaV1,
} from '@boomerang/protocol';
import { type ClientCacheOptions, ResultCache } from './cache.js';
import { deriveCapabilities, type ElicitationMode, mergeCapabilities } from './capabilities.js';
import type { Era } from './connection.js';
import { defaultEra, type EraOptions } from './eras.js';
import type { InputCallbacks } from './input-requests.js';
import { checkLogLevel, type LogHandler } from './logging.js';
import type { ProgressHandler } from './requester.js';
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
   * Receives the server's log messages (`notifications/message`), with the call they came with when the transport
   * tells (HTTP). A server sends them only for requests that carry a log level: set `logLevel` here (every request)
   * or per call.
   */
  readonly onLog?: LogHandler | undefined;
  /**
   * The lowest level of log message the server may send, for every request (a call's own `logLevel` wins):
   * `_meta["io.modelcontextprotocol/logLevel"]` on 2026-07-28, `logging/setLevel` once on a 2025-11-25 session whose
   * server declares `logging`. None by default: the server sends no log messages. Needs `onLog`.
   */
  readonly logLevel?: LoggingLevel | undefined;
  /**
   * How many pages `client.tools()`, `prompts()`, `resources()` and `resourceTemplates()` read before they fail
   * with a `pages-exceeded` `ClientError` (a call's own `maxPages` wins). Default 100.
   */
  readonly listMaxPages?: number | undefined;
  /**
   * Validate every `callTool` result of a tool whose last `tools/list` showed an `outputSchema`: its
   * `structuredContent` must be present (unless `isError`) and match, or the call fails with an `invalid-result`
   * `ClientError`. Default `true`.
   */
  readonly validateToolOutput?: boolean | undefined;
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
   * The lowest level of log message the server may send for this call (every round), instead of the client's
   * `logLevel`; the messages go to the client's `onLog`, which this needs. 2026-07-28 only (a 2025-11-25 session
   * has one level, set when it opened).
   */
  readonly logLevel?: LoggingLevel | undefined;
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

/** Options of the list iterations (`client.tools()`, …): a cached call's options, and the page cap. */
export interface ListAllOptions extends CachedCallOptions {
  /** How many pages to read before failing with `pages-exceeded` (default: the client's `listMaxPages`, 100). */
  readonly maxPages?: number | undefined;
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
  readonly onLog: LogHandler | undefined;
  readonly logLevel: LoggingLevel | undefined;
  readonly listMaxPages: number;
  readonly validateToolOutput: boolean;
}

/**
 * Checks a client's options and fills in the defaults. Throws `TypeError` for a narrowing option without its
 * callback or a `capabilities` that is not an object, `RangeError` for a bad `elicitationModes`,
 * `inputRequiredMaxRounds` (a non-negative integer) or `requestTimeoutMs` (positive milliseconds), and what the
 * eras' options throw (an unknown `protocol`, a bad `protocolProbeTimeoutMs`). Also `TypeError` for an `onLog`
 * that is not a function or a `logLevel` without it, `RangeError` for an unknown `logLevel` or a `listMaxPages`
 * that is not a positive integer.
 */
export function resolveClientOptions(options: ClientOptions): ClientSettings {
  const { inputRequiredMaxRounds = 10, requestTimeoutMs, onLog, listMaxPages = 100 } = options;
  const logLevel = checkLogLevel('logLevel', options.logLevel);
  if (onLog !== undefined && typeof onLog !== 'function') {
    throw new TypeError(`"onLog" expected a function, got ${typeof onLog}`);
  }
  if (logLevel !== undefined && onLog === undefined) {
    throw new TypeError('"logLevel" expected together with an "onLog" callback (where the messages go)');
  }
  checkMaxPages('listMaxPages', listMaxPages);
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
    onLog,
    logLevel,
    listMaxPages,
    validateToolOutput: options.validateToolOutput !== false,
  };
}

/** Checks a page cap: a positive integer, or `RangeError` naming the option. */
export function checkMaxPages(name: string, value: unknown): number {
  if (!Number.isSafeInteger(value) || (value as number) < 1) {
    throw new RangeError(`"${name}" expected a positive integer, got ${String(value)}`);
  }
  return value as number;
}
