// Resources: listing, templates, `resources/read` (an MRTR method) and the change notifications.
import { z } from 'zod';
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

/** A family of resources addressed by an RFC 6570 `uriTemplate`. */
export const ResourceTemplateSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  icons: z.array(IconSchema).optional(),
  uriTemplate: z.string(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaObjectSchema.optional(),
});
/** A family of resources addressed by a URI template. */
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

/** `resources/list`: one page of the server's resources. */
export const ListResourcesRequestSchema = jsonrpcRequest('resources/list', PaginatedRequestParamsSchema);
/** `resources/list` request. */
export type ListResourcesRequest = z.infer<typeof ListResourcesRequestSchema>;

/** The result of `resources/list`: a page of resources, cacheable for `ttlMs`. */
export const ListResourcesResultSchema = cacheableListResult.extend({
  resources: z.array(ResourceSchema),
});
/** The result of `resources/list`. */
export type ListResourcesResult = z.infer<typeof ListResourcesResultSchema>;

/** A successful response to `resources/list`. */
export const ListResourcesResultResponseSchema = jsonrpcResultResponse(ListResourcesResultSchema);
/** A successful response to `resources/list`. */
export type ListResourcesResultResponse = z.infer<typeof ListResourcesResultResponseSchema>;

/** `resources/templates/list`: one page of the server's resource templates. */
export const ListResourceTemplatesRequestSchema = jsonrpcRequest(
  'resources/templates/list',
  PaginatedRequestParamsSchema,
);
/** `resources/templates/list` request. */
export type ListResourceTemplatesRequest = z.infer<typeof ListResourceTemplatesRequestSchema>;

/** The result of `resources/templates/list`: a page of templates, cacheable for `ttlMs`. */
export const ListResourceTemplatesResultSchema = cacheableListResult.extend({
  resourceTemplates: z.array(ResourceTemplateSchema),
});
/** The result of `resources/templates/list`. */
export type ListResourceTemplatesResult = z.infer<typeof ListResourceTemplatesResultSchema>;

/** A successful response to `resources/templates/list`. */
export const ListResourceTemplatesResultResponseSchema = jsonrpcResultResponse(
  ListResourceTemplatesResultSchema,
);
/** A successful response to `resources/templates/list`. */
export type ListResourceTemplatesResultResponse = z.infer<typeof ListResourceTemplatesResultResponseSchema>;

/**
 * Params of requests about one resource: `_meta` and the resource `uri` (any scheme; the server interprets
 * it).
 */
export const ResourceRequestParamsSchema = RequestParamsSchema.extend({
  uri: z.string(),
});
/** Params of requests about one resource. */
export type ResourceRequestParams = z.infer<typeof ResourceRequestParamsSchema>;

/** Params of `resources/read`: the `uri`, and on a retry the MRTR answers and state. */
export const ReadResourceRequestParamsSchema = InputResponseRequestParamsSchema.extend({
  uri: z.string(),
});
/** Params of `resources/read`. */
export type ReadResourceRequestParams = z.infer<typeof ReadResourceRequestParamsSchema>;

/** `resources/read`: read one resource. May be answered with an `InputRequiredResult`. */
export const ReadResourceRequestSchema = jsonrpcRequest('resources/read', ReadResourceRequestParamsSchema);
/** `resources/read` request. */
export type ReadResourceRequest = z.infer<typeof ReadResourceRequestSchema>;

/** The contents of a resource (text or blob parts), cacheable for `ttlMs`. */
export const ReadResourceResultSchema = cacheableResult.extend({
  contents: z.array(resourceContents),
});
/** The contents of a resource. */
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;

/**
 * A successful response to `resources/read`: the contents or a request for input, by `resultType`. As
 * received, the contents may lack `ttlMs` / `cacheScope`: the caching rules tell clients to read an absent
 * `ttlMs` as 0 (older servers), and the spec's own example response omits both. `ReadResourceResultSchema`
 * still requires them.
 */
export const ReadResourceResultResponseSchema = jsonrpcResultResponse(
  z.discriminatedUnion('resultType', [
    ReadResourceResultSchema.partial({ ttlMs: true, cacheScope: true }),
    InputRequiredResultSchema,
  ]),
);
/** A successful response to `resources/read`. */
export type ReadResourceResultResponse = z.infer<typeof ReadResourceResultResponseSchema>;

/**
 * Sent on a `subscriptions/listen` stream that asked for `resourcesListChanged`: the resource list changed.
 */
export const ResourceListChangedNotificationSchema = jsonrpcNotification(
  'notifications/resources/list_changed',
  NotificationParamsSchema.optional(),
);
/** The resource list changed. */
export type ResourceListChangedNotification = z.infer<typeof ResourceListChangedNotificationSchema>;

/**
 * Params of `notifications/resources/updated`: the `uri` that changed (maybe a sub-resource of a subscribed
 * one).
 */
export const ResourceUpdatedNotificationParamsSchema = NotificationParamsSchema.extend({
  uri: z.string(),
});
/** Params of `notifications/resources/updated`. */
export type ResourceUpdatedNotificationParams = z.infer<typeof ResourceUpdatedNotificationParamsSchema>;

/** A subscribed resource changed and may need reading again (only for URIs in `resourceSubscriptions`). */
export const ResourceUpdatedNotificationSchema = jsonrpcNotification(
  'notifications/resources/updated',
  ResourceUpdatedNotificationParamsSchema,
);
/** A subscribed resource changed. */
export type ResourceUpdatedNotification = z.infer<typeof ResourceUpdatedNotificationSchema>;
