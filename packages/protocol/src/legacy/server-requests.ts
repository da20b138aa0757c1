// 2025-11-25 server→client requests (elicitation, sampling, roots) as real JSON-RPC requests, their results,
// and the notifications around them. 2026-07-28 embeds the same questions in an `InputRequiredResult`
// instead.
import type { z } from 'zod';
import { jsonrpcVersion } from '../schema/base.js';
import {
  MetaObjectSchema,
  CreateMessageRequestParamsSchema as ModernCreateMessageRequestParamsSchema,
  ElicitRequestFormParamsSchema as ModernElicitRequestFormParamsSchema,
  ElicitRequestURLParamsSchema as ModernElicitRequestURLParamsSchema,
  ElicitResultSchema as ModernElicitResultSchema,
  ListRootsResultSchema as ModernListRootsResultSchema,
  RequestIdSchema,
} from '../schema/index.js';
import { ErrorSchema, jsonrpcNotification, jsonrpcRequest } from '../schema/jsonrpc.js';
import { lazySchema, zod } from '../schema/zod.js';
import { NotificationParamsSchema, RequestParamsSchema, requestMeta, TaskMetadataSchema } from './base.js';

/** The 2025-11-25 additions to every server→client params object: `_meta` and task augmentation. */
const legacyParams = () => ({ _meta: requestMeta.optional(), task: TaskMetadataSchema.optional() });

/** A 2025-11-25 form elicitation: the 2026-07-28 shape plus optional `_meta` and `task`. */
export const ElicitRequestFormParamsSchema = lazySchema(() =>
  ModernElicitRequestFormParamsSchema.extend(legacyParams()),
);
/** A 2025-11-25 form elicitation. */
export type ElicitRequestFormParams = z.infer<typeof ElicitRequestFormParamsSchema>;

/**
 * A 2025-11-25 URL elicitation: also carries the `elicitationId` that a later
 * `notifications/elicitation/complete` refers to.
 */
export const ElicitRequestURLParamsSchema = lazySchema(() =>
  ModernElicitRequestURLParamsSchema.extend({
    ...legacyParams(),
    elicitationId: zod.string(),
  }),
);
/** A 2025-11-25 URL elicitation. */
export type ElicitRequestURLParams = z.infer<typeof ElicitRequestURLParamsSchema>;

/** Form or URL elicitation params, discriminated by `mode` (absent → form). */
export const ElicitRequestParamsSchema = lazySchema(() =>
  zod.discriminatedUnion('mode', [ElicitRequestURLParamsSchema, ElicitRequestFormParamsSchema]),
);
/** Form or URL elicitation params. */
export type ElicitRequestParams = z.infer<typeof ElicitRequestParamsSchema>;

/** `elicitation/create` sent by a 2025-11-25 server to its client, mid-call. */
export const ElicitRequestSchema = lazySchema(() =>
  jsonrpcRequest('elicitation/create', ElicitRequestParamsSchema),
);
/** `elicitation/create` request. */
export type ElicitRequest = z.infer<typeof ElicitRequestSchema>;

/** The client's answer to `elicitation/create`: the 2026-07-28 shape plus result `_meta`. */
export const ElicitResultSchema = lazySchema(() =>
  ModernElicitResultSchema.extend({ _meta: MetaObjectSchema.optional() }),
);
/** The client's answer to `elicitation/create`. */
export type ElicitResult = z.infer<typeof ElicitResultSchema>;

/** What to sample (2025-11-25): the 2026-07-28 shape plus optional `_meta` and `task`. */
export const CreateMessageRequestParamsSchema = lazySchema(() =>
  ModernCreateMessageRequestParamsSchema.extend(legacyParams()),
);
/** What to sample. */
export type CreateMessageRequestParams = z.infer<typeof CreateMessageRequestParamsSchema>;

/** `sampling/createMessage` sent by a 2025-11-25 server to its client, mid-call. */
export const CreateMessageRequestSchema = lazySchema(() =>
  jsonrpcRequest('sampling/createMessage', CreateMessageRequestParamsSchema),
);
/** `sampling/createMessage` request. */
export type CreateMessageRequest = z.infer<typeof CreateMessageRequestSchema>;

/** `roots/list` sent by a 2025-11-25 server to its client. */
export const ListRootsRequestSchema = lazySchema(() =>
  jsonrpcRequest('roots/list', RequestParamsSchema.optional()),
);
/** `roots/list` request. */
export type ListRootsRequest = z.infer<typeof ListRootsRequestSchema>;

/** The client's roots: the 2026-07-28 shape plus result `_meta`. */
export const ListRootsResultSchema = lazySchema(() =>
  ModernListRootsResultSchema.extend({
    _meta: MetaObjectSchema.optional(),
  }),
);
/** The client's roots. */
export type ListRootsResult = z.infer<typeof ListRootsResultSchema>;

/** Sent by a 2025-11-25 client that declared `roots.listChanged`: its roots changed. */
export const RootsListChangedNotificationSchema = lazySchema(() =>
  jsonrpcNotification('notifications/roots/list_changed', NotificationParamsSchema.optional()),
);
/** The client's roots changed. */
export type RootsListChangedNotification = z.infer<typeof RootsListChangedNotificationSchema>;

/** Sent by a 2025-11-25 server when an out-of-band (URL) elicitation finished. */
export const ElicitationCompleteNotificationSchema = lazySchema(() =>
  jsonrpcNotification('notifications/elicitation/complete', zod.looseObject({ elicitationId: zod.string() })),
);
/** A URL elicitation finished. */
export type ElicitationCompleteNotification = z.infer<typeof ElicitationCompleteNotificationSchema>;

/**
 * `-32042` response (2025-11-25 only): the request needs URL elicitations first; `data.elicitations` lists
 * them. 2026-07-28 returns an `InputRequiredResult` instead.
 */
export const URLElicitationRequiredErrorSchema = lazySchema(() =>
  zod.looseObject({
    jsonrpc: jsonrpcVersion,
    id: RequestIdSchema.optional(),
    error: ErrorSchema.extend({
      code: zod.literal(-32042),
      data: zod.looseObject({ elicitations: zod.array(ElicitRequestURLParamsSchema) }),
    }),
  }),
);
/** `-32042` response: URL elicitation required. */
export type URLElicitationRequiredError = z.infer<typeof URLElicitationRequiredErrorSchema>;
