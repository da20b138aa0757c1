// @boomerang/server: the low-level MCP 2026-07-28 server (handlers, per-request validation, server/discover,
// capability checks, multi-round-trip results) and sealed(), the MCP request-state envelope.

// --- the server

export type { ConnectOptions, ServerConnection } from './connect.js';
export { Server } from './server.js';
export type {
  CacheHints,
  CacheOptions,
  CacheScope,
  Handler,
  HandlerResult,
  LegacyOptions,
  LogFn,
  Logger,
  MaybePromise,
  RequestContext,
  ServerHandlers,
  ServerOptions,
} from './types.js';

// --- request-state sealing

export {
  type OpenedState,
  type PrincipalBinder,
  type RequestStateBinding,
  type RequestStateEnvelope,
  type SealedOptions,
  type StateFrame,
  sealed,
} from './sealed.js';

// --- middleware and limits

export {
  MAX_CARRIED_BYTES,
  type ServerMiddleware,
  type ServerMiddlewareContext,
} from './middleware.js';
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

// --- custom methods and extensions

export { defineMethod } from './custom-methods.js';
export type {
  ExtensionResult,
  ExtensionSubscriptions,
  MethodDefinition,
  MethodResult,
  ResultTypeDefinition,
  ServerExtension,
  TaskPolicy,
  TaskStart,
  TaskSupport,
} from './types.js';

// --- capability checks, for extensions that send input requests outside a response (tasks)

export { missingClientCapabilities } from './capabilities.js';

// --- subscriptions/listen

export {
  type BusNotificationOptions,
  busNotificationSource,
  type NotificationBus,
  type NotificationBusEvents,
  type SharedNotificationSource,
} from './notification-bus.js';
export {
  createNotificationHub,
  type NotificationSource,
  notificationMatches,
  type SubscribeOptions,
  type SubscriptionListener,
  type SubscriptionNotification,
  type Unsubscribe,
} from './notifications.js';
