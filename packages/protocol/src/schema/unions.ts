// The message unions per direction: what a client sends and what a server sends.
import type { z } from 'zod';
import { CompleteRequestSchema, CompleteResultSchema } from './completion.js';
import { DiscoverRequestSchema, DiscoverResultSchema } from './discover.js';
import { ResultSchema } from './meta.js';
import { InputRequiredResultSchema } from './mrtr.js';
import {
  CancelledNotificationSchema,
  LoggingMessageNotificationSchema,
  ProgressNotificationSchema,
} from './notifications.js';
import {
  GetPromptRequestSchema,
  GetPromptResultSchema,
  ListPromptsRequestSchema,
  ListPromptsResultSchema,
  PromptListChangedNotificationSchema,
} from './prompts.js';
import {
  ListResourcesRequestSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesRequestSchema,
  ListResourceTemplatesResultSchema,
  ReadResourceRequestSchema,
  ReadResourceResultSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from './resources.js';
import {
  SubscriptionsAcknowledgedNotificationSchema,
  SubscriptionsListenRequestSchema,
  SubscriptionsListenResultSchema,
} from './subscriptions.js';
import { ListToolsRequestSchema, ListToolsResultSchema, ToolListChangedNotificationSchema } from './tools.js';
import { CallToolRequestSchema, CallToolResultSchema } from './tools-call.js';
import { lazySchema, zod } from './zod.js';

/** Every request a client may send, discriminated by `method` (one lookup, then one method's schema). */
export const ClientRequestSchema = lazySchema(() =>
  zod.discriminatedUnion('method', [
    DiscoverRequestSchema,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ReadResourceRequestSchema,
    SubscriptionsListenRequestSchema,
    ListPromptsRequestSchema,
    GetPromptRequestSchema,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    CompleteRequestSchema,
  ]),
);
/** Every request a client may send. */
export type ClientRequest = z.infer<typeof ClientRequestSchema>;

/** The one notification a client sends: `notifications/cancelled`. */
export const ClientNotificationSchema = CancelledNotificationSchema;
/** The one notification a client sends. */
export type ClientNotification = z.infer<typeof ClientNotificationSchema>;

/** What a client answers with: nothing flows server→client in 2026-07-28, so only the empty result. */
export const ClientResultSchema = ResultSchema;
/** What a client answers with. */
export type ClientResult = z.infer<typeof ClientResultSchema>;

/** Every notification a server may send, discriminated by `method`. */
export const ServerNotificationSchema = lazySchema(() =>
  zod.discriminatedUnion('method', [
    CancelledNotificationSchema,
    ProgressNotificationSchema,
    ResourceListChangedNotificationSchema,
    SubscriptionsAcknowledgedNotificationSchema,
    ResourceUpdatedNotificationSchema,
    PromptListChangedNotificationSchema,
    ToolListChangedNotificationSchema,
    LoggingMessageNotificationSchema,
  ]),
);
/** Every notification a server may send. */
export type ServerNotification = z.infer<typeof ServerNotificationSchema>;

/**
 * Any result a server may send. A plain union: results carry no method, and every specific result is also a
 * valid generic `Result` (tried last), so parse with the method's own result schema when the method is known.
 */
export const ServerResultSchema = lazySchema(() =>
  zod.union([
    InputRequiredResultSchema,
    DiscoverResultSchema,
    ListResourcesResultSchema,
    ListResourceTemplatesResultSchema,
    ReadResourceResultSchema,
    SubscriptionsListenResultSchema,
    ListPromptsResultSchema,
    GetPromptResultSchema,
    ListToolsResultSchema,
    CallToolResultSchema,
    CompleteResultSchema,
    ResultSchema,
  ]),
);
/** Any result a server may send. */
export type ServerResult = z.infer<typeof ServerResultSchema>;
