// Serving one request of a 2025-11-25 session. The session-only methods (initialize, ping, logging/setLevel,
// resources/subscribe and unsubscribe) are answered here; every other request is translated into a 2026-07-28
// one (the session's capabilities, client info and log level become its `_meta`) and served by the modern core
// unchanged, with a context that says "2025-11-25" and carries the back-channel. The answer is then put back
// into the legacy shape.
import {
  describeIssues,
  ErrorCode,
  type InputRequest,
  type InputResponses,
  isPlainObject,
  type JSONRPCRequest,
  type JSONRPCResponse,
  LATEST_PROTOCOL_VERSION,
  McpError,
  MetaKey,
} from '@boomerang/protocol';
import {
  InitializeRequestParamsSchema,
  LEGACY_PROTOCOL_VERSION,
  type ServerCapabilities as LegacyServerCapabilities,
  RESOURCE_NOT_FOUND,
  SetLevelRequestParamsSchema,
  SubscribeRequestParamsSchema,
} from '@boomerang/protocol/2025-11-25';
import { type HandleContext, jsonRpcError } from '@boomerang/protocol/transport';
import type { ServerCore } from '../core.js';
import { currentCapabilities } from '../discover.js';
import { serveOwnRequest, serveRequest } from '../dispatch.js';
import { LegacySession, type SessionSend } from './session.js';

/** The legacy settings of a server, checked (see `ServerOptions.legacy`). */
export interface LegacySettings {
  /** Fulfil a hand-built `InputRequiredResult` through the back-channel instead of answering `-32603`. */
  readonly shim: boolean;
  /** How long one server→client request may wait for its answer. */
  readonly timeoutMs: number;
}

/** How many `InputRequiredResult`s the shim fulfils for one request before answering `-32603`. */
export const SHIM_MAX_ROUNDS = 10;

/** Members of a modern result that a 2025-11-25 client does not know. */
const MODERN_ONLY = ['resultType', 'ttlMs', 'cacheScope'] as const;

/**
 * Answers `initialize`: a new {@link LegacySession} with what the client declared, and the result (the
 * server's 2025-11-25 capabilities, `serverInfo`, `instructions`). This server speaks 2025-11-25 only on this
 * path, so that is the version it answers whatever the client asked (the client disconnects if it cannot).
 */
export function initializeSession(
  core: ServerCore,
  request: JSONRPCRequest,
  send: SessionSend,
  options: LegacySettings,
): { session?: LegacySession; response: JSONRPCResponse } {
  const check = InitializeRequestParamsSchema.safeParse(request.params);
  if (!check.success) {
    const message = `Invalid params: ${describeIssues(check.error.issues)}`;
    return { response: jsonRpcError(request.id, { code: ErrorCode.InvalidParams, message }) };
  }
  const hello = { clientCapabilities: check.data.capabilities, clientInfo: check.data.clientInfo };
  const session = new LegacySession(hello, send, options.timeoutMs);
  const result = {
    protocolVersion: LEGACY_PROTOCOL_VERSION,
    capabilities: legacyCapabilities(core),
    serverInfo: core.info,
    ...(core.instructions === undefined ? {} : { instructions: core.instructions }),
  };
  return { session, response: reply(request.id, result) };
}

/** The server's capabilities as a 2025-11-25 client reads them (change notifications only with a source). */
export function legacyCapabilities(core: ServerCore): LegacyServerCapabilities {
  const modern = currentCapabilities(core) as Record<string, unknown>;
  const caps: Record<string, unknown> = {};
  const pushes = core.notifications !== undefined;
  for (const key of ['tools', 'prompts', 'resources'] as const) {
    if (!isPlainObject(modern[key])) continue;
    const { listChanged, subscribe, ...rest } = modern[key] as Record<string, unknown>;
    caps[key] = {
      ...rest,
      ...(pushes && listChanged === true ? { listChanged: true } : {}),
      ...(pushes && subscribe === true && key === 'resources' ? { subscribe: true } : {}),
    };
  }
  for (const key of ['completions', 'logging', 'experimental'] as const) {
    if (isPlainObject(modern[key])) caps[key] = modern[key];
  }
  return caps as LegacyServerCapabilities;
}

/**
 * Serves one request of an initialized session. Never rejects. A hand-built `InputRequiredResult` is `-32603`
 * (a 2025-11-25 client cannot retry), unless `options.shim`: then its input requests are sent to the client one
 * at a time and the handler is re-entered with the answers and the exact `requestState`, at most
 * {@link SHIM_MAX_ROUNDS} times.
 */
