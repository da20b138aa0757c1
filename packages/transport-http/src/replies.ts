// The answers the endpoint writes: a plain reply (status, headers, JSON text) that every runtime writes cheaply,
// or a web `Response` (an event stream); the HTTP status of a JSON-RPC response; transport-level refusals.
import { ErrorCode, type JSONRPCErrorResponse, type JSONRPCResponse } from '@boomerang/protocol';
import { jsonRpcError } from '@boomerang/protocol/transport';

const JSON_HEADERS = { 'content-type': 'application/json' } as const;

/** @internal A complete answer without a stream: what nearly every exchange gets, cheap to write on any runtime. */
export interface PlainReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body text (JSON), or `null` for none. */
  readonly body: string | null;
}

/** @internal The answer to one exchange: a plain reply, or a `Response` (an event stream, `authenticate`'s own). */
export type Reply = PlainReply | Response;

/**
 * @internal True for a web `Response`. A plain reply (always an object literal) is told apart without touching the
 * `Response` global: its first use loads node's fetch implementation, about 6 MB of memory that a server answering
 * plain replies through `listen()` never needs.
 */
export function isResponse(reply: Reply): reply is Response {
  return Object.getPrototypeOf(reply) !== Object.prototype && reply instanceof Response;
}

/** @internal A plain reply as a web `Response`; a `Response` as is. */
export function toResponse(reply: Reply): Response {
  if (isResponse(reply)) return reply;
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}

/**
 * The HTTP status of a JSON response (DESIGN, Decisions): 400 for `-32700`, `-32600`, `-32602` (missing
 * `_meta`, invalid requestState, bad params) and `-32020`/`-32021`/`-32022`; 404 for `-32601`; 429 for `-32029`
 * (a rate limit, with {@link headersOf}'s `Retry-After`); 200 otherwise.
 */
export function statusOf(response: JSONRPCResponse): number {
  if (!('error' in response)) return 200;
  switch ((response as JSONRPCErrorResponse).error.code) {
    case ErrorCode.MethodNotFound:
      return 404;
    case ErrorCode.RateLimited:
      return 429;
    case ErrorCode.ParseError:
    case ErrorCode.InvalidRequest:
    case ErrorCode.InvalidParams:
    case ErrorCode.HeaderMismatch:
    case ErrorCode.MissingRequiredClientCapability:
    case ErrorCode.UnsupportedProtocolVersion:
      return 400;
    default:
      return 200;
  }
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** The longest `Retry-After` sent, in seconds (a day): a longer wait is said as a day. */
export const MAX_RETRY_AFTER_SECONDS = 86_400;

/**
 * The headers a JSON response adds besides its content type: `Retry-After` (whole seconds, rounded up, at most
 * {@link MAX_RETRY_AFTER_SECONDS}) for a rate-limited request whose error says when (`data.retryAfterMs`).
 */
export function headersOf(response: JSONRPCResponse): Readonly<Record<string, string>> {
  if (!('error' in response)) return NO_HEADERS;
  const { code, data } = (response as JSONRPCErrorResponse).error;
  if (code !== ErrorCode.RateLimited || typeof data !== 'object' || data === null) return NO_HEADERS;
  const ms = (data as { retryAfterMs?: unknown }).retryAfterMs;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return NO_HEADERS;
  const seconds = Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(ms / 1000)));
  return { 'retry-after': String(seconds) };
}

export function json(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = NO_HEADERS,
): PlainReply {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/** A transport-level refusal: the status and an id-less JSON-RPC error saying why. */
export function refuse(
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code: number = ErrorCode.InvalidRequest,
): PlainReply {
  return json(status, jsonRpcError(undefined, { code, message }), headers);
}

/** @internal The refusal `listen` uses for its own Host/Origin check, identical to the handler's. */
export const forbidden = (message: string): Response => toResponse(refuse(403, message));
