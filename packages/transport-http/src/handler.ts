// The public server entry: `createHttpHandler`, the 2026-07-28 endpoint with the 2025-11-25 era at its seam.
import {
  createEndpoint,
  type Endpoint,
  type EndpointOptions,
  type HttpMessageHandler,
  logError,
} from './endpoint.js';
import { endpointEra, type LegacyOptions } from './eras.js';
import { webExchange } from './exchange.js';
import { toResponse } from './replies.js';

/** A web-standard HTTP handler: what Deno, Bun and edge runtimes serve. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** What `createHttpHandler` returns: a {@link FetchHandler} that can end the 2025-11-25 sessions it keeps. */
export interface HttpHandler extends FetchHandler {
  /** Ends every 2025-11-25 session (their requests in flight get an error, their streams close). Idempotent. */
  close(): Promise<void>;
}

/** Options of {@link createHttpHandler}: the 2026-07-28 endpoint's, and the 2025-11-25 era's `legacy`. */
export interface HttpHandlerOptions extends EndpointOptions, LegacyOptions {}

/**
 * Serves one {@link HttpMessageHandler} (a `Server` or `McpServer`) as the MCP endpoint of Streamable HTTP, revision
 * 2026-07-28: web-standard `Request` in, `Response` out, so it runs on Node (see `listen` in
 * `@boomerang/transport-http/node`), Deno, Bun and edge runtimes. One handler instance serves every request;
 * nothing is kept between 2026-07-28 requests (2025-11-25 clients get sessions: see `legacy`).
 *
 * In order, a request is refused with:
 * - 403 when `Host` / `Origin` fail the allow-lists (DNS-rebinding protection);
 * - 405 (`Allow: POST`) for any method but POST (a GET or DELETE naming no open 2025-11-25 session;
 *   `Last-Event-ID` is ignored);
 * - whatever `authenticate` returns as a `Response`;
 * - 415 unless `Content-Type` is `application/json`; 406 unless `Accept` allows both `application/json` and
 *   `text/event-stream` (wildcards count);
 * - 413 for a body over `maxBodyBytes` (from `Content-Length` before reading; a body of undeclared length is
 *   counted while it streams in);
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
export function createHttpHandler(
  handler: HttpMessageHandler,
  options: HttpHandlerOptions = {},
): HttpHandler {
  const endpoint = httpEndpoint(handler, options);
  const fetch = (request: Request) => endpoint(webExchange(request)).then(toResponse);
  return Object.assign(fetch, { close: endpoint.close });
}

/**
 * @internal The endpoint behind {@link createHttpHandler} and `listen`: the 2026-07-28 endpoint, with the
 * 2025-11-25 era at its seam.
 */
export function httpEndpoint(handler: HttpMessageHandler, options: HttpHandlerOptions = {}): Endpoint {
  const onError = options.onError ?? logError;
  return createEndpoint(handler, { ...options, onError }, endpointEra(handler, options.legacy, onError));
}