export async function serveLegacyRequest(
  core: ServerCore,
  session: LegacySession,
  request: JSONRPCRequest,
  hctx: HandleContext,
  options: LegacySettings,
  ending?: AbortSignal,
): Promise<JSONRPCResponse | undefined> {
  const { id, method } = request;
  if (SESSION_METHODS.has(method)) {
    const era = { ending, protocolVersion: LEGACY_PROTOCOL_VERSION };
    return serveOwnRequest(core, request, hctx, era, () => serveSessionMethod(core, session, request));
  }
  const signal = hctx.signal;
  const ask = (input: InputRequest) => session.ask(input, id, signal);
  const era = { ending, protocolVersion: LEGACY_PROTOCOL_VERSION };
  const params = isPlainObject(request.params) ? request.params : {};
  let extra: Record<string, unknown> = {};
  for (let round = 0; ; round++) {
    const modern = { ...request, params: { ...modernParams(session, params), ...extra } };
    const response = await serveRequest(core, modern, hctx, era);
    if (response === undefined) return undefined;
    if (!('result' in response)) return legacyError(method, response);
    const result = response.result as Record<string, unknown>;
    if (result.resultType !== 'input_required') return reply(id, legacyResult(result));
    if (!options.shim || round >= SHIM_MAX_ROUNDS) {
      const why = options.shim
        ? `more than ${SHIM_MAX_ROUNDS} rounds`
        : 'a 2025-11-25 client cannot retry it (set legacy: { shim: true } to fulfil it through server→client requests)';
      core.log.error(`the ${method} handler returned an InputRequiredResult on a 2025-11-25 session: ${why}`);
      return jsonRpcError(id, { code: ErrorCode.InternalError, message: 'Internal error' });
    }
    try {
      const inputResponses: InputResponses = {};
      const asks = (result.inputRequests ?? {}) as Record<string, InputRequest>;
      for (const [key, input] of Object.entries(asks)) {
        Object.defineProperty(inputResponses, key, {
          value: await ask(input),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      extra = {
        inputResponses,
        ...(result.requestState === undefined ? {} : { requestState: result.requestState }),
      };
    } catch (error) {
      if (signal?.aborted) return undefined;
      if (error instanceof McpError) return jsonRpcError(id, error);
      core.log.error(`the back-channel failed on ${method} (legacy shim)`, { error });
      return jsonRpcError(id, { code: ErrorCode.InternalError, message: 'Internal error' });
    }
  }
}

/** The methods a 2025-11-25 session answers itself (inside the middleware, as every request). */
const SESSION_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/** Answers one of the {@link SESSION_METHODS}. Never rejects. */
async function serveSessionMethod(
  core: ServerCore,
  session: LegacySession,
  request: JSONRPCRequest,
): Promise<JSONRPCResponse> {
  const { id, method } = request;
  try {
    switch (method) {
      case 'ping':
        return reply(id, {});
      case 'logging/setLevel':
        session.logLevel = parse(SetLevelRequestParamsSchema, request.params).level;
        return reply(id, {});
      case 'resources/subscribe':
      case 'resources/unsubscribe':
        await subscription(core, session, parse(SubscribeRequestParamsSchema, request.params).uri, method);
        return reply(id, {});
      default:
        throw new McpError(ErrorCode.InvalidRequest, 'The session is already initialized');
    }
  } catch (error) {
    if (error instanceof McpError) return jsonRpcError(id, error);
    core.log.error(`internal error on ${method} (legacy session)`, { error });
    return jsonRpcError(id, { code: ErrorCode.InternalError, message: 'Internal error' });
  }
}

/**
 * The request's params with the `_meta` a 2026-07-28 request carries, filled from the session. A 2025-11-25
 * client has no `inputResponses` / `requestState`: members of those names are dropped (only the shim sets them).
 */
function modernParams(session: LegacySession, params: Record<string, unknown>): Record<string, unknown> {
  const { inputResponses: _answers, requestState: _state, ...rest } = params;
  const meta = isPlainObject(rest._meta) ? rest._meta : {};
  return {
    ...rest,
    _meta: {
      ...meta,
      [MetaKey.protocolVersion]: LATEST_PROTOCOL_VERSION,
      [MetaKey.clientCapabilities]: session.clientCapabilities,
      ...(session.clientInfo === undefined ? {} : { [MetaKey.clientInfo]: session.clientInfo }),
      ...(session.logLevel === undefined ? {} : { [MetaKey.logLevel]: session.logLevel }),
    },
  };
}

/** A complete modern result as a 2025-11-25 result: no `resultType`, cache hints or `serverInfo` meta. */
export function legacyResult(result: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...result };
  for (const key of MODERN_ONLY) delete out[key];
  if (isPlainObject(out._meta)) {
    const { [MetaKey.serverInfo]: _info, ...meta } = out._meta;
    if (Object.keys(meta).length === 0) delete out._meta;
    else out._meta = meta;
  }
  return out;
}

/** `resources/read` of an unknown URI is `-32002` in 2025-11-25 (`-32602` with `data.uri` in 2026-07-28). */
function legacyError(method: string, response: JSONRPCResponse): JSONRPCResponse {
  const { error } = response as { error: { code: number; message: string; data?: unknown } };
  const unknownResource =
    method === 'resources/read' &&
    error.code === ErrorCode.InvalidParams &&
    isPlainObject(error.data) &&
    typeof error.data.uri === 'string';
  return unknownResource ? { ...response, error: { ...error, code: RESOURCE_NOT_FOUND } } : response;
}

/** Starts or stops forwarding `notifications/resources/updated` for `uri` to this session. */
async function subscription(
  core: ServerCore,
  session: LegacySession,
  uri: string,
  method: 'resources/subscribe' | 'resources/unsubscribe',
): Promise<void> {
  const source = core.notifications;
  if (source === undefined) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  if (method === 'resources/unsubscribe') {
    session.subscriptions.get(uri)?.();
    session.subscriptions.delete(uri);
    return;
  }
  if (session.subscriptions.has(uri)) return;
  session.subscriptions.set(uri, () => {});
  const stop = await source.subscribe({ resourceSubscriptions: [uri] }, (notification) => {
    if (notification.method === 'notifications/resources/updated' && notification.params?.uri === uri) {
      void session.notify(notification.method, { uri }).catch(() => {});
    }
  });
  if (session.subscriptions.has(uri)) session.subscriptions.set(uri, stop);
  else stop();
}

/** A success response with a 2025-11-25 result (no `resultType`). */
function reply(id: JSONRPCRequest['id'], result: Record<string, unknown>): JSONRPCResponse {
  return { jsonrpc: '2.0', id, result } as JSONRPCResponse;
}

function parse<T>(
  schema: {
    safeParse(
      value: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
  },
  params: unknown,
): T {
  const check = schema.safeParse(params);
  if (!check.success) {
    throw new McpError(ErrorCode.InvalidParams, `Invalid params: ${describeIssues(check.error.issues)}`);
  }
  return check.data;
}
