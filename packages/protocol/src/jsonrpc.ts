import { ErrorCode, type JsonRpcErrorObject, McpError } from './errors.js';
import { argumentError } from './guards.js';
import type {
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResultResponse,
  RequestId,
  Result,
} from './schema/index.js';

/** The four JSON-RPC message kinds of MCP 2026-07-28 (batches do not exist in this revision). */
export type JSONRPCMessageKind = 'request' | 'notification' | 'result' | 'error';

/**
 * What {@link parseMessage} returns: the message and its kind (found by the envelope check, so a caller never
 * classifies it again), or the JSON-RPC error response to answer with. A plain discriminated union instead of an
 * exception, so that a transport's read loop never needs a `try`.
 */
export type ParseMessageResult =
  | { readonly ok: true; readonly message: JSONRPCMessage; readonly kind: JSONRPCMessageKind }
  | { readonly ok: false; readonly error: JSONRPCErrorResponse };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads one JSON-RPC 2.0 message off the wire and checks **only its envelope**:
 *
 * - request: `jsonrpc: "2.0"`, `id` (string or safe integer; never `null` in MCP), `method` (string),
 *   optional `params` (plain object);
 * - notification: the same without `id`;
 * - result response: `id` + `result` (plain object; `resultType` is not checked here: the client normalises it);
 * - error response: optional `id` + `error: { code: integer, message: string, data? }`. An `id: null` (what plain
 *   JSON-RPC peers send when they could not read the id) is accepted and dropped from the returned message, since
 *   MCP's `JSONRPCErrorResponse` has `id?: RequestId`.
 *
 * Method params are deliberately not validated: that is the server's `-32602`, with the method's own schema.
 * Extra top-level members are kept as they are.
 *
 * Input may be text, UTF-8 bytes (invalid UTF-8 is a parse error) or an already-parsed value (e.g. from
 * `Request.json()`). Returns `{ ok: false, error }` with `-32700` for text that is not JSON and `-32600` for a JSON
 * value that is not a JSON-RPC message (arrays included: batches are not part of 2026-07-28). The error echoes
 * the message's `id` when a valid one can be read, and omits `id` otherwise (MCP's schema allows no `null`).
 *
 * Never throws on input from the wire and never mutates its input or any prototype: `JSON.parse` defines
 * `__proto__` as an own data property, and only own properties of plain objects are read. No size limit is
 * applied here; transports bound their input before calling this.
 */
export function parseMessage(input: string | Uint8Array | unknown): ParseMessageResult {
  let value: unknown = input;
  if (typeof input === 'string' || input instanceof Uint8Array) {
    try {
      value = JSON.parse(typeof input === 'string' ? input : utf8.decode(input));
    } catch {
      return {
        ok: false,
        error: { jsonrpc: '2.0', error: { code: ErrorCode.ParseError, message: 'Parse error' } },
      };
    }
  }
  try {
    const kind = classify(value);
    if (typeof kind === 'string') {
      if (kind === 'error' && isPlainObject(value) && value.id === null) {
        // Rest properties are defined as data properties, so an own `__proto__` member stays a plain member.
        const { id: _null, ...message } = value;
        return { ok: true, message: message as JSONRPCErrorResponse, kind };
      }
      return { ok: true, message: value as JSONRPCMessage, kind };
    }
    return { ok: false, error: invalidRequest(value, kind.problem) };
  } catch {
    // Only reachable for exotic non-wire values (a proxy or getter that throws).
    return { ok: false, error: invalidRequest(undefined, 'unreadable value') };
  }
}

/**
 * The kind of a JSON-RPC message whose envelope is valid, or `undefined`. Unlike {@link parseMessage} this is
 * exact: an error response with `id: null` is not a {@link JSONRPCErrorResponse}, so it yields `undefined`.
 */
export function messageKind(value: unknown): JSONRPCMessageKind | undefined {
  try {
    const kind = classify(value);
    if (typeof kind !== 'string') return undefined;
    if (kind === 'error' && isPlainObject(value) && Object.hasOwn(value, 'id') && !isRequestId(value.id)) {
      return undefined;
    }
    return kind;
  } catch {
    return undefined;
  }
}

/** True when `value` is a JSON-RPC request envelope (`id` + `method`). Params are not checked. */
export function isJSONRPCRequest(value: unknown): value is JSONRPCRequest {
  return messageKind(value) === 'request';
}

/** True when `value` is a JSON-RPC notification envelope (`method`, no `id`). Params are not checked. */
export function isJSONRPCNotification(value: unknown): value is JSONRPCNotification {
  return messageKind(value) === 'notification';
}

/** True when `value` is a JSON-RPC result response envelope (`id` + `result` object). */
export function isJSONRPCResultResponse(value: unknown): value is JSONRPCResultResponse {
  return messageKind(value) === 'result';
}

