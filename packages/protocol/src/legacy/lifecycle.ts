// 2025-11-25 session lifecycle: `initialize`, `notifications/initialized`, `ping` and `logging/setLevel`.
import type { z } from 'zod';
import { ImplementationSchema, LoggingLevelSchema } from '../schema/index.js';
import { jsonrpcNotification, jsonrpcRequest } from '../schema/jsonrpc.js';
import { lazySchema, zod } from '../schema/zod.js';
import {
  ClientCapabilitiesSchema,
  NotificationParamsSchema,
  RequestParamsSchema,
  ResultSchema,
  ServerCapabilitiesSchema,
} from './base.js';

/**
 * Params of `initialize`: the newest version the client speaks, its capabilities and its self-description.
 */
export const InitializeRequestParamsSchema = lazySchema(() =>
  RequestParamsSchema.extend({
    protocolVersion: zod.string(),
    capabilities: ClientCapabilitiesSchema,
    clientInfo: ImplementationSchema,
  }),
);
/** Params of `initialize`. */
export type InitializeRequestParams = z.infer<typeof InitializeRequestParamsSchema>;

/** `initialize`: the first request of a 2025-11-25 session; a server seeing it takes the legacy path. */
export const InitializeRequestSchema = lazySchema(() =>
  jsonrpcRequest('initialize', InitializeRequestParamsSchema),
);
/** `initialize` request. */
export type InitializeRequest = z.infer<typeof InitializeRequestSchema>;

/**
 * The server's answer to `initialize`: the version it will speak (the client disconnects if it cannot), its
 * capabilities, its self-description and optional instructions.
 */
export const InitializeResultSchema = lazySchema(() =>
  ResultSchema.extend({
    protocolVersion: zod.string(),
    capabilities: ServerCapabilitiesSchema,
    serverInfo: ImplementationSchema,
    instructions: zod.string().optional(),
  }),
);
/** The server's answer to `initialize`. */
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

/** Sent by the client once initialization is done; only then may the session carry other requests. */
export const InitializedNotificationSchema = lazySchema(() =>
  jsonrpcNotification('notifications/initialized', NotificationParamsSchema.optional()),
);
/** Initialization is done. */
export type InitializedNotification = z.infer<typeof InitializedNotificationSchema>;

/** `ping`: either side checks the other is alive; the answer is an empty result. */
export const PingRequestSchema = lazySchema(() => jsonrpcRequest('ping', RequestParamsSchema.optional()));
/** `ping` request. */
export type PingRequest = z.infer<typeof PingRequestSchema>;

/** Params of `logging/setLevel`: the lowest level of `notifications/message` the client wants. */
export const SetLevelRequestParamsSchema = lazySchema(() =>
  RequestParamsSchema.extend({
    level: LoggingLevelSchema,
  }),
);
/** Params of `logging/setLevel`. */
export type SetLevelRequestParams = z.infer<typeof SetLevelRequestParamsSchema>;

/** `logging/setLevel`: session-wide log level (2026-07-28 sets it per request in `_meta` instead). */
export const SetLevelRequestSchema = lazySchema(() =>
  jsonrpcRequest('logging/setLevel', SetLevelRequestParamsSchema),
);
/** `logging/setLevel` request. */
export type SetLevelRequest = z.infer<typeof SetLevelRequestSchema>;
