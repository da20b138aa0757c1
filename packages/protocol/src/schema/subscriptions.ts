// `subscriptions/listen`: the long-lived request that carries list-changed and resource-updated
// notifications.
import type { z } from 'zod';
import { ImplementationSchema, RequestIdSchema } from './base.js';
import { jsonrpcNotification, jsonrpcRequest, jsonrpcResultResponse } from './jsonrpc.js';
import { completeResultType, NotificationParamsSchema, RequestParamsSchema, ResultSchema } from './meta.js';
import { lazySchema, zod } from './zod.js';

/** The notification kinds a client opts in to; a server never sends a kind not requested here. */
export const SubscriptionFilterSchema = lazySchema(() =>
  zod.looseObject({
    toolsListChanged: zod.boolean().optional(),
    promptsListChanged: zod.boolean().optional(),
    resourcesListChanged: zod.boolean().optional(),
    /** Resource URIs to receive `notifications/resources/updated` for. */
    resourceSubscriptions: zod.array(zod.string()).optional(),
  }),
);
/** The notification kinds a client opts in to. */
export type SubscriptionFilter = z.infer<typeof SubscriptionFilterSchema>;

/** Params of `subscriptions/listen`: `_meta` and the requested notifications. */
export const SubscriptionsListenRequestParamsSchema = lazySchema(() =>
  RequestParamsSchema.extend({
    notifications: SubscriptionFilterSchema,
  }),
);
/** Params of `subscriptions/listen`. */
export type SubscriptionsListenRequestParams = z.infer<typeof SubscriptionsListenRequestParamsSchema>;

/** `subscriptions/listen`: open a stream of notifications outside any one request (HTTP and stdio alike). */
export const SubscriptionsListenRequestSchema = lazySchema(() =>
  jsonrpcRequest('subscriptions/listen', SubscriptionsListenRequestParamsSchema),
);
/** `subscriptions/listen` request. */
export type SubscriptionsListenRequest = z.infer<typeof SubscriptionsListenRequestSchema>;

/** Result `_meta` of a closed subscription: `subscriptionId` (the listen request's id) is required. */
export const SubscriptionsListenResultMetaObjectSchema = lazySchema(() =>
  zod.looseObject({
    'io.modelcontextprotocol/serverInfo': ImplementationSchema.optional(),
    'io.modelcontextprotocol/subscriptionId': RequestIdSchema,
  }),
);
/** Result `_meta` of a closed subscription. */
export type SubscriptionsListenResultMetaObject = z.infer<typeof SubscriptionsListenResultMetaObjectSchema>;

/** Sent only when the server ends a subscription gracefully; an abrupt close carries no response. */
export const SubscriptionsListenResultSchema = lazySchema(() =>
  ResultSchema.extend({
    resultType: completeResultType,
    _meta: SubscriptionsListenResultMetaObjectSchema,
  }),
);
/** The end of a subscription. */
export type SubscriptionsListenResult = z.infer<typeof SubscriptionsListenResultSchema>;

/** A successful response to `subscriptions/listen` (the graceful end of the stream). */
export const SubscriptionsListenResultResponseSchema = lazySchema(() =>
  jsonrpcResultResponse(SubscriptionsListenResultSchema),
);
/** A successful response to `subscriptions/listen`. */
export type SubscriptionsListenResultResponse = z.infer<typeof SubscriptionsListenResultResponseSchema>;

/** Params of the acknowledgement: the subset of the requested notifications the server will honour. */
export const SubscriptionsAcknowledgedNotificationParamsSchema = lazySchema(() =>
  NotificationParamsSchema.extend({
    notifications: SubscriptionFilterSchema,
  }),
);
/** Params of the acknowledgement. */
export type SubscriptionsAcknowledgedNotificationParams = z.infer<
  typeof SubscriptionsAcknowledgedNotificationParamsSchema
>;

/**
 * The first message of a subscription: what the server agreed to send. Nothing precedes it on that stream.
 */
export const SubscriptionsAcknowledgedNotificationSchema = lazySchema(() =>
  jsonrpcNotification(
    'notifications/subscriptions/acknowledged',
    SubscriptionsAcknowledgedNotificationParamsSchema,
  ),
);
/** The acknowledgement that opens a subscription. */
export type SubscriptionsAcknowledgedNotification = z.infer<
  typeof SubscriptionsAcknowledgedNotificationSchema
>;
