// @boomerang/client: an MCP 2026-07-28 client whose calls run the multi-round-trip (MRTR) loop for you.
// `isInputRequired` (to narrow `client.session` results) comes from `@boomerang/protocol`.

// --- result cache
export {
  type CacheEntry,
  type CacheStore,
  type ClientCacheOptions,
  createMemoryCacheStore,
  type MemoryCacheStoreOptions,
} from './cache.js';
// --- callbacks and capabilities
export type { ElicitationMode } from './capabilities.js';
// --- the client
export { Client } from './client.js';
// --- transports: a stream transport seen as a request transport (what connect() does with stdio, in memory)
export { correlate } from './correlator.js';
// --- errors
export {
  type CallDescription,
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
export type { RoundInputs } from './mrtr-loop.js';
export type {
  ClientOptions,
  CompleteParams,
  InputRequiredCallOptions,
  ListParams,
  RequestOptions,
} from './options.js';
export type { ProgressHandler } from './requester.js';
export { ClientSession, type SessionBackend, type SessionCallOptions } from './session.js';
// --- subscriptions/listen
export type { ListenNotification, ListenOptions, Subscription } from './subscription.js';
