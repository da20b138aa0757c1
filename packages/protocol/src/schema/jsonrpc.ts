// JSON-RPC 2.0 envelopes and the helpers that build each method's typed request, notification and response.
import type { z } from 'zod';
import { jsonrpcVersion, openObject, RequestIdSchema } from './base.js';
import { PaginatedRequestParamsSchema, ResultSchema } from './meta.js';
import { lazySchema, zod } from './zod.js';

/**
 * The JSON-RPC `error` member: an integer `code`, a one-sentence `message`, optional `data`. Exported from
 * the package as `Error`; inside the SDK it is `ErrorObject` so the global `Error` stays unshadowed.
 */
export const ErrorSchema = lazySchema(() =>
  zod.looseObject({
    code: zod.int(),
    message: zod.string(),
    data: zod.unknown().optional(),
  }),
);
/** The JSON-RPC `error` member (exported from the package as `Error`). */
export type ErrorObject = z.infer<typeof ErrorSchema>;

/** A method call without the envelope: `method` and optional free-form `params`. */
export const RequestSchema = lazySchema(() =>
  zod.looseObject({
    method: zod.string(),
    params: openObject.optional(),
  }),
);
/** A method call without the envelope. */
export type Request = z.infer<typeof RequestSchema>;

/** A notification without the envelope: `method` and optional free-form `params`. */
export const NotificationSchema = lazySchema(() =>
  zod.looseObject({
    method: zod.string(),
    params: openObject.optional(),
  }),
);
/** A notification without the envelope. */
export type Notification = z.infer<typeof NotificationSchema>;

/** A request that expects a response: `jsonrpc: "2.0"`, an `id`, a `method`, optional object `params`. */
export const JSONRPCRequestSchema = lazySchema(() =>
  zod.looseObject({
    jsonrpc: jsonrpcVersion,
    id: RequestIdSchema,
    method: zod.string(),
    params: openObject.optional(),
  }),
);
/** A request that expects a response. */
export type JSONRPCRequest = z.infer<typeof JSONRPCRequestSchema>;

/** A message that expects no response: like a request, without `id`. */
export const JSONRPCNotificationSchema = lazySchema(() =>
  zod.looseObject({
    jsonrpc: jsonrpcVersion,
    method: zod.string(),
    params: openObject.optional(),
  }),
);
/** A message that expects no response. */
export type JSONRPCNotification = z.infer<typeof JSONRPCNotificationSchema>;

/** A successful response: the request's `id` and a `result` (which carries `resultType`). */
export const JSONRPCResultResponseSchema = lazySchema(() =>
  zod.looseObject({
    jsonrpc: jsonrpcVersion,
    id: RequestIdSchema,
    result: ResultSchema,
  }),
);
/** A successful response. */
export type JSONRPCResultResponse = z.infer<typeof JSONRPCResultResponseSchema>;

/** An error response; `id` is absent when the request's id could not be read (e.g. a parse error). */
export const JSONRPCErrorResponseSchema = lazySchema(() =>
  zod.looseObject({
    jsonrpc: jsonrpcVersion,
    id: RequestIdSchema.optional(),
    error: ErrorSchema,
  }),
);
/** An error response. */
export type JSONRPCErrorResponse = z.infer<typeof JSONRPCErrorResponseSchema>;

/** A response: a result or an error (no shared discriminator member, so a plain union). */
export const JSONRPCResponseSchema = lazySchema(() =>
  zod.union([JSONRPCResultResponseSchema, JSONRPCErrorResponseSchema]),
);
/** A response: a result or an error. */
export type JSONRPCResponse = z.infer<typeof JSONRPCResponseSchema>;

/**
 * Anything that travels on the wire: request, notification, result or error. A plain union: the kinds differ
 * by which members are present (`id`, `method`, `result`, `error`), not by a tag.
 */
export const JSONRPCMessageSchema = lazySchema(() =>
  zod.union([
    JSONRPCRequestSchema,
    JSONRPCNotificationSchema,
    JSONRPCResultResponseSchema,
    JSONRPCErrorResponseSchema,
  ]),
);
/** Any JSON-RPC message. */
export type JSONRPCMessage = z.infer<typeof JSONRPCMessageSchema>;

/** A list request (`tools/list`, `prompts/list`, …): params are `_meta` plus an optional `cursor`. */
export const PaginatedRequestSchema = lazySchema(() =>
  JSONRPCRequestSchema.extend({
    params: PaginatedRequestParamsSchema,
  }),
);
/** A list request. */
export type PaginatedRequest = z.infer<typeof PaginatedRequestSchema>;

/** Builds the schema of a client→server request for `method`: envelope, literal method and typed params. */
export function jsonrpcRequest<const M extends string, P extends z.ZodType>(method: M, params: P) {
  return zod.looseObject({
    jsonrpc: jsonrpcVersion,
    id: RequestIdSchema,
    method: zod.literal(method),
    params,
  });
}

/** Builds the schema of a notification for `method`: envelope, literal method and typed params. */
export function jsonrpcNotification<const M extends string, P extends z.ZodType>(method: M, params: P) {
  return zod.looseObject({ jsonrpc: jsonrpcVersion, method: zod.literal(method), params });
}

/** Builds the schema of a successful response whose `result` is `result`. */
export function jsonrpcResultResponse<R extends z.ZodType>(result: R) {
  return zod.looseObject({ jsonrpc: jsonrpcVersion, id: RequestIdSchema, result });
}
