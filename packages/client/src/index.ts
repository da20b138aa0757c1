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
export { CONTINUATION_VERSION, type Continuation, type Step } from './continuation.js';
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
  ElicitationCallback,
  InputCallbacks,
  InputRequestContext,
  RootsCallback,
  SamplingCallback,
} from './input-requests.js';
export type {
  CachedCallOptions,
  CallOptions,
  ClientOptions,
  ClientTaskOptions,
  CompleteParams,
  ListParams,
  RequestOptions,
  TaskCallback,
} from './options.js';
export type { ProgressHandler } from './requester.js';
// --- subscriptions/listen
export type { ListenNotification, ListenOptions, Subscription } from './subscription.js';
// --- the tasks extension (io.modelcontextprotocol/tasks): client.tasks; the wire shapes: @boomerang/protocol/tasks
export type { ClientTasks } from './tasks.js';
