import {
  type AuthInfo,
  type ClientCapabilities,
  describeIssues,
  describeType,
  ErrorCode,
  type Implementation,
  type InputResponses,
  isPlainObject,
  isThenable,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type LoggingLevel,
  McpError,
  MetaKey,
  type ProgressToken,
  principalOf,
  type Result,
  type SchemaIssue,
  SUPPORTED_PROTOCOL_VERSIONS,
  type SubscriptionsListenRequestParams,
  validate,
} from '@boomerang/protocol';
import { RequestParamsSchema, safeParse } from '@boomerang/protocol/schemas';
import {
  type Cancellation,
  type HandleContext,
  jsonRpcError,
  jsonRpcResult,
} from '@boomerang/protocol/transport';
import { cancellationOf } from './cancellation.js';
import { createRequestContext, isLoggingLevel } from './context.js';
import type { ServerCore } from './core.js';
import { unwrapCursor } from './cursor.js';
import { currentCapabilities, discoverResult } from './discover.js';
import { checkArgumentDepth, checkInputResponses } from './limits.js';
import { serveListen } from './listen.js';
import { METHODS, type MethodSpec } from './methods.js';
import { MiddlewareContext, runChain } from './middleware.js';
import { finishResult } from './result.js';
import type { OpenedState, RequestStateBinding, RequestStateEnvelope } from './sealed.js';
import { type EarlyState, reasonOf, roundOf, StateOpening, type StateView } from './state-opening.js';
import type { Handler, RequestContext } from './types.js';

/** The one wire error for every `requestState` that fails to open (the reason goes to the log only). */
const INVALID_REQUEST_STATE = 'Invalid or expired requestState';

const invalidParams = (message: string) => new McpError(ErrorCode.InvalidParams, message);

const ABORTED: unique symbol = Symbol('aborted');

/** How one request is served beyond what its message says: what a connection or an era adds. */
export interface ServeOptions {
  /** Aborts when the connection shuts down: open subscriptions then end with their result. */
  readonly ending?: AbortSignal | undefined;
  /**
   * The revision the request speaks when it is not the one in its `_meta`: a 2025-11-25 session's requests are
   * translated into 2026-07-28 ones and served here, with `ctx.protocolVersion` saying `"2025-11-25"`.
   */
  readonly protocolVersion?: string | undefined;
}

/** What the middleware path hands the request it wraps (see {@link serveThroughMiddleware}). */
interface Tap {
  readonly cancel: Cancellation;
  /** The middleware context: what they carried is sealed into the state this round mints. */
  readonly ctx: MiddlewareContext;
  /** The state as opened on the middleware path, with the binding it was opened under (not opened twice). */
  readonly early: EarlyState | undefined;
}

/**
 * Serves one JSON-RPC request: routing (built-in methods, then custom ones), `_meta` and params validation,
 * version check, cursor unwrapping, `requestState` opening, the handler, and result finishing (see result.ts),
 * inside the server's middleware when it has any. Resolves to the response, or to `undefined` once the request is
 * cancelled (`hctx.signal` aborted, or the stream transport's cancellation; a cancelled request gets no
 * response). Never rejects.
 */
export function serveRequest(
  core: ServerCore,
  request: JSONRPCRequest,
  hctx: HandleContext = {},
  options: ServeOptions = {},
): Promise<JSONRPCResponse | undefined> {
  return core.middleware.length === 0
    ? serveCore(core, request, hctx, options, undefined)
    : serveThroughMiddleware(core, request, hctx, options);
}

/**
 * Serves a request an era answers itself (a 2025-11-25 session's `initialize`, `ping`, `logging/setLevel`,
 * `resources/(un)subscribe`) inside the server's middleware, as every other request: `serve` answers it once the
 * chain lets it through. Such a request opens no state: its round is `0`.
 */
export function serveOwnRequest(
  core: ServerCore,
  request: JSONRPCRequest,
  hctx: HandleContext,
  options: ServeOptions,
  serve: () => Promise<JSONRPCResponse | undefined>,
): Promise<JSONRPCResponse | undefined> {
  if (core.middleware.length === 0) return serve();
  const cancel = cancellationOf(hctx);
  const ctx = middlewareContext(request, hctx, options, cancel, NO_STATE);
  return chainResponse(core, request, ctx, cancel, serve);
}

/**
 * The middleware path: the chain runs around {@link serveCore}, whose response it sees as a result or an
 * `McpError`. The request's state is opened once, when first needed (see state-opening.ts): before the chain only
 * for an envelope that opens asynchronously.
 */
