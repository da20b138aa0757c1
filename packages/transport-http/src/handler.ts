import {
  type AuthInfo,
  CancellableHandleContext,
  ErrorCode,
  type HandleContext,
  type JSONRPCErrorResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  jsonRpcError,
  type MessageHandler,
  messageKind,
  parseMessage,
  RequestCancellation,
  type RequestId,
} from '@boomerang/protocol';
import { type BodyResult, readBody } from './body.js';
import { type EventStream, openEventStream } from './event-stream.js';
import { type HeaderReader, type HostPolicy, hostPolicyViolation } from './guard.js';
import {
  isInitialize,
  isModern,
  type LegacyServing,
  type LegacySetting,
  legacyServing,
} from './legacy-http.js';
import { acceptsBoth, isJsonContentType } from './negotiation.js';
import { json, type PlainReply, type Reply, refuse, statusOf, toResponse } from './replies.js';
import { type ToolSchemaSource, validateHeaders } from './validate.js';

/** A web-standard HTTP handler: what Deno, Bun and edge runtimes serve. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** What `createHttpHandler` returns: a {@link FetchHandler} that can end the 2025-11-25 sessions it keeps. */
export interface HttpHandler extends FetchHandler {
  /** Ends every 2025-11-25 session (their requests in flight get an error, their streams close). Idempotent. */
  close(): Promise<void>;
}

/** Options of {@link createHttpHandler}. */
export interface HttpHandlerOptions extends HostPolicy {
  /**
   * Authenticates every request before its body is read. Return the principal (it reaches the handler as
   * `ctx.auth` and binds sealed request state), `undefined` for an anonymous request, or a `Response` to send
   * as is (401 with `WWW-Authenticate: Bearer resource_metadata=…`, 403 `insufficient_scope`).
   */
  readonly authenticate?:
    | ((request: Request) => AuthInfo | Response | undefined | Promise<AuthInfo | Response | undefined>)
    | undefined;
  /** Largest accepted body in bytes (default 4 MiB); larger ones get 413 without being read further. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * Where the `x-mcp-header` declarations of tools come from, to validate `Mcp-Param-*` headers of `tools/call`
   * against the body: the tool list, or a lookup by name (sync or async). Without it, the handler's own
   * `toolSchema(name)` is used when it has one (`McpServer` does); otherwise `Mcp-Param-*` headers are not
   * checked (the standard headers always are).
   */
  readonly tools?: ToolSchemaSource | undefined;
  /** Receives errors that never reach the wire (a handler or `authenticate` that threw). Default `console.error`. */
  readonly onError?: ((error: unknown) => void) | undefined;
  /**
   * 2025-11-25 clients, served beside 2026-07-28 ones on the same endpoint when the handler implements `connect`
   * (`Server` and `McpServer` do). On by default (`true`, or settings): an `initialize` POST opens a session
   * (`Mcp-Session-Id` in its answer) served as one stream connection of the handler, so the session's
   * server→client requests (a resolver's elicitation, sampling, roots) travel on the event stream of the POST
   * that caused them and the client's answers come back as POSTs; `GET` opens the session's stream for the rest,
   * `DELETE` ends it, an unknown or ended session is 404. Requests without a session id, and any request whose
   * `_meta` names a 2026-07-28 protocol version, keep the modern answers. Sessions live in this process: put
   * several processes behind sticky routing. `false`: 2026-07-28 only (GET/DELETE 405, `Mcp-Session-Id`
   * ignored, `initialize` gets the handler's error naming the supported versions).
   */
  readonly legacy?: LegacySetting;
}

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

/**
 * Serves one `MessageHandler` (a `Server` or `McpServer`) as the MCP endpoint of Streamable HTTP, revision
 * 2026-07-28: web-standard `Request` in, `Response` out, so it runs on Node (see `listen` in
 * `@boomerang/transport-http/node`), Deno, Bun and edge runtimes. One handler instance serves every request;
 * nothing is kept between requests (no sessions).
 *
 * In order, a request is refused with:
 * - 403 when `Host` / `Origin` fail the allow-lists (DNS-rebinding protection);
 * - 405 (`Allow: POST`) for any method but POST (`Mcp-Session-Id` and `Last-Event-ID` are ignored);
 * - whatever `authenticate` returns as a `Response`;
 * - 415 unless `Content-Type` is `application/json`; 406 unless `Accept` allows both `application/json` and
 *   `text/event-stream` (wildcards count);
 * - 413 for a body over `maxBodyBytes` (checked while it streams in);
 * - 400 with `-32700` / `-32600` for a body that is not JSON / not one JSON-RPC request or notification;
 * - 400 with `-32020` when `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` or a declared `Mcp-Param-*` header
 *   is missing, malformed or disagrees with the body (Base64-sentinel values decoded first).
 *
 * Transport-level refusals carry an id-less JSON-RPC error body (`-32600`, the message saying why). Then the
 * message goes to `handler.handle(message, { signal, auth, notify })`: a notification answers 202 with no body;
 * a request answers `application/json` with status 400 for `-32602` and `-32020`/`-32021`/`-32022`, 404 for
 * `-32601`, 200 otherwise; unless the handler calls `ctx.notify` (progress, log) before its response: the first
 * notification switches the answer to a 200 `text/event-stream` carrying the notifications in order and the
 * response as its last event. `ctx.signal` aborts when the client goes away (`request.signal`) or cancels the
 * event stream: that is cancellation in 2026-07-28.
 */
