import type {
  ClientCapabilities,
  CompleteRequestParams,
  LoggingLevel,
  StandardSchemaV1,
} from '@boomerang/protocol';
import { argumentError, hasExtension, TASKS_EXTENSION } from '@boomerang/protocol';
import type { Task } from '@boomerang/protocol/tasks';
import { sleep } from '@boomerang/protocol/transport';
import { type ClientCacheOptions, ResultCache } from './cache.js';
import { deriveCapabilities, type ElicitationMode, mergeCapabilities } from './capabilities.js';
import type { Era } from './connection.js';
import { defaultEra, type EraOptions } from './eras.js';
import type { OriginatingRequest } from './errors.js';
import type { InputCallbacks } from './input-requests.js';
import { checkLogLevel, type LogHandler } from './logging.js';
import type { ProgressHandler } from './requester.js';
import { restartsAllowed } from './restart.js';

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
   * `timeoutMs` wins). None by default: a user filling in a form should not be timed out behind their back. A
   * call with a time limit is bounded by it alone; one without is bounded request by request by
   * `responseTimeoutMs`.
   */
  readonly requestTimeoutMs?: number | undefined;
  /**
   * How long one request of a call without a time limit waits for its response, in milliseconds (default 300,000:
   * five minutes). Each request (each MRTR round) has its own; the time your callbacks take between rounds, or
   * answering a 2025-11-25 server's questions mid-call, is not counted. So a server that goes silent, or streams
   * notifications or keep-alives and never answers, cannot hold a call forever; when it elapses the request is
   * cancelled and the call rejects with a `timeout` `ClientError` naming this option. Requests starting within
   * the same tenth of the limit (at most a second) share one deadline, so a request waits at least the limit and
   * at most that tenth longer. `subscriptions/listen` streams are exempt (they are meant to stay open). `false`:
   * no limit.
   */
  readonly responseTimeoutMs?: number | false | undefined;
  /**
   * How long `connect()` may take, in milliseconds (default 30,000): the `server/discover` probe of `'auto'` and a
   * 2025-11-25 `initialize`. Past it `connect()` rejects with a `timeout` `ClientError` (`method: 'connect'`) and
   * closes the transport. An interactive OAuth sign-in (`withOAuth` with a browser) runs inside `connect()`: give it
   * the time a person needs, or `false` (no limit).
   */
  readonly connectTimeoutMs?: number | false | undefined;
  /**
   * The most input requests one `input_required` result may carry (default 64). A result asking more fails the call
   * with a `too-many-input-requests` `ClientError` before any of them is validated or answered, so a server cannot
   * start thousands of callbacks (forms, LLM calls) at once. It also bounds a 2025-11-25 server's requests answered
   * at the same time (more are answered `-32603`).
   */
  readonly maxInputRequests?: number | undefined;
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
   * The tasks extension (`io.modelcontextprotocol/tasks`): `true` (or options) declares it in every request's
   * capabilities, so a server may answer `tools/call` with a task; `callTool` then follows the task to its final
   * result (see `ClientTaskOptions`), answering its questions through the same callbacks. Declaring the extension
   * through `capabilities` has the same effect.
   */
  readonly tasks?: boolean | ClientTaskOptions | undefined;
  /** Told about every task a call of this client creates (see {@link TaskCallback}); a call's own runs after it. */
  readonly onTask?: TaskCallback | undefined;
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

/** Options of the tasks extension on a client (`tasks: { … }`; `tasks: true` is all defaults). */
export interface ClientTaskOptions {
  /**
   * Follow a task through `notifications/tasks` on a `subscriptions/listen` stream when the server agrees to
   * stream it (default `true`); `tasks/get` then runs only as a slow backstop. `false`: always poll `tasks/get` at
   * the task's `pollIntervalMs` (e.g. behind a proxy that buffers event streams).
   */
  readonly listen?: boolean | undefined;
}