async function serveThroughMiddleware(
  core: ServerCore,
  request: JSONRPCRequest,
  hctx: HandleContext,
  options: ServeOptions,
): Promise<JSONRPCResponse | undefined> {
  const cancel = cancellationOf(hctx);
  const params = isPlainObject(request.params) ? request.params : {};
  const retry = params.inputResponses !== undefined || params.requestState !== undefined;
  const state = new StateOpening(() => openEarly(core, request.method, params, hctx.auth), retry);
  if (core.requestState !== undefined && core.requestState.synchronous !== true) await state.opened();
  const ctx = middlewareContext(request, hctx, options, cancel, () => state.view());
  return chainResponse(core, request, ctx, cancel, async () => {
    const opening = state.opened();
    const early = isThenable(opening) ? await opening : opening;
    return serveCore(core, request, hctx, options, { cancel, ctx, early });
  });
}

/** The state view of a request that opens none. */
const NO_STATE = (): StateView => ({ round: 0, carried: NO_CARRIED, stateRefusal: undefined });

const NO_CARRIED: Readonly<Record<string, string>> = Object.freeze({});

function middlewareContext(
  request: JSONRPCRequest,
  hctx: HandleContext,
  options: ServeOptions,
  cancel: Cancellation,
  state: () => StateView,
): MiddlewareContext {
  const params = isPlainObject(request.params) ? request.params : {};
  const meta = isPlainObject(params._meta) ? params._meta : undefined;
  const version = meta?.[MetaKey.protocolVersion];
  return new MiddlewareContext({
    requestId: request.id,
    method: request.method,
    params,
    protocolVersion: options.protocolVersion ?? (typeof version === 'string' ? version : undefined),
    auth: hctx.auth,
    state,
    cancel,
  });
}

/** Runs the chain around `inner`, and answers with what it resolves to (nothing once cancelled). */
async function chainResponse(
  core: ServerCore,
  request: JSONRPCRequest,
  ctx: MiddlewareContext,
  cancel: Cancellation,
  inner: () => Promise<JSONRPCResponse | undefined>,
): Promise<JSONRPCResponse | undefined> {
  try {
    const result = await runChain(core.middleware, ctx, async () => {
      const response = await inner();
      if (response === undefined) throw cancelled(cancel);
      return outcomeOf(response);
    });
    return cancel.aborted ? undefined : jsonRpcResult(request.id, result);
  } catch (error) {
    return cancel.aborted ? undefined : errorResponse(core, request, error);
  }
}

/**
 * Opens the `requestState` of a multi-round-trip request for the middleware path, under the binding
 * {@link serveCore} would compute (synchronously when the envelope does). `undefined` when there is nothing to
 * open, or when the request is malformed in a way serving it will report first.
 */
function openEarly(
  core: ServerCore,
  method: string,
  params: Record<string, unknown>,
  auth: AuthInfo | undefined,
): EarlyState | undefined | Promise<EarlyState> {
  const spec = METHODS.get(method);
  const inputRequired = (spec ?? core.methods.get(method))?.inputRequired === true;
  const envelope = inputRequired ? core.requestState : undefined;
  const token = params.requestState;
  if (envelope === undefined || typeof token !== 'string') return undefined;
  let binding: RequestStateBinding;
  try {
    checkArgumentDepth(spec === undefined ? params : params.arguments);
    binding =
      spec !== undefined
        ? bindingOf(method, params, auth)
        : { method, target: '', arguments: ownParams(params, true), auth };
  } catch {
    return undefined;
  }
  const failed = (error: unknown): EarlyState => ({ binding, opened: { error } });
  try {
    const value = envelope.open(token, binding);
    if (!isThenable(value)) return { binding, opened: { value } };
    return Promise.resolve(value).then(
      (opened): EarlyState => ({ binding, opened: { value: opened } }),
      failed,
    );
  } catch (error) {
    return failed(error);
  }
}

/** What `next()` resolves to for a response: its result, or (thrown) the `McpError` of its error. */
function outcomeOf(response: JSONRPCResponse): Result {
  const { result, error } = response as { result?: unknown; error?: unknown };
  if (isPlainObject(result)) return result as Result;
  if (isPlainObject(error) && typeof error.code === 'number' && typeof error.message === 'string') {
    throw new McpError(error.code, error.message, error.data);
  }
  throw new Error('the request answered neither a result nor an error');
}

