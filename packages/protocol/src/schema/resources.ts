// Resources: listing, templates, `resources/read` (an MRTR method) and the change notifications.
import type { z } from 'zod';
import { AnnotationsSchema, IconSchema, MetaObjectSchema } from './base.js';
import { ResourceSchema, resourceContents } from './content.js';
import { jsonrpcNotification, jsonrpcRequest, jsonrpcResultResponse } from './jsonrpc.js';
import {
  cacheableListResult,
  cacheableResult,
  NotificationParamsSchema,
  PaginatedRequestParamsSchema,
  RequestParamsSchema,
} from './meta.js';
import { InputRequiredResultSchema, InputResponseRequestParamsSchema } from './mrtr.js';
import { lazySchema, zod } from './zod.js';

/** A family of resources addressed by an RFC 6570 `uriTemplate`. */
export const ResourceTemplateSchema = lazySchema(() =>
  zod.looseObject({
    name: zod.string(),
    title: zod.string().optional(),
    icons: zod.array(IconSchema).optional(),
    uriTemplate: zod.string(),
    description: zod.string().optional(),
    mimeType: zod.string().optional(),
    annotations: AnnotationsSchema.optional(),
    _meta: MetaObjectSchema.optional(),
  }),
);
/** A family of resources addressed by a URI template. */
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

/** `resources/list`: one page of the server's resources. */
export const ListResourcesRequestSchema = lazySchema(() =>
  jsonrpcRequest('resources/list', PaginatedRequestParamsSchema),
);
/** `resources/list` request. */
export type ListResourcesRequest = z.infer<typeof ListResourcesRequestSchema>;

/** The result of `resources/list`: a page of resources, cacheable for `ttlMs`. */
export const ListResourcesResultSchema = lazySchema(() =>
  cacheableListResult.extend({
    resources: zod.array(ResourceSchema),
  }),
);
/** The result of `resources/list`. */
export type ListResourcesResult = z.infer<typeof ListResourcesResultSchema>;

/** A successful response to `resources/list`. */
export const ListResourcesResultResponseSchema = lazySchema(() =>
  jsonrpcResultResponse(ListResourcesResultSchema),
);
/** A successful response to `resources/list`. */
export type ListResourcesResultResponse = z.infer<typeof ListResourcesResultResponseSchema>;

/** `resources/templates/list`: one page of the server's resource templates. */
export const ListResourceTemplatesRequestSchema = lazySchema(() =>
  jsonrpcRequest('resources/templates/list', PaginatedRequestParamsSchema),
);
/** `resources/templates/list` request. */
export type ListResourceTemplatesRequest = z.infer<typeof ListResourceTemplatesRequestSchema>;

/** The result of `resources/templates/list`: a page of templates, cacheable for `ttlMs`. */
export const ListResourceTemplatesResultSchema = lazySchema(() =>
  cacheableListResult.extend({
    resourceTemplates: zod.array(ResourceTemplateSchema),
  }),
);
/** The result of `resources/templates/list`. */
export type ListResourceTemplatesResult = z.infer<typeof ListResourceTemplatesResultSchema>;

/** A successful response to `resources/templates/list`. */
export const ListResourceTemplatesResultResponseSchema = lazySchema(() =>
  jsonrpcResultResponse(ListResourceTemplatesResultSchema),
);
/** A successful response to `resources/templates/list`. */
export type ListResourceTemplatesResultResponse = z.infer<typeof ListResourceTemplatesResultResponseSchema>;

/**
 * Params of requests about one resource: `_meta` and the resource `uri` (any scheme; the server interprets
 * it).
 */
export const ResourceRequestParamsSchema = lazySchema(() =>
  RequestParamsSchema.extend({
    uri: zod.string(),
  }),
);
/** Params of requests about one resource. */
export type ResourceRequestParams = z.infer<typeof ResourceRequestParamsSchema>;

/** Params of `resources/read`: the `uri`, and on a retry the MRTR answers and state. */
export const ReadResourceRequestParamsSchema = lazySchema(() =>
  InputResponseRequestParamsSchema.extend({
    uri: zod.string(),
  }),
);
/** Params of `resources/read`. */
export type ReadResourceRequestParams = z.infer<typeof ReadResourceRequestParamsSchema>;

/** `resources/read`: read one resource. May be answered with an `InputRequiredResult`. */
export const ReadResourceRequestSchema = lazySchema(() =>
  jsonrpcRequest('resources/read', ReadResourceRequestParamsSchema),
);
/** `resources/read` request. */
export type ReadResourceRequest = z.infer<typeof ReadResourceRequestSchema>;

/** The contents of a resource (text or blob parts), cacheable for `ttlMs`. */
export const ReadResourceResultSchema = lazySchema(() =>
  cacheableResult.extend({
    contents: zod.array(resourceContents),
  }),
);
/** The contents of a resource. */
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;

/**
 * A successful response to `resources/read`: the contents or a request for input, by `resultType`. As
 * received, the contents may lack `ttlMs` / `cacheScope`: the caching rules tell clients to read an absent
 * `ttlMs` as 0 (older servers), and the spec's own example response omits both. `ReadResourceResultSchema`
 * still requires them.
 */
export const ReadResourceResultResponseSchema = lazySchema(() =>
  jsonrpcResultResponse(
    zod.discriminatedUnion('resultType', [
      ReadResourceResultSchema.partial({ ttlMs: true, cacheScope: true }),
      InputRequiredResultSchema,
    ]),
  ),
);
/** A successful response to `resources/read`. */
export type ReadResourceResultResponse = z.infer<typeof ReadResourceResultResponseSchema>;

/**
 * Sent on a `subscriptions/listen` stream that asked for `resourcesListChanged`: the resource list changed.
 */
export const ResourceListChangedNotificationSchema = lazySchema(() =>
  jsonrpcNotification('notifications/resources/list_changed', NotificationParamsSchema.optional()),
);
/** The resource list changed. */
export type ResourceListChangedNotification = z.infer<typeof ResourceListChangedNotificationSchema>;

/**
 * Params of `notifications/resources/updated`: the `uri` that changed (maybe a sub-resource of a subscribed
 * one).
 */
export const ResourceUpdatedNotificationParamsSchema = lazySchema(() =>
  NotificationParamsSchema.extend({
    uri: zod.string(),
  }),
);
/** Params of `notifications/resources/updated`. */
export type ResourceUpdatedNotificationParams = z.infer<typeof ResourceUpdatedNotificationParamsSchema>;

/** A subscribed resource changed and may need reading again (only for URIs in `resourceSubscriptions`). */
export const ResourceUpdatedNotificationSchema = lazySchema(() =>
  jsonrpcNotification('notifications/resources/updated', ResourceUpdatedNotificationParamsSchema),
);
/** A subscribed resource changed. */
export type ResourceUpdatedNotification = z.infer<typeof ResourceUpdatedNotificationSchema>;
