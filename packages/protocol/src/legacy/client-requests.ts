// 2025-11-25 client→server requests for the methods both eras share. Unlike 2026-07-28 they carry no required
// `_meta` (the session fixed version and capabilities), and list params are optional.
import type { z } from 'zod';
import { openObject } from '../schema/base.js';
import { PromptReferenceSchema, RequestIdSchema, ResourceTemplateReferenceSchema } from '../schema/index.js';
import { jsonrpcNotification, jsonrpcRequest } from '../schema/jsonrpc.js';
import { lazySchema, zod } from '../schema/zod.js';
import {
  NotificationParamsSchema,
  PaginatedRequestParamsSchema,
  RequestParamsSchema,
  TaskAugmentedRequestParamsSchema,
} from './base.js';

/** `resources/list` (2025-11-25). */
export const ListResourcesRequestSchema = lazySchema(() =>
  jsonrpcRequest('resources/list', PaginatedRequestParamsSchema.optional()),
);
/** `resources/list` request (2025-11-25). */
export type ListResourcesRequest = z.infer<typeof ListResourcesRequestSchema>;

/** `resources/templates/list` (2025-11-25). */
export const ListResourceTemplatesRequestSchema = lazySchema(() =>
  jsonrpcRequest('resources/templates/list', PaginatedRequestParamsSchema.optional()),
);
/** `resources/templates/list` request (2025-11-25). */
export type ListResourceTemplatesRequest = z.infer<typeof ListResourceTemplatesRequestSchema>;

/** Params of `resources/read` (2025-11-25): the `uri`. */
export const ReadResourceRequestParamsSchema = lazySchema(() =>
  RequestParamsSchema.extend({ uri: zod.string() }),
);
/** Params of `resources/read` (2025-11-25). */
export type ReadResourceRequestParams = z.infer<typeof ReadResourceRequestParamsSchema>;

/** `resources/read` (2025-11-25). */
export const ReadResourceRequestSchema = lazySchema(() =>
  jsonrpcRequest('resources/read', ReadResourceRequestParamsSchema),
);
/** `resources/read` request (2025-11-25). */
export type ReadResourceRequest = z.infer<typeof ReadResourceRequestSchema>;

/** Params of `resources/subscribe`: the `uri` to watch. */
export const SubscribeRequestParamsSchema = lazySchema(() =>
  RequestParamsSchema.extend({ uri: zod.string() }),
);
/** Params of `resources/subscribe`. */
export type SubscribeRequestParams = z.infer<typeof SubscribeRequestParamsSchema>;

/** `resources/subscribe`: session-wide updates for one resource (2026-07-28 uses `subscriptions/listen`). */
export const SubscribeRequestSchema = lazySchema(() =>
  jsonrpcRequest('resources/subscribe', SubscribeRequestParamsSchema),
);
/** `resources/subscribe` request. */
export type SubscribeRequest = z.infer<typeof SubscribeRequestSchema>;

/** Params of `resources/unsubscribe`: the `uri` to stop watching. */
export const UnsubscribeRequestParamsSchema = lazySchema(() =>
  RequestParamsSchema.extend({ uri: zod.string() }),
);
/** Params of `resources/unsubscribe`. */
export type UnsubscribeRequestParams = z.infer<typeof UnsubscribeRequestParamsSchema>;

/** `resources/unsubscribe`: end a `resources/subscribe`. */
export const UnsubscribeRequestSchema = lazySchema(() =>
  jsonrpcRequest('resources/unsubscribe', UnsubscribeRequestParamsSchema),
);
/** `resources/unsubscribe` request. */
export type UnsubscribeRequest = z.infer<typeof UnsubscribeRequestSchema>;

/** Params of `notifications/resources/updated` (2025-11-25): the `uri` that changed. */
export const ResourceUpdatedNotificationParamsSchema = lazySchema(() =>
  NotificationParamsSchema.extend({ uri: zod.string() }),
);
/** Params of `notifications/resources/updated` (2025-11-25). */
export type ResourceUpdatedNotificationParams = z.infer<typeof ResourceUpdatedNotificationParamsSchema>;

