import type {
  AuthInfo,
  CacheableMethod,
  CallToolRequestParams,
  CallToolResult,
  ClientCapabilities,
  CompleteRequestParams,
  CompleteResult,
  GetPromptRequestParams,
  GetPromptResult,
  Implementation,
  InputRequest,
  InputRequiredResult,
  InputResponses,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  LoggingLevel,
  PaginatedRequestParams,
  ProgressToken,
  ReadResourceRequestParams,
  ReadResourceResult,
  RequestId,
  ServerCapabilities,
} from '@boomerang/protocol';
import type { NotificationSource } from './notifications.js';
import type { RequestStateEnvelope } from './sealed.js';

/** A value or a promise of it: every handler may be sync or async. */
export type MaybePromise<T> = T | Promise<T>;

/** Who may reuse a cached result: `"public"` (anyone) or `"private"` (the same authorization context only). */
export type CacheScope = 'public' | 'private';

/**
 * What a handler returns for a result type `T`: the protocol object, except that the members the server fills
 * are optional (`resultType` defaults to `"complete"`; `ttlMs`/`cacheScope` come from the server's `cache`
 * option when left out; values the handler sets win). Index signatures of `T` are kept.
 */
export type HandlerResult<T> = {
  [K in keyof T as K extends 'resultType' | 'ttlMs' | 'cacheScope' ? never : K]: T[K];
} & { resultType?: 'complete'; ttlMs?: number; cacheScope?: CacheScope };

/** A request handler: params first, context last. It may be sync or async; a throw becomes a JSON-RPC error. */
export type Handler<P, R> = (params: P, ctx: RequestContext) => MaybePromise<R>;

/**
 * The request handlers a {@link Server} can be given. The server advertises exactly the capabilities these
 * imply (`tools` for `onListTools`/`onCallTool`, `prompts`, `resources`, `completions` for `onComplete`) and
 * answers `-32601` for a method whose handler is missing.
 *
 * List handlers receive their own cursor (the server unwraps the opaque wire cursor, see the README) and
 * return their own `nextCursor`. The three multi-round-trip handlers may return an {@link InputRequiredResult}.
 */
export interface ServerHandlers {
  /** `tools/list` (paginated, cacheable). */
  onListTools?: Handler<PaginatedRequestParams, HandlerResult<ListToolsResult>>;
  /** `tools/call`: the tool's result, or an `InputRequiredResult` when it needs input only the client has. */
  onCallTool?: Handler<CallToolRequestParams, HandlerResult<CallToolResult> | InputRequiredResult>;
  /** `prompts/list` (paginated, cacheable). */
  onListPrompts?: Handler<PaginatedRequestParams, HandlerResult<ListPromptsResult>>;
  /** `prompts/get`: the prompt, or an `InputRequiredResult`. */
  onGetPrompt?: Handler<GetPromptRequestParams, HandlerResult<GetPromptResult> | InputRequiredResult>;
  /** `resources/list` (paginated, cacheable). */
  onListResources?: Handler<PaginatedRequestParams, HandlerResult<ListResourcesResult>>;
  /** `resources/templates/list` (paginated, cacheable). */
  onListResourceTemplates?: Handler<PaginatedRequestParams, HandlerResult<ListResourceTemplatesResult>>;
  /** `resources/read` (cacheable): the contents, or an `InputRequiredResult`. Unknown URI: throw `-32602`. */
  onReadResource?: Handler<
    ReadResourceRequestParams,
    HandlerResult<ReadResourceResult> | InputRequiredResult
  >;
  /** `completion/complete`. */
  onComplete?: Handler<CompleteRequestParams, HandlerResult<CompleteResult>>;
}

/** `ttlMs` / `cacheScope` for the results of one cacheable method. */
export interface CacheHints {
  /** Freshness in milliseconds, a non-negative integer. Default `0` (immediately stale). */
  ttlMs?: number;
  /** Default `"private"`: never shared across authorization contexts. */
  cacheScope?: CacheScope;
}

/**
 * Defaults for the caching hints every complete result of a cacheable method must carry (`server/discover`,
 * the four list methods, `resources/read`). Per-method values override the top-level ones; a handler's own
 * `ttlMs`/`cacheScope` override both. `InputRequiredResult`s never carry hints.
 */
export interface CacheOptions extends CacheHints {
  /** Per-method overrides, e.g. `{ 'tools/list': { ttlMs: 60_000, cacheScope: 'public' } }`. */
  methods?: { readonly [M in CacheableMethod]?: CacheHints };
}

/** One log function: a message and optional structured details. `console.warn` and friends fit. */
export type LogFn = (message: string, details?: Readonly<Record<string, unknown>>) => void;

/**
 * Where the server reports what it never sends on the wire: why a `requestState` was rejected, the real
 * error behind an `Internal error`, a handler result that failed validation. `console` fits as is.
 * Default: `warn` and `error` go to `console.warn` / `console.error` (stderr in Node, so stdio stays clean);
 * `debug` is silent.
 */
export interface Logger {
  debug?: LogFn;
  warn?: LogFn;
  error?: LogFn;
}