export function createHttpHandler(handler: MessageHandler, options: HttpHandlerOptions = {}): HttpHandler {
  const endpoint = createEndpoint(handler, options);
  const fetch = (request: Request) => endpoint(webExchange(request)).then(toResponse);
  return Object.assign(fetch, { close: endpoint.close });
}

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

export { forbidden } from './replies.js';
export type { PlainReply, Reply };
export { statusOf, toResponse };

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

/** @internal The endpoint behind `createHttpHandler` and `listen`, and how to end its sessions. */
export interface Endpoint {
  (exchange: Exchange): Promise<Reply>;
  /** Ends every 2025-11-25 session. */
  close(): Promise<void>;
}

/**
 * @internal The endpoint behind {@link createHttpHandler} and `listen`: the checks and the dispatch of
 * `createHttpHandler`'s documentation, over an {@link Exchange}.
 */
export function createEndpoint(handler: MessageHandler, options: HttpHandlerOptions = {}): Endpoint {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  if (!Number.isSafeInteger(maxBody) || maxBody < 0) {
    throw new RangeError(`"maxBodyBytes" expected a non-negative integer, got ${String(maxBody)}`);
  }
  if (typeof handler?.handle !== 'function') {
    throw new TypeError('"handler" expected a MessageHandler (an object with handle(message, ctx))');
  }
  const onError = options.onError ?? ((error: unknown) => console.error('[transport-http]', error));
  const tools = options.tools ?? toolSchemasOf(handler);
  const legacy = legacyServing(handler, options.legacy, onError);

  const endpoint = async (exchange: Exchange): Promise<Reply> => {
    const { headers } = exchange;
    const forbidden = hostPolicyViolation(headers, exchange.url, options);
    if (forbidden !== undefined) return refuse(403, forbidden);
    const legacyStream = legacy?.takesStream(exchange) === true;
    if (exchange.method !== 'POST' && !legacyStream) {
      return refuse(405, 'Method not allowed: use POST', { allow: 'POST' });
    }

    let auth: AuthInfo | undefined;
    if (options.authenticate !== undefined) {
      try {
        const outcome = await options.authenticate(exchange.toRequest());
        if (outcome instanceof Response) return outcome;
        auth = outcome;
      } catch (error) {
        onError(error);
        return refuse(500, 'Internal error', {}, ErrorCode.InternalError);
      }
    }
    if (legacyStream) return (legacy as LegacyServing).stream(exchange, auth);

    if (!isJsonContentType(headers.get('content-type'))) {
      return refuse(415, 'Unsupported Media Type: Content-Type must be application/json');
    }
    if (!acceptsBoth(headers.get('accept'))) {
      return refuse(406, 'Not Acceptable: Accept must allow application/json and text/event-stream');
    }
    let body: BodyResult;
    try {
      body = await exchange.readBody(maxBody);
    } catch {
      return refuse(400, 'Bad Request: the body could not be read');
    }
    if (!body.ok) return refuse(413, `Payload Too Large: the body exceeds ${maxBody} bytes`);

    const parsed = parseMessage(body.bytes);
    if (!parsed.ok) return json(400, parsed.error);
    const message = parsed.message;
    const served = legacy?.post(message, exchange, auth);
    if (served !== undefined) return served;
    const kind = messageKind(message);
    if (kind !== 'request' && kind !== 'notification') {
      return refuse(400, 'Invalid Request: the body must be a JSON-RPC request or notification');
    }
    const id = kind === 'request' ? (message as JSONRPCRequest).id : undefined;
    // A 2025-11-25 `initialize` sends none of the 2026-07-28 headers: the handler's answer names the versions.
    if (!(isInitialize(message) && !isModern(message))) {
      let mismatch: string | undefined;
      try {
        mismatch = await validateHeaders(headers, message as JSONRPCRequest, kind, tools);
      } catch (error) {
        onError(error); // the `tools` lookup (or the handler's `toolSchema`) threw
        return json(500, jsonRpcError(id, { code: ErrorCode.InternalError, message: 'Internal error' }));
      }
      if (mismatch !== undefined) {
        return json(400, jsonRpcError(id, { code: ErrorCode.HeaderMismatch, message: mismatch }));
      }
    }

    if (kind === 'notification') {
      await safeHandle(
        handler,
        message as JSONRPCNotification,
        { signal: exchange.signal, ...(auth && { auth }) },
        onError,
      );
      return { status: 202, headers: {}, body: null };
    }
    return answer(handler, message as JSONRPCRequest, exchange, auth, onError);
  };
  return Object.assign(endpoint, { close: async () => legacy?.close() });
}

