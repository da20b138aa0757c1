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
  InputRequiredResult,
  InputResponses,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  LogFn,
  Logger,
  LoggingLevel,
  PaginatedRequestParams,
  ProgressToken,
  ReadResourceRequestParams,
  ReadResourceResult,
  RequestId,
  ServerCapabilities,
  StandardSchemaV1,
  SubscriptionFilter,
} from '@boomerang/protocol';
import type { NotificationSource, Unsubscribe } from './notifications.js';
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
  /**
   * `tools/call`: the tool's result, or an `InputRequiredResult` when it needs input only the client has, or a
   * result of a type an extension registered for `tools/call` (the tasks extension's `CreateTaskResult`).
   */
  onCallTool?: Handler<
    CallToolRequestParams,
    HandlerResult<CallToolResult> | InputRequiredResult | ExtensionResult
  >;
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
  methods?: Readonly<Partial<Record<CacheableMethod, CacheHints>>>;
}

/**
 * A method the protocol does not define (a vendor method, an extension's method), served with the same rules
 * as the built-in ones: `_meta` checked, params validated (`-32602` naming the field), the result stamped with
 * `resultType` and `serverInfo`, cancellation, progress and log notifications through `ctx`.
 *
 * With `inputRequired: true` the handler may return an {@link InputRequiredResult} (multi-round-trip): its input
 * requests are checked against the request's client capabilities (`-32021`), and its `requestState` is sealed
 * and verified by the server's `requestState` envelope, bound to the method and its params. The retry's
 * `inputResponses` and (opened) `requestState` reach the handler as `ctx.inputResponses` / `ctx.requestState`.
 *
 * Use {@link defineMethod} for the types of `handler`'s params to follow `params`.
 */
export interface MethodDefinition<S extends StandardSchemaV1 = StandardSchemaV1> {
  /**
   * Validates the request's params (any Standard Schema: zod, valibot, arktype…). It sees the params without
   * `_meta` and, on a multi-round-trip method, without `inputResponses` and `requestState`; the handler gets
   * its output.
   */
  readonly params: S;
  /** The handler may answer `input_required` (default `false`: such a result is a server bug, `-32603`). */
  readonly inputRequired?: boolean | undefined;
  /** Validates a complete result before it is sent (a mismatch is a server bug: `-32603`, details in the log). */
  readonly result?: StandardSchemaV1 | undefined;
  /** Serves one request: params first, context last; may be sync or async; a throw becomes a JSON-RPC error. */
  handler(
    params: StandardSchemaV1.InferOutput<S>,
    ctx: RequestContext,
  ): MaybePromise<HandlerResult<MethodResult> | InputRequiredResult>;
}

/**
 * A result of a type an extension registered for the method (see {@link ResultTypeDefinition}): `resultType` is
 * neither `"complete"` nor `"input_required"`. The server sends it only to a request that declared the extension
 * and validates it with the extension's schema.
 */
export interface ExtensionResult {
  readonly resultType: string;
  readonly [key: string]: unknown;
}

/** The complete result of a custom method: any JSON object (the server fills `resultType` and `_meta`). */
export interface MethodResult {
  readonly [key: string]: unknown;
  _meta?: Record<string, unknown>;
}

/**
 * A result type an extension adds to built-in or custom methods (the tasks extension answers `tools/call` with
 * `resultType: "task"`). The server sends such a result only to a request whose client capabilities declare the
 * extension (`-32021` naming it otherwise), validates it with `result`, and stamps `serverInfo`; cache hints
 * never go on it.
 */
export interface ResultTypeDefinition {
  /** The methods whose handlers may answer with this result type, e.g. `["tools/call"]`. */
  readonly methods: readonly string[];
  /** Validates the whole result, `resultType` included. */
  readonly result: StandardSchemaV1;
}

/**
 * An MCP extension served by a {@link Server}: advertised as `capabilities.extensions[id]` (with `settings`,
 * default `{}`), its methods served like `options.methods`, its result types allowed on the methods it names.
 */
export interface ServerExtension {
  /** The prefixed extension id, e.g. `"io.modelcontextprotocol/tasks"`. */
  readonly id: string;
  /** What `server/discover` advertises under `capabilities.extensions[id]` (default `{}`). */
  readonly settings?: Readonly<Record<string, unknown>> | undefined;
  /** Methods the extension adds. */
  readonly methods?: Readonly<Record<string, MethodDefinition>> | undefined;
  /** Result types the extension adds, by `resultType` value. */
  readonly resultTypes?: Readonly<Record<string, ResultTypeDefinition>> | undefined;
  /** Notification kinds the extension adds to `subscriptions/listen` (see {@link ExtensionSubscriptions}). */
  readonly subscriptions?: ExtensionSubscriptions | undefined;
}

/** Whether a tool runs as a task (the tasks extension): `optional` (when the client declared it), `required` (always). */
export type TaskSupport = 'optional' | 'required';

/**
 * How a round starts when a task is created: the answers and (opened) state of the request that created it, as
 * the task's first run sees them in `ctx.inputResponses` / `ctx.requestState`.
 */
export interface TaskStart {
  readonly inputResponses?: InputResponses | undefined;
  readonly requestState?: string | undefined;
}

/**
 * How one tool call may become a task: what a tasks runtime (`createTasks` of `@boomerang/tasks`) is told per
 * call, by `McpServer` from a tool's `task` setting or by hand.
 */
