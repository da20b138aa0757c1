// 2025-11-25 message unions, as far as Boomerang's dual-era paths need them. The experimental task methods
// (`tasks/*`, `notifications/tasks/status`) are left out: Boomerang does not implement them.
import type { z } from 'zod';
import {
  CreateMessageResultSchema,
  LoggingMessageNotificationSchema,
  ProgressNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '../schema/index.js';
import { lazySchema, zod } from '../schema/zod.js';
import { ResultSchema } from './base.js';
import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  ResourceUpdatedNotificationSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from './client-requests.js';
import {
  InitializedNotificationSchema,
  InitializeRequestSchema,
  PingRequestSchema,
  SetLevelRequestSchema,
} from './lifecycle.js';
import {
  CreateMessageRequestSchema,
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  ElicitResultSchema,
  ListRootsRequestSchema,
  ListRootsResultSchema,
  RootsListChangedNotificationSchema,
} from './server-requests.js';

/** Every request a 2025-11-25 client may send (task methods excepted), discriminated by `method`. */
export const ClientRequestSchema = lazySchema(() =>
  zod.discriminatedUnion('method', [
    InitializeRequestSchema,
    PingRequestSchema,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ReadResourceRequestSchema,
    SubscribeRequestSchema,
    UnsubscribeRequestSchema,
    ListPromptsRequestSchema,
    GetPromptRequestSchema,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    SetLevelRequestSchema,
    CompleteRequestSchema,
  ]),
);
/** Every request a 2025-11-25 client may send. */
export type ClientRequest = z.infer<typeof ClientRequestSchema>;

/** Every notification a 2025-11-25 client may send (task status excepted), discriminated by `method`. */
export const ClientNotificationSchema = lazySchema(() =>
  zod.discriminatedUnion('method', [
    CancelledNotificationSchema,
    InitializedNotificationSchema,
    ProgressNotificationSchema,
    RootsListChangedNotificationSchema,
  ]),
);
/** Every notification a 2025-11-25 client may send. */
export type ClientNotification = z.infer<typeof ClientNotificationSchema>;

/**
 * What a 2025-11-25 client answers a server request with (task results excepted). No tag tells them apart;
 * parse with the request's own result schema when the method is known. The generic result is tried last.
 */
export const ClientResultSchema = lazySchema(() =>
  zod.union([CreateMessageResultSchema, ListRootsResultSchema, ElicitResultSchema, ResultSchema]),
);
/** What a 2025-11-25 client answers a server request with. */
export type ClientResult = z.infer<typeof ClientResultSchema>;

/** Every request a 2025-11-25 server may send (task methods excepted), discriminated by `method`. */
export const ServerRequestSchema = lazySchema(() =>
  zod.discriminatedUnion('method', [
    PingRequestSchema,
    CreateMessageRequestSchema,
    ListRootsRequestSchema,
    ElicitRequestSchema,
  ]),
);
/** Every request a 2025-11-25 server may send. */
export type ServerRequest = z.infer<typeof ServerRequestSchema>;

/** Every notification a 2025-11-25 server may send (task status excepted), discriminated by `method`. */
export const ServerNotificationSchema = lazySchema(() =>
  zod.discriminatedUnion('method', [
    CancelledNotificationSchema,
    ProgressNotificationSchema,
    ResourceListChangedNotificationSchema,
    ResourceUpdatedNotificationSchema,
    PromptListChangedNotificationSchema,
    ToolListChangedNotificationSchema,
    LoggingMessageNotificationSchema,
    ElicitationCompleteNotificationSchema,
  ]),
);
/** Every notification a 2025-11-25 server may send. */
export type ServerNotification = z.infer<typeof ServerNotificationSchema>;