/**
 * The tool lookup of a handler that describes its tools ({@link MessageHandler.toolSchema}, as `McpServer`
 * does), for when no `tools` option is given; `undefined` when it does not.
 */
function toolSchemasOf(handler: MessageHandler): ToolSchemaSource | undefined {
  if (typeof handler.toolSchema !== 'function') return undefined;
  return (name) => {
    const tool = handler.toolSchema?.(name);
    return tool === undefined ? undefined : { name, inputSchema: tool.inputSchema };
  };
}

/**
 * Runs one request: JSON if the handler answers before notifying, SSE from its first notification on.
 * The handler's signal follows the HTTP request's and the event stream's cancellation.
 */
function answer(
  handler: MessageHandler,
  message: JSONRPCRequest,
  exchange: Exchange,
  auth: AuthInfo | undefined,
  onError: (error: unknown) => void,
): Promise<Reply> {
  // The exchange's own cancellation, or one that follows the request's signal (cheaper than `AbortSignal.any`).
  const owned = exchange.cancellation;
  const cancel = owned ?? new RequestCancellation();
  const requestSignal = owned === undefined ? exchange.signal : undefined;
  const follow = () => cancel.abort(requestSignal?.reason);
  if (requestSignal !== undefined) {
    if (requestSignal.aborted) follow();
    else requestSignal.addEventListener('abort', follow, { once: true });
  }
  let stream: EventStream | undefined;
  let finished = false;

  return new Promise<Reply>((resolve) => {
    const notify = (notification: JSONRPCNotification): void => {
      if (finished || cancel.aborted) return;
      if (stream === undefined) {
        stream = openEventStream((reason) => {
          finished = true;
          cancel.abort(reason);
        });
        resolve(stream.response);
      }
      stream.write(notification);
    };
    const ctx = new CancellableHandleContext(cancel, notify, auth);

    void safeHandle(handler, message, ctx, onError).then((response) => {
      const reply = response ?? cancelled(message.id, cancel.aborted);
      // Through `exchange`, not `requestSignal`: this closure keeps the exchange (and a web `Request` behind it)
      // alive until the handler is done. A `Request` forwards its `init.signal` to its own signal through a weak
      // reference, so a collected `Request` would never tell the handler that its client went away.
      if (owned === undefined) exchange.signal.removeEventListener('abort', follow);
      finished = true;
      if (stream !== undefined) {
        if (!cancel.aborted) stream.write(reply);
        stream.close();
        return;
      }
      resolve(json(statusOf(reply), reply));
    });
  });
}

/** `handler.handle` that never rejects: a throwing handler is its own bug, answered `-32603`. */
async function safeHandle(
  handler: MessageHandler,
  message: JSONRPCRequest | JSONRPCNotification,
  ctx: HandleContext,
  onError: (error: unknown) => void,
): Promise<JSONRPCResponse | undefined> {
  try {
    return await handler.handle(message, ctx);
  } catch (error) {
    onError(error);
    const id = (message as { id?: RequestId }).id;
    return id === undefined
      ? undefined
      : jsonRpcError(id, { code: ErrorCode.InternalError, message: 'Internal error' });
  }
}

/** The answer when the handler dropped a request (its signal aborted): nobody is listening any more. */
function cancelled(id: RequestId, aborted: boolean): JSONRPCErrorResponse {
  const reason = aborted ? 'Request cancelled' : 'Internal error: the handler sent no response';
  return jsonRpcError(id, { code: ErrorCode.InternalError, message: reason });
}
