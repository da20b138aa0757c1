// @boomerang/client: an MCP 2026-07-28 client whose calls run the multi-round-trip (MRTR) loop for you.

// --- the client

export { Client } from './client.js';
export type { ClientLists } from './client-lists.js';
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
export type { ProgressHandler } from './requester.js';

// --- callbacks and capabilities

export type { ElicitationMode } from './capabilities.js';
export type {
  ElicitAnswer,
  ElicitationCallback,
  InputCallbacks,
  InputRequestContext,
  RootsCallback,
  SamplingCallback,
} from './input-requests.js';

// --- continuations: a flow paused at a round that asks, as plain JSON (start / resume)

export type { InputRequiredParams } from './calls.js';
export { CONTINUATION_VERSION, type Continuation, MAX_CALL_CARRIED, type Step } from './continuation.js';

// --- errors

export {
  ClientError,
  type ClientErrorDetails,
  type ClientErrorReason,
  isClientError,
  type OriginatingRequest,
} from './errors.js';

// --- middleware (client.use): around every request, each round of every call

export type {
  CallOutcome,
  ClientCallContext,
  ClientMiddleware,
  ClientMiddlewareContext,
} from './middleware.js';

// --- log messages

export type { LogContext, LogHandler } from './logging.js';

// --- every page of a list

export type { Page, Paginated } from './pagination.js';

// --- result cache

export {
  type CacheEntry,
  type CacheStore,
  type ClientCacheOptions,
  createMemoryCacheStore,
  type MemoryCacheStoreOptions,
} from './cache.js';

// --- subscriptions/listen

export type { ListenNotification, ListenOptions, Subscription } from './subscription.js';

// --- the tasks extension (io.modelcontextprotocol/tasks): client.tasks; the wire shapes: @boomerang/protocol/tasks

export type { ClientTasks } from './tasks.js';

// --- skills (SEP-2640, io.modelcontextprotocol/skills): list, then read on demand, verified

export {
  type InvalidSkillEntry,
  type LoadedSkill,
  type SkillFile,
  type SkillListing,
  SkillsClient,
  type SkillsClientOptions,
  SkillVerificationError,
  type SkillVerificationReason,
} from './skills.js';

// --- transports: a stream transport seen as a request transport (what connect() does with stdio, in memory)

export { correlate } from './correlator.js';