/** True when `value` is a JSON-RPC error response envelope (optional `id` + `error { code, message }`). */
export function isJSONRPCErrorResponse(value: unknown): value is JSONRPCErrorResponse {
  return messageKind(value) === 'error';
}

/**
 * Builds `{ jsonrpc: "2.0", id, result }`. The result is sent as given: stamping `resultType` is the caller's job
 * (the server does it for every result). Throws `TypeError` for an invalid `id` or a non-object `result`.
 */
export function jsonRpcResult(id: RequestId, result: Result): JSONRPCResultResponse {
  if (!isRequestId(id)) throw argumentError('id', 'string or safe integer', id);
  if (!isPlainObject(result)) throw argumentError('result', 'plain object', result);
  return { jsonrpc: '2.0', id, result };
}

/**
 * Builds `{ jsonrpc: "2.0", id?, error }` from an {@link McpError} (its `cause` is never sent) or a
 * `{ code, message, data? }` object (copied member by member, so nothing else leaks onto the wire). `id` is
 * omitted when `undefined` or `null`: when the request's id could not be read. Throws `TypeError` for an invalid
 * id, a non-integer code or a non-string message.
 */
export function jsonRpcError(
  id: RequestId | null | undefined,
  error: McpError | JsonRpcErrorObject,
): JSONRPCErrorResponse {
  if (id !== undefined && id !== null && !isRequestId(id)) {
    throw argumentError('id', 'string or safe integer', id);
  }
  const body = error instanceof McpError ? error.toJSON() : error;
  if (!isPlainObject(body)) throw argumentError('error', 'McpError or { code, message }', body);
  if (!Number.isSafeInteger(body.code)) throw argumentError('error.code', 'integer', body.code);
  if (typeof body.message !== 'string') throw argumentError('error.message', 'string', body.message);
  const wire =
    body.data === undefined
      ? { code: body.code, message: body.message }
      : { code: body.code, message: body.message, data: body.data };
  return id === undefined || id === null
    ? { jsonrpc: '2.0', error: wire }
    : { jsonrpc: '2.0', id, error: wire };
}

/**
 * True for a valid MCP request id: a string, or an integer that a JSON number represents exactly. Larger integers
 * are refused because `JSON.parse` rounds them, so echoing one would answer a different id.
 */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

/**
 * True for a JSON object as `JSON.parse` makes it, or an object literal: prototype `Object.prototype` or `null`;
 * never an array, a class instance or `null`. The one plain-object check every Boomerang package uses on input.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

type Classified = JSONRPCMessageKind | { problem: string };

const has = (object: object, key: string): boolean => Object.hasOwn(object, key);

/** Envelope check by hand: only own members of a plain object are read. */
function classify(value: unknown): Classified {
  if (Array.isArray(value)) return { problem: 'batches are not supported' };
  if (!isPlainObject(value)) return { problem: 'expected a JSON object' };
  if (value.jsonrpc !== '2.0' || !has(value, 'jsonrpc')) return { problem: '"jsonrpc" must be "2.0"' };
  const hasId = has(value, 'id');
  if (has(value, 'method')) {
    if (typeof value.method !== 'string') return { problem: '"method" must be a string' };
    if (has(value, 'result') || has(value, 'error'))
      return { problem: 'a request has no "result" or "error"' };
    if (has(value, 'params') && !isPlainObject(value.params))
      return { problem: '"params" must be an object' };
    if (!hasId) return 'notification';
    return isRequestId(value.id) ? 'request' : { problem: '"id" must be a string or an integer' };
  }
  if (has(value, 'result')) {
    if (has(value, 'error')) return { problem: 'a response has "result" or "error", not both' };
    if (!hasId || !isRequestId(value.id)) return { problem: '"id" must be a string or an integer' };
    return isPlainObject(value.result) ? 'result' : { problem: '"result" must be an object' };
  }
  if (has(value, 'error')) {
    if (hasId && value.id !== null && !isRequestId(value.id)) {
      return { problem: '"id" must be a string or an integer' };
    }
    const error = value.error;
    if (!isPlainObject(error)) return { problem: '"error" must be an object' };
    if (!has(error, 'code') || !Number.isSafeInteger(error.code)) {
      return { problem: '"error.code" must be an integer' };
    }
    return has(error, 'message') && typeof error.message === 'string'
      ? 'error'
      : { problem: '"error.message" must be a string' };
  }
  return { problem: 'expected "method", "result" or "error"' };
}

/** `-32600` for `value`, echoing its id only when it is a valid one. */
function invalidRequest(value: unknown, problem: string): JSONRPCErrorResponse {
  let id: RequestId | undefined;
  try {
    if (isPlainObject(value) && has(value, 'id') && isRequestId(value.id)) id = value.id;
  } catch {
    id = undefined;
  }
  const error = { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${problem}` };
  return id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };
}
