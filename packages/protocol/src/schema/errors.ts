// JSON-RPC error objects with fixed codes, and the MCP-specific error responses (-32020 … -32022).
import type { z } from 'zod';
import { jsonrpcVersion, RequestIdSchema } from './base.js';
import { ClientCapabilitiesSchema } from './capabilities.js';
import { ErrorSchema } from './jsonrpc.js';
import { lazySchema, zod } from './zod.js';

/** An error object whose `code` is `code`. */
function errorWithCode<const C extends number>(code: C) {
  return ErrorSchema.extend({ code: zod.literal(code) });
}

/** An error response whose `error` is `error`. */
function errorResponse<E extends z.ZodType>(error: E) {
  return zod.looseObject({ jsonrpc: jsonrpcVersion, id: RequestIdSchema.optional(), error });
}

/** `-32700`: the message was not valid JSON. */
export const ParseErrorSchema = lazySchema(() => errorWithCode(-32700));
/** `-32700`: invalid JSON. */
export type ParseError = z.infer<typeof ParseErrorSchema>;

/** `-32600`: valid JSON, but not a JSON-RPC request object (missing `jsonrpc`/`method`, wrong types…). */
export const InvalidRequestErrorSchema = lazySchema(() => errorWithCode(-32600));
/** `-32600`: not a JSON-RPC request. */
export type InvalidRequestError = z.infer<typeof InvalidRequestErrorSchema>;

/** `-32601`: unknown method, or one behind a server capability that was not advertised (HTTP 404). */
export const MethodNotFoundErrorSchema = lazySchema(() => errorWithCode(-32601));
/** `-32601`: method not found. */
export type MethodNotFoundError = z.infer<typeof MethodNotFoundErrorSchema>;

/**
 * `-32602`: invalid params: unknown tool or prompt, bad arguments or cursor, a missing required `_meta`
 * field, an invalid or expired `requestState`.
 */
export const InvalidParamsErrorSchema = lazySchema(() => errorWithCode(-32602));
/** `-32602`: invalid params. */
export type InvalidParamsError = z.infer<typeof InvalidParamsErrorSchema>;

/** `-32603`: the receiver failed unexpectedly; carries no internals. */
export const InternalErrorSchema = lazySchema(() => errorWithCode(-32603));
/** `-32603`: internal error. */
export type InternalError = z.infer<typeof InternalErrorSchema>;

/** `-32020` response: an HTTP header disagrees with the body, or a required header is missing (HTTP 400). */
export const HeaderMismatchErrorSchema = lazySchema(() => errorResponse(errorWithCode(-32020)));
/** `-32020` response: header mismatch. */
export type HeaderMismatchError = z.infer<typeof HeaderMismatchErrorSchema>;

/**
 * `-32022` response: the requested protocol version is not supported; `data` lists the `supported` versions
 * to retry with and echoes the `requested` one (HTTP 400).
 */
export const UnsupportedProtocolVersionErrorSchema = lazySchema(() =>
  errorResponse(
    errorWithCode(-32022).extend({
      data: zod.looseObject({
        supported: zod.array(zod.string()),
        requested: zod.string(),
      }),
    }),
  ),
);
/** `-32022` response: unsupported protocol version. */
export type UnsupportedProtocolVersionError = z.infer<typeof UnsupportedProtocolVersionErrorSchema>;

/**
 * `-32021` response: processing needs client capabilities this request did not declare;
 * `data.requiredCapabilities` says which (HTTP 400).
 */
export const MissingRequiredClientCapabilityErrorSchema = lazySchema(() =>
  errorResponse(
    errorWithCode(-32021).extend({
      data: zod.looseObject({ requiredCapabilities: ClientCapabilitiesSchema }),
    }),
  ),
);
/** `-32021` response: missing required client capability. */
export type MissingRequiredClientCapabilityError = z.infer<typeof MissingRequiredClientCapabilityErrorSchema>;