/**
 * Told about a task as soon as a call created it, before the client follows it: the task (its `taskId`, status,
 * `ttlMs`, `pollIntervalMs`…) and the call that created it. A host that must survive a restart stores the `taskId`
 * here (awaited: the client goes on once the returned promise settles), and after the restart waits for the task
 * with `client.tasks.result(taskId)`. If it throws, the call fails with a `callback-failed` `ClientError` and the
 * task is cancelled (nobody would know of it).
 */
export type TaskCallback = (task: Task, request: OriginatingRequest) => void | Promise<void>;

/** Options of one call (every method). */
export interface CallOptions {
  /** Cancels the call (every round): it rejects with `signal.reason`; the server is told (the transport's way). */
  readonly signal?: AbortSignal | undefined;
  /** Time limit of the whole call in milliseconds (all rounds); then it rejects with a `timeout` `ClientError`. */
  readonly timeoutMs?: number | undefined;
  /** Progress of the call; each request (each MRTR round) carries a fresh `progressToken` when this is set. */
  readonly onprogress?: ProgressHandler | undefined;
  /** Told about the task this call creates, after the client's own `onTask` (see {@link TaskCallback}). */
  readonly onTask?: TaskCallback | undefined;
  /**
   * The lowest level of log message the server may send for this call (every round), instead of the client's
   * `logLevel`; the messages go to the client's `onLog`, which this needs. 2026-07-28 only (a 2025-11-25 session
   * has one level, set when it opened).
   */
  readonly logLevel?: LoggingLevel | undefined;
  /**
   * `true`: this flow is safe to start over when the server refuses its state (a restart is allowed even for a
   * tool not marked idempotent, and even when the client option is off: then once); `false`: never restart it.
   * See `ClientOptions.restartOnInvalidState`.
   */
  readonly restartOnInvalidState?: boolean | undefined;
  /**
   * Members merged into the `_meta` of every request of the call (every round, a continuation's resumed rounds
   * too: `start()` keeps them in the continuation, and `resume()` sends them unless it is given its own): a trace
   * context, a tenant, a correlation id. Handlers and resolvers read them as `ctx.meta`. The client's own keys
   * (`io.modelcontextprotocol/*`, `progressToken`) are never taken from here, so a caller cannot spoof them.
   */
  readonly meta?: Readonly<Record<string, unknown>> | undefined;
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

/** The default of `responseTimeoutMs`: five minutes per request. */
const DEFAULT_RESPONSE_TIMEOUT_MS = 300_000;
/** The default of `connectTimeoutMs`. */
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** The default of `maxInputRequests`. */
const DEFAULT_MAX_INPUT_REQUESTS = 64;

/** A time limit option: milliseconds in (0, 2^31), or `false` for none (`undefined`). */
function optionalLimit(name: string, value: number | false): number | undefined {
  if (value === false) return undefined;
  if (!(value > 0 && value <= 2_147_483_647)) {
    throw new RangeError(`"${name}" expected a number of milliseconds in (0, 2^31) or false, got ${value}`);
  }
  return value;
}

/** What a `Client` runs with: its options checked, defaults filled in. */
export interface ClientSettings {
  readonly capabilities: ClientCapabilities;
  readonly callbacks: InputCallbacks;
  readonly maxRounds: number;
  readonly timeoutMs: number | undefined;
  /** Each request's limit when the call has none; `undefined`: no limit. */
  readonly responseTimeoutMs: number | undefined;
  /** `connect()`'s limit; `undefined`: no limit. */
  readonly connectTimeoutMs: number | undefined;
  readonly maxInputRequests: number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly cache: ResultCache | undefined;
  /** How connections open: the eras this client speaks. */
  readonly era: Era;
  /** The tasks extension, when the capabilities declare it: how tasks are followed, and the client's hook. */
  readonly tasks: { readonly listen: boolean; readonly onTask: TaskCallback | undefined } | undefined;
  readonly onLog: LogHandler | undefined;
  readonly logLevel: LoggingLevel | undefined;
  readonly listMaxPages: number;
  readonly validateToolOutput: boolean;
  /** Restarts per call on a refused `requestState` (0: off). */
  readonly restarts: number;
}

/**
 * Checks a client's options and fills in the defaults. Throws `TypeError` for a narrowing option without its
 * callback or a `capabilities` that is not an object, `RangeError` for a bad `elicitationModes`,
 * `inputRequiredMaxRounds` (a non-negative integer), `requestTimeoutMs` (positive milliseconds),
 * `responseTimeoutMs` or `connectTimeoutMs` (positive milliseconds or `false`), `maxInputRequests` (a positive
 * integer) or `restartOnInvalidState.maxRestarts` (1…10), `TypeError` for a `restartOnInvalidState` of another
 * type, a `tasks` that is neither a boolean nor an object and an `onTask` that is not a function, and what the
 * eras' options throw (an unknown `protocol`, a bad `protocolProbeTimeoutMs`). Also `TypeError` for an `onLog`
 * that is not a function or a `logLevel` without it, `RangeError` for an unknown `logLevel` or a `listMaxPages`
 * that is not a positive integer.
 */
export function resolveClientOptions(options: ClientOptions): ClientSettings {
  const {
    inputRequiredMaxRounds = 10,
    requestTimeoutMs,
    responseTimeoutMs = DEFAULT_RESPONSE_TIMEOUT_MS,
    connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS,
    maxInputRequests = DEFAULT_MAX_INPUT_REQUESTS,
    tasks = false,
    onTask,
    onLog,
    listMaxPages = 100,
  } = options;
  const logLevel = checkLogLevel('logLevel', options.logLevel);
  if (onLog !== undefined && typeof onLog !== 'function') {
    throw argumentError('onLog', 'a function', onLog);
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
  if (!Number.isSafeInteger(maxInputRequests) || maxInputRequests < 1) {
    throw new RangeError(`"maxInputRequests" expected a positive integer, got ${maxInputRequests}`);
  }
  if (typeof tasks !== 'boolean' && (typeof tasks !== 'object' || tasks === null)) {
    throw argumentError('tasks', 'a boolean or { listen? }', tasks);
  }
  if (typeof tasks === 'object' && tasks.listen !== undefined && typeof tasks.listen !== 'boolean') {
    throw argumentError('tasks.listen', 'a boolean', tasks.listen);
  }
  if (onTask !== undefined && typeof onTask !== 'function') {
    throw argumentError('onTask', 'a function', onTask);
  }
  const declared = tasks === false ? undefined : { extensions: { [TASKS_EXTENSION]: {} } };
  const capabilities = mergeCapabilities(
    mergeCapabilities(deriveCapabilities(options), declared),
    options.capabilities,
  );
  const listen = typeof tasks === 'object' ? tasks.listen !== false : true;
  return {
    capabilities,
    callbacks: { elicitation: options.elicitation, sampling: options.sampling, roots: options.roots },
    maxRounds: inputRequiredMaxRounds,
    timeoutMs: requestTimeoutMs,
    responseTimeoutMs: optionalLimit('responseTimeoutMs', responseTimeoutMs),
    connectTimeoutMs: optionalLimit('connectTimeoutMs', connectTimeoutMs),
    maxInputRequests,
    sleep: options.sleep ?? sleep,
    cache: options.cache === false ? undefined : new ResultCache(options.cache),
    era,
    tasks: hasExtension(capabilities, TASKS_EXTENSION) ? { listen, onTask } : undefined,
    onLog,
    logLevel,
    listMaxPages,
    validateToolOutput: options.validateToolOutput !== false,
    restarts: restartsAllowed(options.restartOnInvalidState),
  };
}

/** Checks a page cap: a positive integer, or `RangeError` naming the option. */
export function checkMaxPages(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`"${name}" expected a positive integer, got ${String(value)}`);
  }
  return value;
}