/** A subscribed resource changed (2025-11-25: sent on the session for `resources/subscribe`d URIs). */
export const ResourceUpdatedNotificationSchema = lazySchema(() =>
  jsonrpcNotification('notifications/resources/updated', ResourceUpdatedNotificationParamsSchema),
);
/** A subscribed resource changed. */
export type ResourceUpdatedNotification = z.infer<typeof ResourceUpdatedNotificationSchema>;

/** `prompts/list` (2025-11-25). */
export const ListPromptsRequestSchema = lazySchema(() =>
  jsonrpcRequest('prompts/list', PaginatedRequestParamsSchema.optional()),
);
/** `prompts/list` request (2025-11-25). */
export type ListPromptsRequest = z.infer<typeof ListPromptsRequestSchema>;

/** Params of `prompts/get` (2025-11-25): `name` and string `arguments`. */
export const GetPromptRequestParamsSchema = lazySchema(() =>
  RequestParamsSchema.extend({
    name: zod.string(),
    arguments: zod.record(zod.string(), zod.string()).optional(),
  }),
);
/** Params of `prompts/get` (2025-11-25). */
export type GetPromptRequestParams = z.infer<typeof GetPromptRequestParamsSchema>;

/** `prompts/get` (2025-11-25). */
export const GetPromptRequestSchema = lazySchema(() =>
  jsonrpcRequest('prompts/get', GetPromptRequestParamsSchema),
);
/** `prompts/get` request (2025-11-25). */
export type GetPromptRequest = z.infer<typeof GetPromptRequestSchema>;

/** `tools/list` (2025-11-25). */
export const ListToolsRequestSchema = lazySchema(() =>
  jsonrpcRequest('tools/list', PaginatedRequestParamsSchema.optional()),
);
/** `tools/list` request (2025-11-25). */
export type ListToolsRequest = z.infer<typeof ListToolsRequestSchema>;

/** Params of `tools/call` (2025-11-25): `name`, `arguments`, and an optional `task`. */
export const CallToolRequestParamsSchema = lazySchema(() =>
  TaskAugmentedRequestParamsSchema.extend({
    name: zod.string(),
    arguments: openObject.optional(),
  }),
);
/** Params of `tools/call` (2025-11-25). */
export type CallToolRequestParams = z.infer<typeof CallToolRequestParamsSchema>;

/** `tools/call` (2025-11-25): the server may ask the client mid-call with its own requests. */
export const CallToolRequestSchema = lazySchema(() =>
  jsonrpcRequest('tools/call', CallToolRequestParamsSchema),
);
/** `tools/call` request (2025-11-25). */
export type CallToolRequest = z.infer<typeof CallToolRequestSchema>;

/** Params of `completion/complete` (2025-11-25): what to complete, the argument so far, known values. */
export const CompleteRequestParamsSchema = lazySchema(() =>
  RequestParamsSchema.extend({
    ref: zod.discriminatedUnion('type', [PromptReferenceSchema, ResourceTemplateReferenceSchema]),
    argument: zod.looseObject({ name: zod.string(), value: zod.string() }),
    context: zod.looseObject({ arguments: zod.record(zod.string(), zod.string()).optional() }).optional(),
  }),
);
/** Params of `completion/complete` (2025-11-25). */
export type CompleteRequestParams = z.infer<typeof CompleteRequestParamsSchema>;

/** `completion/complete` (2025-11-25). */
export const CompleteRequestSchema = lazySchema(() =>
  jsonrpcRequest('completion/complete', CompleteRequestParamsSchema),
);
/** `completion/complete` request (2025-11-25). */
export type CompleteRequest = z.infer<typeof CompleteRequestSchema>;

/**
 * Params of `notifications/cancelled` (2025-11-25): `requestId` is optional there (tasks cancel otherwise).
 */
export const CancelledNotificationParamsSchema = lazySchema(() =>
  NotificationParamsSchema.extend({
    requestId: RequestIdSchema.optional(),
    reason: zod.string().optional(),
  }),
);
/** Params of `notifications/cancelled` (2025-11-25). */
export type CancelledNotificationParams = z.infer<typeof CancelledNotificationParamsSchema>;

/** Either side cancels a request it sent (2025-11-25; never `initialize`). */
export const CancelledNotificationSchema = lazySchema(() =>
  jsonrpcNotification('notifications/cancelled', CancelledNotificationParamsSchema),
);
/** A request is cancelled (2025-11-25). */
export type CancelledNotification = z.infer<typeof CancelledNotificationSchema>;
