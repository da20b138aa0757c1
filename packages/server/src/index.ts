// @boomerang/server: the low-level MCP 2026-07-28 server (handlers, per-request validation, server/discover,
// capability checks, multi-round-trip results) and sealed(), the MCP request-state envelope.

// --- capability checks, for extensions that send input requests outside a response (tasks)
export { missingClientCapabilities } from './capabilities.js';
export type { ConnectOptions, ServerConnection } from './connect.js';
// --- custom methods and extensions
export { defineMethod } from './custom-methods.js';
// --- middleware and limits
export {
  MAX_CARRIED_BYTES,
  type ServerMiddleware,
  type ServerMiddlewareContext,
} from './middleware.js';
export type {
  BusNotificationOptions,
  NotificationBus,
  NotificationBusEvents,
  SharedNotificationSource,
} from './notification-bus.js';
export { busNotificationSource } from './notification-bus.js';
export type {
  NotificationSource,
  SubscribeOptions,
  SubscriptionListener,
  SubscriptionNotification,
  TaskStatusNotification,
  Unsubscribe,
} from './notifications.js';
// --- subscriptions/listen
export { createNotificationHub, notificationMatches } from './notifications.js';
export {
  type BucketRule,
  type MemoryRateLimitStoreOptions,
  memoryRateLimitStore,
  principalKey,
  type RateLimitDecision,
  type RateLimitOptions,
  type RateLimitStore,
  rateLimit,
  rateLimited,
} from './rate-limit.js';
export type {
  OpenedState,
  PrincipalBinder,
  RequestStateBinding,
  RequestStateEnvelope,
  SealedOptions,
  StateFrame,
} from './sealed.js';
// --- request-state sealing
export { sealed } from './sealed.js';
// --- the server
export { Server } from './server.js';
export type {
  CacheHints,
  CacheOptions,
  CacheScope,
  ExtensionResult,
  ExtensionSubscriptions,
  Handler,
  HandlerResult,
  LegacyOptions,
  LogFn,
  Logger,
  MaybePromise,
  MethodDefinition,
  MethodResult,
  RequestContext,
  ResultTypeDefinition,
  ServerExtension,
  ServerHandlers,
  ServerOptions,
  TaskPolicy,
  TaskStart,
  TaskSupport,
} from './types.js';
