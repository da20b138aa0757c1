// @boomerang/client: an MCP 2026-07-28 client whose calls run the multi-round-trip (MRTR) loop for you.

// --- result cache
export {
  type CacheEntry,
  type CacheStore,
  type ClientCacheOptions,
  createMemoryCacheStore,
  type MemoryCacheStoreOptions,
} from './cache.js';
// --- continuations: a flow paused at a round that asks, as plain JSON (start / resume)
export type { InputRequiredParams } from './calls.js';
// --- callbacks and capabilities
export type { ElicitationMode } from './capabilities.js';
// --- the client
export { Client } from './client.js';
export { CONTINUATION_VERSION, type Continuation, MAX_CALL_CARRIED, type Step } from './continuation.js';
// --- transports: a stream transport seen as a request transport (what connect() does with stdio, in memory)
export { correlate } from './correlator.js';
// --- errors
export {
  ClientError,
  type ClientErrorDetails,
  type ClientErrorReason,
  isClientError,
  type OriginatingRequest,
} from './errors.js';
export type {
  ElicitAnswer,
  ElicitationCallback,
  InputCallbacks,
  InputRequestContext,
  RootsCallback,
  SamplingCallback,
} from './input-requests.js';
// --- log messages
export type { LogContext, LogHandler } from './logging.js';
// --- middleware (client.use): around every request, each round of every call
export type {
  CallOutcome,
  ClientCallContext,
  ClientMiddleware,
  ClientMiddlewareContext,
} from './middleware.js';
export type {
  CachedCallOptions,
  CallOptions,
  ClientOptions,
  ClientTaskOptions,
  CompleteParams,
  ListAllOptions,
  ListParams,
  RequestOptions,
  TaskCallback,
} from './options.js';
// --- every page of a list
export type { Page, Paginated } from './pagination.js';
export type { ProgressHandler } from './requester.js';
// --- subscriptions/listen
export type { ListenNotification, ListenOptions, Subscription } from './subscription.js';
// --- the tasks extension (io.modelcontextprotocol/tasks): client.tasks; the wire shapes: @boomerang/protocol/tasks
export type { ClientTasks } from './tasks.js';
