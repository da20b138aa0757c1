// The 2026-07-28 endpoint: every message its own POST, checked, handed to the handler, answered in JSON or SSE.
// An older era plugs in at one seam (`EndpointEra`), which sees only the exchanges that are not 2026-07-28.
import { ErrorCode, isThenable, type JSONRPCNotification, type JSONRPCRequest } from '@boomerang/protocol';
import { consoleLogger } from '@boomerang/protocol/internal';
import { jsonRpcError, type MessageHandler } from '@boomerang/protocol/transport';
import { answer, deliver } from './answer.js';
import type { SessionServer } from './eras.js';
import type { Exchange } from './exchange.js';
import { type HostPolicy, hostPolicyViolation } from './guard.js';
import { HeaderName } from './headers.js';
import { type Admission, type Authenticate, type EndpointEra, Inbound } from './inbound.js';
import { namesProtocolVersion } from './protocol-version.js';
import { json, type Reply, refuse } from './replies.js';
import { type ToolSchemaSource, validateHeaders } from './validate.js';

/**
 * What the endpoint serves (`createHttpHandler`, and `listen` and `toNodeHandler` of
 * `@boomerang/transport-http/node`): a `MessageHandler` (`Server`, `McpServer`), and what HTTP reads of it beside
 * `handle` when it has it: `toolSchema` for the `Mcp-Param-*` header checks, and `connect` to serve each
 * 2025-11-25 session as one stream connection. `Server` and `McpServer` fit it as they are.
 */
export interface HttpMessageHandler extends MessageHandler, SessionServer {
  /**
   * The published `inputSchema` of the tool `name` (as `tools/list` shows it), or `undefined` when no such tool
   * is registered. A handler that can describe its tools implements it (`McpServer` does) so that the endpoint
   * validates `Mcp-Param-*` headers against the tool's `x-mcp-header` declarations without being given the tool
   * list. Called once per `tools/call`, so it should be a cheap lookup; it must not throw.
   */
  toolSchema?(name: string): { readonly inputSchema: Record<string, unknown> } | undefined;
}

/** Options of the 2026-07-28 endpoint (see `HttpHandlerOptions`, which adds the 2025-11-25 era's). */
export interface EndpointOptions extends HostPolicy {
  /**
   * Authenticates every request before its body is read. Return the principal (it reaches the handler as
   * `ctx.auth` and binds sealed request state), `undefined` for an anonymous request, or a `Response` to send
   * as is (401 with `WWW-Authenticate: Bearer resource_metadata=…`, 403 `insufficient_scope`).
   */
  readonly authenticate?: Authenticate | undefined;
  /** Largest accepted body in bytes (default 4 MiB); larger ones get 413 without being read further. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * Where the `x-mcp-header` declarations of tools come from, to validate `Mcp-Param-*` headers of `tools/call`
   * against the body: the tool list, or a lookup by name (sync or async). Without it, the handler's own
   * `toolSchema(name)` ({@link HttpMessageHandler.toolSchema}) is used when it has one (`McpServer` does); otherwise
   * `Mcp-Param-*` headers are not checked (the standard headers always are).
   */
  readonly tools?: ToolSchemaSource | undefined;
  /** Receives errors that never reach the wire (a handler or `authenticate` that threw). Default `console.error`. */
  readonly onError?: ((error: unknown) => void) | undefined;
}