/** The rejection a `next()` sees for a request cancelled meanwhile: the signal's reason. */
function cancelled(cancel: Cancellation): unknown {
  return cancel.signal.reason ?? new Error('the request was cancelled');
}

/**
 * {@link serveRequest} without middleware; `tap` when a chain wraps it. The per-request path of every server: its
 * steps are named functions over what they need (no closure, copy or await beyond what the request itself needs).
 */
async function serveCore(
  core: ServerCore,
  request: JSONRPCRequest,
  hctx: HandleContext,
  options: ServeOptions,
  tap: Tap | undefined,
): Promise<JSONRPCResponse | undefined> {
  const { id, method } = request;
  const cancel = tap === undefined ? cancellationOf(hctx) : tap.cancel;
  try {
    const spec = METHODS.get(method);
    const custom = spec === undefined ? core.methods.get(method) : undefined;
    const route = spec ?? custom;
    if (route === undefined)
      throw method === 'initialize' ? initializeError(request.params) : notFound(method);
    const handler = spec === undefined ? undefined : servedHandler(core, spec, method);
    const meta = readMeta(request.params);
    const params = request.params as Record<string, unknown>;
    const inputRequired = route.inputRequired;
    const envelope = inputRequired ? stateEnvelope(core, method, params, spec !== undefined) : undefined;
    let handlerParams: unknown;
    let binding: RequestStateBinding | undefined;
    if (spec !== undefined) {
      handlerParams = builtInParams(spec, method, params);
      if (inputRequired) binding = tap?.early?.binding ?? bindingOf(method, params, hctx.auth);
    } else if (custom !== undefined) {
      const own = ownParams(params, inputRequired);
      const checked = validate(custom.params, own);
      const outcome = checked instanceof Promise ? await checked : checked;
      if (!outcome.ok) throw invalidParams(`Invalid params: ${describeIssues(outcome.issues)}`);
      handlerParams = outcome.value;
      if (inputRequired)
        binding = tap?.early?.binding ?? { method, target: '', arguments: own, auth: hctx.auth };
    }
    if (envelope !== undefined) warnIfNoIdentity(core, hctx.auth);
    let requestState = inputRequired ? (params.requestState as string | undefined) : undefined;
    let opened: string | OpenedState | undefined;
    if (envelope !== undefined && requestState !== undefined) {
      const opening = openState(core, envelope, requestState, binding as RequestStateBinding, tap?.early);
      opened = isThenable(opening) ? await opening : opening;
      requestState = typeof opened === 'string' ? opened : opened.state;
      if (spec !== undefined) handlerParams = { ...(handlerParams as object), requestState };
    }

    const inputResponses = inputRequired ? params.inputResponses : undefined;
    const { ctx, end } = contextOf(core, request, hctx, options, cancel, meta, inputResponses, requestState);
    try {
      const running =
        custom !== undefined
          ? custom.handler(handlerParams, ctx)
          : handler !== undefined
            ? handler(handlerParams, ctx)
            : answerItself(core, request, ctx, hctx, cancel, options);
      const settled = untilAborted(running, cancel);
      const value = isThenable(settled) ? await settled : settled;
      if (value === ABORTED) return undefined;
      const finished = finishResult(value, {
        method,
        spec: route,
        serverInfo: core.info,
        cache: core.cacheHints(method),
        clientCapabilities: meta.clientCapabilities,
        resultTypes: core.resultTypes.get(method),
        envelope,
        binding,
        round: inputRequired
          ? roundOf(opened, params.inputResponses !== undefined || params.requestState !== undefined)
          : 0,
        carried: tap?.ctx.outgoing,
      });
      const result = isThenable(finished) ? await finished : finished;
      return cancel.aborted ? undefined : jsonRpcResult(id, result);
    } finally {
      end();
    }
  } catch (error) {
    return cancel.aborted ? undefined : errorResponse(core, request, error);
  }
}

/**
 * The checks a multi-round-trip request's answers and state pass before its params: `inputResponses` bounded,
 * and, when the server seals state, `requestState` a string (else the frozen `-32602`) and the arguments it binds
 * not too deep. Returns the envelope that opens and seals the state, `undefined` when the server has none.
 */