/** Everything `new Server(info, options)` accepts: the handlers plus server-wide settings. */
export interface ServerOptions extends ServerHandlers {
  /** Natural-language guidance for the model, sent in `server/discover`. */
  instructions?: string;
  /**
   * Extra server capabilities, deep-merged over the ones the handlers imply, e.g. `{ tools: { listChanged:
   * true } }`, `{ logging: {} }` (needed for `ctx.log` to emit anything) or `extensions`.
   */
  capabilities?: ServerCapabilities;
  /** Defaults for `ttlMs` / `cacheScope` on cacheable results. */
  cache?: CacheOptions;
  /**
   * Protects `requestState` on `tools/call`, `prompts/get` and `resources/read`: inbound state is opened before
   * the handler runs (the handler sees plaintext), outbound state is sealed after it. Use `sealed({ keys })`.
   * Without it, state crosses the wire exactly as the handler wrote it (see the README's security note).
   */
  requestState?: RequestStateEnvelope;
  /** Where rejections and internal errors are reported (see {@link Logger}). */
  logger?: Logger;
  /**
   * Enables `subscriptions/listen`: where the streams get their notifications, and where
   * `notifyListChanged()` / `notifyResourceUpdated()` publish them. `createNotificationHub()` for one process;
   * share one source between servers (several instances, a Redis-backed source) so that a change on any of
   * them reaches every stream. With a source the server advertises `listChanged: true` on `tools`, `prompts`
   * and `resources`, and `resources.subscribe: true` (set them to `false` in `capabilities` to opt out);
   * without one, `subscriptions/listen` answers `-32601` and declaring those capabilities throws.
   */
  notifications?: NotificationSource;
  /**
   * Serve 2025-11-25 clients on stream transports (default `true`): an `initialize` turns that connection into a
   * legacy session (see the README, "Two eras"). `false`: `initialize` is answered `-32022` naming the
   * supported versions.
   */
  legacy?: boolean;
  /**
   * On a legacy session, fulfil an `InputRequiredResult` a handler returned by sending its input requests to the
   * client and re-entering the handler with the answers and the exact `requestState` (at most 10 rounds).
   * Default `false`: such a result is `-32603` (a 2025-11-25 client cannot retry).
   */
  legacyShim?: boolean;
  /** How long a server→client request of a legacy session waits for its answer, in ms (default 60 000). */
  legacyRequestTimeoutMs?: number;
}

/**
 * What a handler learns about the request it serves, and what it may do while serving it. Everything comes
 * from this one request (`_meta`) or from the transport: the protocol has no session.
 */
export interface RequestContext {
  /** The JSON-RPC id of this request. */
  readonly requestId: RequestId;
  /** The JSON-RPC method, e.g. `"tools/call"`. */
  readonly method: string;
  /**
   * Aborted when the client cancels (`notifications/cancelled`) or the connection goes away. A getter: the
   * request's `AbortController` is made the first time it is read (so `{ ...ctx }` does not copy it).
   */
  readonly signal: AbortSignal;
  /** `_meta["io.modelcontextprotocol/protocolVersion"]`, already checked to be supported. */
  readonly protocolVersion: string;
  /** What the client declared in this request; the server checks every input request against it. */
  readonly clientCapabilities: ClientCapabilities;
  /** Self-reported by the client: for display and logs, never for decisions. */
  readonly clientInfo: Implementation | undefined;
  /** The authenticated principal, when the transport authenticates (or `connect(t, { auth })`). */
  readonly auth: AuthInfo | undefined;
  /** `_meta.progressToken`, when the client asked for progress. */
  readonly progressToken: ProgressToken | undefined;
  /** `_meta["io.modelcontextprotocol/logLevel"]`: the lowest level the client wants to receive. */
  readonly logLevel: LoggingLevel | undefined;
  /** On a multi-round-trip retry: the client's answers, under the keys of the previous `inputRequests`. */
  readonly inputResponses: InputResponses | undefined;
  /** On a retry: the echoed `requestState`, already opened (plaintext) when the server seals state. */
  readonly requestState: string | undefined;
  /**
   * Set only on a 2025-11-25 (legacy) session, where a server may call the client back: sends one input request
   * (`elicitation/create`, `sampling/createMessage`, `roots/list`) as a real server→client request and resolves
   * to the client's result. Rejects with `-32021` (nothing sent) when the client did not declare the capability
   * at `initialize`, `-32001` after the server's `legacyRequestTimeoutMs`, the client's error, or the abort
   * reason when this request is cancelled. In 2026-07-28 it is absent: return an `InputRequiredResult` instead.
   */
  readonly ask?: (request: InputRequest) => Promise<unknown>;
  /**
   * Sends `notifications/progress` for this request; a no-op unless the request carried a `progressToken`,
   * after the response, or when `progress` does not increase. Throws `TypeError` for a non-finite number.
   */
  sendProgress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends `notifications/message` for this request when the client asked for `level` or lower in `_meta` and
   * the server advertises `logging`; a no-op otherwise. Throws `TypeError` for an unknown level.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
}