/** @internal An endpoint: an exchange in, its answer out; `close()` ends what its era keeps. */
export interface Endpoint {
  (exchange: Exchange): Promise<Reply>;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

/** @internal Where errors that never reach the wire go when `onError` is not given. */
export const logError = (error: unknown): void => consoleLogger.error('an HTTP request failed', { error });

/**
 * @internal The 2026-07-28 endpoint serving `handler`, with `era` at its seam. Every exchange is first held
 * against the Host/Origin allow-lists (403); a POST's message is received (see {@link Inbound.receive}); what
 * is not 2026-07-28 then goes to the era (see {@link EndpointEra}). The pipeline refuses anything but POST (405,
 * `Allow: POST`), authenticates, refuses what is not one request or notification (400 `-32600`) and
 * request-metadata headers that are missing or disagree with the body (400 `-32020`), and hands the message to
 * the handler: a notification answers 202, a request JSON or an event stream (see `answer`).
 * Throws `TypeError` for a `handler` without `handle`, `RangeError` for a bad `maxBodyBytes`.
 */
export function createEndpoint(
  handler: HttpMessageHandler,
  options: EndpointOptions = {},
  era?: EndpointEra,
): Endpoint {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  if (!Number.isSafeInteger(maxBody) || maxBody < 0) {
    throw new RangeError(`"maxBodyBytes" expected a non-negative integer, got ${String(maxBody)}`);
  }
  if (typeof handler?.handle !== 'function') {
    throw new TypeError('"handler" expected a MessageHandler (an object with handle(message, ctx))');
  }
  const onError = options.onError ?? logError;
  const tools = options.tools ?? toolSchemasOf(handler);
  const admission: Admission = { authenticate: options.authenticate, maxBody, onError };

  const pipeline = async (inbound: Inbound): Promise<Reply> => {
    const { exchange } = inbound;
    if (exchange.method !== 'POST') return refuse(405, 'Method not allowed: use POST', { allow: 'POST' });
    const received = inbound.received ?? (await inbound.receive());
    if (!received.ok) return received.reply;
    const { message, kind, auth } = received;
    if (kind !== 'request' && kind !== 'notification') {
      return refuse(400, 'Invalid Request: the body must be a JSON-RPC request or notification');
    }
    const id = kind === 'request' ? (message as JSONRPCRequest).id : undefined;
    let mismatch: string | undefined;
    try {
      // Synchronous unless the tool lookup is asynchronous: a request costs no turn for its header check.
      const checked = validateHeaders(exchange.headers, message as JSONRPCRequest, kind, tools);
      mismatch = isThenable(checked) ? await checked : checked;
    } catch (error) {
      onError(error); // the `tools` lookup (or the handler's `toolSchema`) threw
      return json(500, jsonRpcError(id, { code: ErrorCode.InternalError, message: 'Internal error' }));
    }
    if (mismatch !== undefined) {
      return json(400, jsonRpcError(id, { code: ErrorCode.HeaderMismatch, message: mismatch }));
    }
    return kind === 'request'
      ? answer(handler, message as JSONRPCRequest, exchange, auth, onError)
      : deliver(handler, message as JSONRPCNotification, exchange, auth, onError);
  };

  /** The seam: a POST whose message names its protocol version never reaches the era. */
  const serve =
    era === undefined
      ? pipeline
      : (inbound: Inbound): Promise<Reply> => {
          if (inbound.exchange.method !== 'POST') {
            return inbound.exchange.headers.get(HeaderName.session) === null
              ? pipeline(inbound)
              : era.serve(inbound, pipeline);
          }
          return inbound
            .receive()
            .then((received) =>
              received.ok && !namesProtocolVersion(received.message)
                ? era.serve(inbound, pipeline)
                : pipeline(inbound),
            );
        };
  const endpoint = (exchange: Exchange): Promise<Reply> => {
    const forbidden = hostPolicyViolation(exchange.headers, exchange.url, options);
    if (forbidden !== undefined) return Promise.resolve(refuse(403, forbidden));
    return serve(new Inbound(exchange, admission));
  };
  const close = async (): Promise<void> => {
    await era?.close();
  };
  return Object.assign(endpoint, { close });
}

/**
 * The tool lookup of a handler that describes its tools ({@link HttpMessageHandler.toolSchema}, as `McpServer`
 * does), for when no `tools` option is given; `undefined` when it does not.
 */
function toolSchemasOf(handler: HttpMessageHandler): ToolSchemaSource | undefined {
  if (typeof handler.toolSchema !== 'function') return undefined;
  return (name) => {
    const tool = handler.toolSchema?.(name);
    return tool === undefined ? undefined : { name, inputSchema: tool.inputSchema };
  };
}
