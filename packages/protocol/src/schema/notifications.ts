// Notifications tied to requests: cancellation, progress and (deprecated) log messages.
import type { z } from 'zod';
import { LoggingLevelSchema, ProgressTokenSchema, RequestIdSchema } from './base.js';
import { jsonrpcNotification } from './jsonrpc.js';
import { NotificationParamsSchema } from './meta.js';
import { lazySchema, zod } from './zod.js';

/** Params of `notifications/cancelled`: the id of the request to stop and an optional reason to log. */
export const CancelledNotificationParamsSchema = lazySchema(() =>
  NotificationParamsSchema.extend({
    requestId: RequestIdSchema,
    reason: zod.string().optional(),
  }),
);
/** Params of `notifications/cancelled`. */
export type CancelledNotificationParams = z.infer<typeof CancelledNotificationParamsSchema>;

/**
 * The client stops a request it sent (it may already have finished). On stdio the server sends it only to end
 * a `subscriptions/listen` stream.
 */
export const CancelledNotificationSchema = lazySchema(() =>
  jsonrpcNotification('notifications/cancelled', CancelledNotificationParamsSchema),
);
/** A request is cancelled. */
export type CancelledNotification = z.infer<typeof CancelledNotificationSchema>;

/** Params of `notifications/progress`: the request's token, progress so far, optional total and message. */
export const ProgressNotificationParamsSchema = lazySchema(() =>
  NotificationParamsSchema.extend({
    progressToken: ProgressTokenSchema,
    progress: zod.number(),
    total: zod.number().optional(),
    message: zod.string().optional(),
  }),
);
/** Params of `notifications/progress`. */
export type ProgressNotificationParams = z.infer<typeof ProgressNotificationParamsSchema>;

/** Progress of a long-running request that asked for it with a `progressToken`. */
export const ProgressNotificationSchema = lazySchema(() =>
  jsonrpcNotification('notifications/progress', ProgressNotificationParamsSchema),
);
/** Progress of a long-running request. */
export type ProgressNotification = z.infer<typeof ProgressNotificationSchema>;

/** Params of `notifications/message`: a `level`, an optional `logger` name and any JSON `data` (required). */
export const LoggingMessageNotificationParamsSchema = lazySchema(() =>
  NotificationParamsSchema.extend({
    level: LoggingLevelSchema,
    logger: zod.string().optional(),
    data: zod.unknown(),
  }),
);
/** Params of `notifications/message`. */
export type LoggingMessageNotificationParams = z.infer<typeof LoggingMessageNotificationParamsSchema>;

/**
 * A log message for a request whose `_meta` set `io.modelcontextprotocol/logLevel`. Deprecated (SEP-2577).
 */
export const LoggingMessageNotificationSchema = lazySchema(() =>
  jsonrpcNotification('notifications/message', LoggingMessageNotificationParamsSchema),
);
/** A log message. */
export type LoggingMessageNotification = z.infer<typeof LoggingMessageNotificationSchema>;
