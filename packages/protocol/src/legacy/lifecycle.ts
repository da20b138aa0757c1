// 2025-11-25 session lifecycle: `initialize`, `notifications/initialized`, `ping` and `logging/setLevel`.
import { z } from 'zod';
import { ImplementationSchema, LoggingLevelSchema } from '../schema/index.js';
import { jsonrpcNotification, jsonrpcRequest } from '../schema/jsonrpc.js';
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
export const InitializeRequestParamsSchema = RequestParamsSchema.extend({
  protocolVersion: z.string(),
  capabilities: ClientCapabilitiesSchema,
  clientInfo: ImplementationSchema,
});
/** Params of `initialize`. */
export type InitializeRequestParams = z.infer<typeof InitializeRequestParamsSchema>;

/** `initialize`: the first request of a 2025-11-25 session; a server seeing it takes the legacy path. */
export const InitializeRequestSchema = jsonrpcRequest('initialize', InitializeRequestParamsSchema);
/** `initialize` request. */
export type InitializeRequest = z.infer<typeof InitializeRequestSchema>;

/**
 * The server's answer to `initialize`: the version it will speak (the client disconnects if it cannot), its
 * capabilities, its self-description and optional instructions.
 */
export const InitializeResultSchema = ResultSchema.extend({
  protocolVersion: z.string(),
  capabilities: ServerCapabilitiesSchema,
  serverInfo: ImplementationSchema,
  instructions: z.string().optional(),
});
/** The server's answer to `initialize`. */
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

/** Sent by the client once initialization is done; only then may the session carry other requests. */
export const InitializedNotificationSchema = jsonrpcNotification(
  'notifications/initialized',
  NotificationParamsSchema.optional(),
);
/** Initialization is done. */
export type InitializedNotification = z.infer<typeof InitializedNotificationSchema>;

/** `ping`: either side checks the other is alive; the answer is an empty result. */
export const PingRequestSchema = jsonrpcRequest('ping', RequestParamsSchema.optional());
/** `ping` request. */
export type PingRequest = z.infer<typeof PingRequestSchema>;

/** Params of `logging/setLevel`: the lowest level of `notifications/message` the client wants. */
export const SetLevelRequestParamsSchema = RequestParamsSchema.extend({
  level: LoggingLevelSchema,
});
/** Params of `logging/setLevel`. */
export type SetLevelRequestParams = z.infer<typeof SetLevelRequestParamsSchema>;

/** `logging/setLevel`: session-wide log level (2026-07-28 sets it per request in `_meta` instead). */
export const SetLevelRequestSchema = jsonrpcRequest('logging/setLevel', SetLevelRequestParamsSchema);
/** `logging/setLevel` request. */
export type SetLevelRequest = z.infer<typeof SetLevelRequestSchema>;