function stateEnvelope(
  core: ServerCore,
  method: string,
  params: Record<string, unknown>,
  builtIn: boolean,
): RequestStateEnvelope | undefined {
  checkInputResponses(params.inputResponses);
  const envelope = core.requestState;
  if (envelope === undefined) return undefined;
  if (params.requestState !== undefined && typeof params.requestState !== 'string') {
    core.log.warn(`requestState rejected on ${method}: not a string`);
    throw invalidParams(INVALID_REQUEST_STATE);
  }
  // Sealed state binds the arguments by their canonical JSON (a recursive walk): bound their depth first.
  checkArgumentDepth(builtIn ? params.arguments : params);
  return envelope;
}

/**
 * A built-in method's params as its handler gets them: checked against the method's schema, the cursor of a
 * paginated one unwrapped (a copy then). `-32602` when either fails.
 */
function builtInParams(
  spec: MethodSpec,
  method: string,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const check = safeParse(spec.params, params);
  if (!check.success) throw invalidParams(`Invalid params: ${describeIssues(check.error.issues)}`);
  // The schema checked that a cursor is a string.
  if (!spec.paginated || typeof params.cursor !== 'string') return params;
  const inner = unwrapCursor(method, params.cursor);
  if (inner === undefined) throw invalidParams('Invalid cursor');
  return { ...params, cursor: inner };
}

/** The handler's `ctx` for `request` (and the function that ends it once the request is answered). */
function contextOf(
  core: ServerCore,
  request: JSONRPCRequest,
  hctx: HandleContext,
  options: ServeOptions,
  cancel: Cancellation,
  meta: RequestMeta,
  inputResponses: unknown,
  requestState: string | undefined,
): { ctx: RequestContext; end(): void } {
  return createRequestContext({
    requestId: request.id,
    method: request.method,
    cancel,
    protocolVersion: options.protocolVersion ?? meta.protocolVersion,
    clientCapabilities: meta.clientCapabilities,
    clientInfo: meta.clientInfo,
    meta: meta.all,
    logLevel: meta.logLevel,
    progressToken: meta.progressToken,
    auth: hctx.auth,
    inputResponses: inputResponses as InputResponses | undefined, // checked with the params
    requestState,
    loggingEnabled: core.capabilities().logging !== undefined,
    notify: hctx.notify,
    warn: core.log.warn,
  });
}

/**
 * The two built-in methods without a handler: `server/discover`, and `subscriptions/listen` (its stream kept in
 * `core.listening` until it ends).
 */
function answerItself(
  core: ServerCore,
  request: JSONRPCRequest,
  ctx: RequestContext,
  hctx: HandleContext,
  cancel: Cancellation,
  options: ServeOptions,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  if (request.method !== 'subscriptions/listen') return discoverResult(core);
  // servedHandler answered -32601 already when the server has no notification source.
  const source = core.notifications;
  if (source === undefined) throw notFound(request.method);
  return track(
    core.listening,
    serveListen({
      source,
      capabilities: currentCapabilities(core),
      requestId: request.id,
      filter: (request.params as SubscriptionsListenRequestParams).notifications,
      extensions: core.subscriptions,
      ctx,
      notify: hctx.notify,
      signal: cancel.signal,
      ending: options.ending === undefined ? [core.closing] : [core.closing, options.ending],
      warn: core.log.warn,
    }),
  );
}

/**
 * The handler serving a built-in method, `undefined` for the two the server answers itself; `-32601` when the
 * server does not serve it now: no handler, its feature absent from the capabilities in force, or
 * `subscriptions/listen` without a notification source.
 */
function servedHandler(
  core: ServerCore,
  spec: MethodSpec,
  method: string,
): Handler<unknown, unknown> | undefined {
  if (spec.handler === undefined) {
    if (method === 'subscriptions/listen' && core.notifications === undefined) throw notFound(method);
    return undefined;
  }
  const handler = core.handlers[spec.handler] as Handler<unknown, unknown> | undefined;
  if (handler === undefined || core.capabilities()[spec.feature as string] === undefined)
    throw notFound(method);
  return handler;
}

/**
 * A custom method's own params: the request's params without `_meta` and, on a multi-round-trip method,
 * without `inputResponses` and `requestState` (checked here: they reach the handler through `ctx`). Throws the
 * `-32602` for a malformed `_meta` or `inputResponses`.
 */
