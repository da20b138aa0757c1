// `_meta` objects, request/notification params and the result bases every method builds on.
import type { z } from 'zod';
import {
  CursorSchema,
  ImplementationSchema,
  LoggingLevelSchema,
  ProgressTokenSchema,
  RequestIdSchema,
  ResultTypeSchema,
} from './base.js';
import { ClientCapabilitiesSchema } from './capabilities.js';
import { lazySchema, zod } from './zod.js';

/**
 * Request `_meta`. No handshake exists, so every request carries its protocol version and the client's
 * capabilities here (both required: missing → `-32602`); `clientInfo`, `logLevel` and `progressToken` are
 * optional.
 */
export const RequestMetaObjectSchema = lazySchema(() =>
  zod.looseObject({
    progressToken: ProgressTokenSchema.optional(),
    'io.modelcontextprotocol/protocolVersion': zod.string(),
    'io.modelcontextprotocol/clientInfo': ImplementationSchema.optional(),
    'io.modelcontextprotocol/clientCapabilities': ClientCapabilitiesSchema,
    /** Deprecated (SEP-2577): the lowest level of `notifications/message` wanted for this request. */
    'io.modelcontextprotocol/logLevel': LoggingLevelSchema.optional(),
  }),
);
/** Request `_meta`: protocol version and client capabilities, plus any extension keys. */
export type RequestMetaObject = z.infer<typeof RequestMetaObjectSchema>;

/** Notification `_meta`; `subscriptionId` names the `subscriptions/listen` stream a notification came on. */
export const NotificationMetaObjectSchema = lazySchema(() =>
  zod.looseObject({
    'io.modelcontextprotocol/subscriptionId': RequestIdSchema.optional(),
  }),
);
/** Notification `_meta`. */
export type NotificationMetaObject = z.infer<typeof NotificationMetaObjectSchema>;

/** Result `_meta`; `serverInfo` is the server's self-description (display and logs only). */
export const ResultMetaObjectSchema = lazySchema(() =>
  zod.looseObject({
    'io.modelcontextprotocol/serverInfo': ImplementationSchema.optional(),
  }),
);
/** Result `_meta`. */
export type ResultMetaObject = z.infer<typeof ResultMetaObjectSchema>;

/** Params every request has: the required `_meta`. */
export const RequestParamsSchema = lazySchema(() =>
  zod.looseObject({
    _meta: RequestMetaObjectSchema,
  }),
);
/** Params every request has. */
export type RequestParams = z.infer<typeof RequestParamsSchema>;

/** Params every notification has: an optional `_meta`. */
export const NotificationParamsSchema = lazySchema(() =>
  zod.looseObject({
    _meta: NotificationMetaObjectSchema.optional(),
  }),
);
/** Params every notification has. */
export type NotificationParams = z.infer<typeof NotificationParamsSchema>;

/**
 * Any result: `resultType` (required here as in schema.json; clients normalise a missing one to `"complete"`
 * before validating) plus whatever members the method defines.
 */
export const ResultSchema = lazySchema(() =>
  zod.looseObject({
    _meta: ResultMetaObjectSchema.optional(),
    resultType: ResultTypeSchema,
  }),
);
/** Any result. */
export type Result = z.infer<typeof ResultSchema>;

/** A result that signals success and carries no data (e.g. the end of a subscription). */
export const EmptyResultSchema = ResultSchema;
/** A result with no data. */
export type EmptyResult = z.infer<typeof EmptyResultSchema>;

/**
 * Base of cacheable results (`server/discover`, lists, `resources/read`): `ttlMs` ≥ 0 is how long the client
 * may reuse it; `cacheScope` `"private"` forbids sharing across authorization contexts.
 */
export const CacheableResultSchema = lazySchema(() =>
  ResultSchema.extend({
    ttlMs: zod.int().min(0),
    cacheScope: zod.enum(['public', 'private']),
  }),
);
/** Base of cacheable results. */
export type CacheableResult = z.infer<typeof CacheableResultSchema>;

/** Params of list requests: `_meta` plus the opaque `cursor` of the previous page. */
export const PaginatedRequestParamsSchema = lazySchema(() =>
  RequestParamsSchema.extend({
    cursor: CursorSchema.optional(),
  }),
);
/** Params of list requests. */
export type PaginatedRequestParams = z.infer<typeof PaginatedRequestParamsSchema>;

/** Base of list results: `nextCursor` is present when more pages may follow. */
export const PaginatedResultSchema = lazySchema(() =>
  ResultSchema.extend({
    nextCursor: CursorSchema.optional(),
  }),
);
/** Base of list results. */
export type PaginatedResult = z.infer<typeof PaginatedResultSchema>;

/** `resultType` of every final result: the literal `"complete"` (so unions can switch on `resultType`). */
export const completeResultType = lazySchema(() => zod.literal('complete'));

/** Base of final results: `resultType: "complete"`. */
export const completeResult = lazySchema(() => ResultSchema.extend({ resultType: completeResultType }));

/** Base of final cacheable results: `"complete"`, `ttlMs`, `cacheScope`. */
export const cacheableResult = lazySchema(() =>
  CacheableResultSchema.extend({ resultType: completeResultType }),
);

/** Base of final cacheable list results: `"complete"`, `ttlMs`, `cacheScope`, `nextCursor`. */
export const cacheableListResult = lazySchema(() =>
  cacheableResult.extend({ nextCursor: CursorSchema.optional() }),
);