export interface TaskPolicy {
  readonly support: TaskSupport;
  /**
   * Checks the call as the tool's handler would, on the `tools/call` request before any task is stored, so that a
   * call the handler would refuse never becomes a task: throw an `McpError` (`-32602` for a call the handler
   * refuses) to answer with that error, return a `CallToolResult` (such as the `isError` result of arguments that
   * do not validate) to answer with it instead of a task, or `undefined` to go on. `McpServer` checks the tool's
   * input schema here.
   */
  readonly validate?:
    | ((
        params: CallToolRequestParams,
        ctx: RequestContext,
      ) => MaybePromise<HandlerResult<CallToolResult> | undefined>)
    | undefined;
  /**
   * Runs on the `tools/call` request itself, before any task exists: an `InputRequiredResult` it returns goes
   * back to the client as an ordinary multi-round-trip round (no task yet); anything else creates the task, whose
   * first run starts from the returned {@link TaskStart} (default: the request's own answers and state). This is
   * how questions that decide whether to proceed are asked synchronously, before the work is handed off.
   */
  readonly before?:
    | ((
        params: CallToolRequestParams,
        ctx: RequestContext,
      ) => MaybePromise<InputRequiredResult | TaskStart | undefined>)
    | undefined;
}

/**
 * Notification kinds an extension adds to `subscriptions/listen`: members of the listen filter it owns (the
 * tasks extension's `taskIds`), who may have them, and where it publishes. The notifications it publishes go
 * through the server's {@link NotificationSource} like the server's own, so a shared source carries them to
 * every instance; `notificationMatches` decides which stream gets which.
 */
export interface ExtensionSubscriptions {
  /** The filter members this extension owns, e.g. `["taskIds"]`; the server never agrees to them itself. */
  readonly members: readonly string[];
  /**
   * What this listen request may have of the members it owns, given the whole requested filter and the
   * request's context: e.g. only the task ids of the principal's own live tasks. Called (before the source is
   * subscribed) only when the request names one of `members`; members it returns outside `members` are
   * dropped. The result goes into the acknowledgement and is the stream's filter. Throw an `McpError` to refuse
   * the whole request (`-32021` when the client did not declare the extension).
   */
  agree(filter: SubscriptionFilter, ctx: RequestContext): MaybePromise<SubscriptionFilter>;
  /**
   * Called once by each {@link Server} that serves this extension with a notification source, at construction:
   * where the extension publishes from now on. Returns the function that stops it, which `server.close()` calls.
   */
  attach(source: NotificationSource): Unsubscribe;
}

/** Settings of the 2025-11-25 era on a {@link Server} (see `ServerOptions.legacy`). */
export interface LegacyOptions {
  /**
   * Fulfil an `InputRequiredResult` a handler returned by sending its input requests to the client as real
   * server→client requests and re-entering the handler with the answers and the exact `requestState` (at most
   * 10 rounds). Default `false`: such a result is `-32603` (a 2025-11-25 client cannot retry).
   */
  readonly shim?: boolean | undefined;
  /** How long one server→client request waits for its answer, in ms (default 60 000). */
  readonly requestTimeoutMs?: number | undefined;
}

/** Everything `new Server(info, options)` accepts: the handlers plus server-wide settings. */
export interface ServerOptions extends ServerHandlers {
  /** Natural-language guidance for the model, sent in `server/discover`. */
  instructions?: string;
  /**
   * Extra server capabilities, deep-merged over the ones the handlers imply, e.g. `{ tools: { listChanged:
   * true } }`, `{ logging: {} }` (needed for `ctx.log` to emit anything) or `extensions`.
   *
   * Or a function returning the capabilities in force, read live: on every `server/discover` and on every
   * request, whose method answers `-32601` while its feature (`tools`, `prompts`, `resources`, `completions`) is
   * absent. Nothing is implied or merged then (extensions' and subscriptions' members still are); return the
   * same object while nothing changed, since it is read per request. A host whose features come and go at run
   * time (`McpServer` is one) uses this form.
   */
  capabilities?: ServerCapabilities | (() => ServerCapabilities);
  /** Methods beyond the protocol's, by name (see {@link MethodDefinition}). Built-in names throw `TypeError`. */
  methods?: Readonly<Record<string, MethodDefinition>>;
  /** Extensions served: their capabilities, methods and result types (see {@link ServerExtension}). */
  extensions?: readonly ServerExtension[];
  /** Defaults for `ttlMs` / `cacheScope` on cacheable results. */
  cache?: CacheOptions;
  /**
   * Protects `requestState` on the multi-round-trip methods (`tools/call`, `prompts/get`, `resources/read` and
   * custom methods with `inputRequired`): inbound state is opened before the handler runs (the handler sees
   * plaintext), outbound state is sealed after it. Use `sealed({ keys })`. Without it, state crosses the wire
   * exactly as the handler wrote it (see the README's security note).
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
   * legacy session (see the README, "Two eras"); settings in {@link LegacyOptions}. `false`: `initialize` is
   * answered `-32022` naming the supported versions.
   */
  legacy?: boolean | LegacyOptions;
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
  /**
   * The revision this request speaks: `_meta["io.modelcontextprotocol/protocolVersion"]`, already checked to be
   * supported, or `"2025-11-25"` for a request of a 2025-11-25 session (served by the same handlers).
   */
  readonly protocolVersion: string;
  /** What the client declared in this request; the server checks every input request against it. */
  readonly clientCapabilities: ClientCapabilities;
  /** Self-reported by the client: for display and logs, never for decisions. */
  readonly clientInfo: Implementation | undefined;
  /**
   * The request's `_meta` as sent: the reserved `io.modelcontextprotocol/*` keys (already read into the members
   * above) and whatever else the caller put there (`CallOptions.meta` of `@boomerang/client`, a `traceparent`).
   * Not validated beyond being an object: treat what is not reserved as untrusted input.
   */
  readonly meta: Readonly<Record<string, unknown>>;
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

export type { LogFn, Logger };