function ownParams(params: Record<string, unknown>, inputRequired: boolean): Record<string, unknown> {
  const issues = metaIssues(params, inputRequired);
  if (issues !== undefined) throw invalidParams(`Invalid params: ${describeIssues(issues)}`);
  const own: Record<string, unknown> = {};
  for (const key of Object.keys(params)) {
    if (key === '_meta' || (inputRequired && (key === 'inputResponses' || key === 'requestState'))) continue;
    Object.defineProperty(own, key, {
      value: params[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return own;
}

function metaIssues(
  params: Record<string, unknown>,
  inputRequired: boolean,
): readonly SchemaIssue[] | undefined {
  const meta = safeParse(RequestParamsSchema, params);
  if (!meta.success) return meta.error.issues;
  if (!inputRequired) return undefined;
  const { inputResponses, requestState } = params;
  if (inputResponses !== undefined && !isPlainObject(inputResponses)) {
    const message = `Invalid input: expected record, received ${describeType(inputResponses)}`;
    return [{ path: ['inputResponses'], message }];
  }
  if (requestState !== undefined && typeof requestState !== 'string') {
    return [
      { path: ['requestState'], message: `Invalid input: expected string, received ${typeof requestState}` },
    ];
  }
  return undefined;
}

/** The request `_meta` members the server reads. */
interface RequestMeta {
  /** The whole `_meta`, as sent. */
  all: Readonly<Record<string, unknown>>;
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  logLevel: LoggingLevel | undefined;
  progressToken: ProgressToken | undefined;
}

/**
 * Checks the required `_meta` members in the order that gives the most useful answer: params and `_meta`
 * present (`-32602`), protocol version present (`-32602`) and supported (`-32022`: checked before the rest,
 * whose shape a future revision may change), client capabilities present (`-32602`), log level valid
 * (`-32602`). The rest of `_meta` is checked by the method's params schema.
 */
function readMeta(params: unknown): RequestMeta {
  if (!isPlainObject(params) || !isPlainObject(params._meta)) {
    throw invalidParams(
      `Missing params._meta: every request carries "${MetaKey.protocolVersion}" and "${MetaKey.clientCapabilities}"`,
    );
  }
  const meta = params._meta;
  const version = meta[MetaKey.protocolVersion];
  if (typeof version !== 'string') {
    throw invalidParams(`Missing or invalid _meta["${MetaKey.protocolVersion}"]: expected a string`);
  }
  if (!SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    throw McpError.unsupportedProtocolVersion(version, SUPPORTED_PROTOCOL_VERSIONS);
  }
  const clientCapabilities = meta[MetaKey.clientCapabilities];
  if (!isPlainObject(clientCapabilities)) {
    throw invalidParams(
      `Missing or invalid _meta["${MetaKey.clientCapabilities}"]: expected an object ({} declares none)`,
    );
  }
  const logLevel = meta[MetaKey.logLevel];
  if (logLevel !== undefined && !isLoggingLevel(logLevel)) {
    throw invalidParams(`Invalid _meta["${MetaKey.logLevel}"]: expected a logging level`);
  }
  return {
    all: meta,
    protocolVersion: version,
    clientCapabilities: clientCapabilities as ClientCapabilities,
    clientInfo: meta[MetaKey.clientInfo] as Implementation | undefined,
    logLevel,
    progressToken: meta[MetaKey.progressToken] as ProgressToken | undefined,
  };
}

/**
 * Opens inbound state (synchronously when the envelope does, as `sealed()` does), or takes what the middleware
 * path opened already (`early`); any failure is the one frozen `-32602`, with the real reason in the log.
 */
function openState(
  core: ServerCore,
  envelope: RequestStateEnvelope,
  token: string,
  binding: RequestStateBinding,
  early: EarlyState | undefined,
): string | OpenedState | Promise<string | OpenedState> {
  if (early !== undefined) return openedEarly(core, early, binding.method);
  const reject = (error: unknown): never => refuseState(core, binding.method, error);
  let opened: string | OpenedState | Promise<string | OpenedState>;
  try {
    opened = envelope.open(token, binding);
  } catch (error) {
    return reject(error);
  }
  return isThenable(opened) ? Promise.resolve(opened).then(undefined, reject) : opened;
}

/** The state the middleware path opened already, or the frozen `-32602` for why it did not. */
function openedEarly(core: ServerCore, early: EarlyState, method: string): string | OpenedState {
  if ('value' in early.opened) return early.opened.value;
  return refuseState(core, method, early.opened.error);
}

function refuseState(core: ServerCore, method: string, error: unknown): never {
  core.log.warn(`requestState rejected on ${method}: ${reasonOf(error)}`);
  throw invalidParams(INVALID_REQUEST_STATE);
}

/** The servers that already warned about an `AuthInfo` without identity. */
const warnedNoIdentity = new WeakSet<ServerCore>();

/**
 * Warns once per server that `auth` names no clientId, issuer or subject: `sealed()` then binds state to the
 * token itself, or (no token either) fails closed, instead of binding every caller to one empty principal.
 */
function warnIfNoIdentity(core: ServerCore, auth: AuthInfo | undefined): void {
  if (auth === undefined || warnedNoIdentity.has(core)) return;
  const principal = principalOf(auth);
  if (Array.isArray(principal)) return; // an identity
  warnedNoIdentity.add(core);
  core.log.warn(
    principal === undefined
      ? 'ctx.auth names no clientId, issuer, subject or token: sealed requestState fails closed for it (-32603); have the verifier return an identity'
      : 'ctx.auth names no clientId, issuer or subject: sealed requestState is bound to the token itself (a refreshed token breaks rounds in flight); have the verifier return an identity',
  );
}

/** The request a `requestState` belongs to: method, name or URI, arguments, principal. */
function bindingOf(
  method: string,
  params: Record<string, unknown>,
  auth: AuthInfo | undefined,
): RequestStateBinding {
  const isRead = method === 'resources/read';
  const target = isRead ? params.uri : params.name;
  const args = isRead ? undefined : params.arguments;
  return {
    method,
    target: typeof target === 'string' ? target : '',
    arguments: isPlainObject(args) ? args : undefined,
    auth,
  };
}

/** Keeps `promise` in `set` until it settles. */
function track<T>(set: Set<Promise<unknown>>, promise: Promise<T>): Promise<T> {
  set.add(promise);
  const forget = () => void set.delete(promise);
  promise.then(forget, forget);
  return promise;
}

/** Resolves to the handler's value, or to {@link ABORTED} as soon as the request is cancelled (the value is dropped). */
function untilAborted<T>(
  value: T | Promise<T>,
  cancel: Cancellation,
): T | typeof ABORTED | Promise<T | typeof ABORTED> {
  if (cancel.aborted) return ABORTED;
  if (!isThenable(value)) return value;
  return new Promise((resolve, reject) => {
    const unsubscribe = cancel.onAbort(() => resolve(ABORTED));
    Promise.resolve(value).then(
      (settled) => {
        unsubscribe();
        resolve(settled);
      },
      (error: unknown) => {
        unsubscribe();
        reject(error);
      },
    );
  });
}

/** `-32601` for a method the server does not serve (unknown, or its handler was not given). */
function notFound(method: string): McpError {
  return new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
}

/**
 * `initialize`: this server has no handshake. A modern request (protocol version in `_meta`) gets `-32601`; a
 * legacy client gets `-32022` naming the supported versions,
 * so a legacy client has something actionable to show (spec: a modern-only server SHOULD name them).
 */
function initializeError(params: unknown): McpError {
  // A modern request (version in `_meta`) asked for a method 2026-07-28 does not have: -32601 (HTTP 404).
  const meta = isPlainObject(params) && isPlainObject(params._meta) ? params._meta : undefined;
  if (meta !== undefined && typeof meta[MetaKey.protocolVersion] === 'string') {
    const message = 'Method not found: initialize (2026-07-28 has no handshake)';
    return new McpError(ErrorCode.MethodNotFound, message, { supported: [...SUPPORTED_PROTOCOL_VERSIONS] });
  }
  const requested = isPlainObject(params) ? params.protocolVersion : undefined;
  const { code, data } = McpError.unsupportedProtocolVersion(
    typeof requested === 'string' ? requested : 'unknown',
    SUPPORTED_PROTOCOL_VERSIONS,
  );
  const versions = SUPPORTED_PROTOCOL_VERSIONS.join(', ');
  return new McpError(
    code,
    `Unsupported protocol version: this server speaks ${versions} (no initialize)`,
    data,
  );
}

/** An `McpError` is sent as is; anything else is logged and answered `-32603 Internal error`. */
function errorResponse(core: ServerCore, request: JSONRPCRequest, error: unknown): JSONRPCResponse {
  if (error instanceof McpError) {
    try {
      return jsonRpcError(request.id, error);
    } catch (invalid) {
      error = invalid;
    }
  }
  core.log.error(`internal error on ${request.method} (request ${String(request.id)})`, { error });
  return jsonRpcError(request.id, { code: ErrorCode.InternalError, message: 'Internal error' });
}
