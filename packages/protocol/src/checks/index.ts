// @boomerang/protocol/internal: how the SDK's own packages read what a client receives without loading zod up
// front. A hand-written check (no zod) judges each message first; only a value it cannot vouch for goes to the
// message's zod schema, loaded on demand (a dynamic import: a browser bundle ships zod as a chunk of its own). The
// verdict, the output and the issues of a rejection are always zod's: the checks accept only what zod accepts,
// with zod's output (checks.test.ts pits every check against its schema, on generated values and the spec's own
// examples).
//
// It also holds the table of input-request kinds (input-request-kinds.ts), which the SDK's packages read instead
// of branching on an input request's method.
import type { CheckedMessages, CheckedName, LazyParseResult, Verdict } from './checked.js';
import { isCreateMessageResult, isElicitResult, isListRootsResult } from './input-requests.js';
import { logParamsVerdict, progressParamsVerdict } from './notifications.js';
import {
  isCallToolResult,
  isCompleteResult,
  isDiscoverResult,
  isGetPromptResult,
  isListPromptsResult,
  isListResourcesResult,
  isListResourceTemplatesResult,
  isListToolsResult,
  isReadResourceResult,
} from './results.js';
import { isInputRequests, isInputRequiredResult } from './round.js';
import type { Check } from './shapes.js';
import { isCreateTaskResult, isDetailedTask, isGetTaskResult } from './tasks.js';

// --- the kinds of input request
export {
  type AnyInputRequestKind,
  type CapabilityNeed,
  INPUT_REQUEST_KINDS,
  type InputRequestCapability,
  type InputRequestCapabilityName,
  type InputRequestKind,
  type InputRequestKinds,
  type InputRequestMethod,
  type InputRequestParams,
  type InputResponseName,
  inputRequestKind,
  type LegacyCounterpart,
  type LegacySchemaName,
  type SchemaName,
} from '../input-request-kinds.js';
// --- the one default logger (the Logger type itself is public: @boomerang/protocol)
export { consoleLogger, LOG_PREFIX, type ResolvedLogger, resolveLogger } from '../logger.js';
export type { CheckedMessages, CheckedName, LazyParseResult, Verdict };

/** A check that vouches for what it accepts and leaves everything else to zod. */
const vouching =
  (check: Check) =>
  (value: unknown): Verdict =>
    check(value) || undefined;

/** The check of each message. */
const VERDICTS: { readonly [N in CheckedName]: (value: unknown) => Verdict } = {
  DiscoverResult: vouching(isDiscoverResult),
  ListToolsResult: vouching(isListToolsResult),
  CallToolResult: vouching(isCallToolResult),
  ListPromptsResult: vouching(isListPromptsResult),
  GetPromptResult: vouching(isGetPromptResult),
  ListResourcesResult: vouching(isListResourcesResult),
  ListResourceTemplatesResult: vouching(isListResourceTemplatesResult),
  ReadResourceResult: vouching(isReadResourceResult),
  CompleteResult: vouching(isCompleteResult),
  InputRequiredResult: vouching(isInputRequiredResult),
  InputRequests: vouching(isInputRequests),
  ElicitResult: vouching(isElicitResult),
  CreateMessageResult: vouching(isCreateMessageResult),
  ListRootsResult: vouching(isListRootsResult),
  LoggingMessageNotificationParams: logParamsVerdict,
  ProgressNotificationParams: progressParamsVerdict,
  CreateTaskResult: vouching(isCreateTaskResult),
  GetTaskResult: vouching(isGetTaskResult),
  DetailedTask: vouching(isDetailedTask),
};

/**
 * zod's verdict on `value` as the message `name` (its schema is `<name>Schema`), when a hand-written check can
 * tell without zod: `true` when zod accepts it and its output would equal `value` (up to member order), `false`
 * when zod rejects it (only the notification checks say so: they mirror their small schemas exactly), `undefined`
 * when only zod can tell ({@link parseLazily} then asks it). Synchronous, and never loads zod.
 */
export function verdictOf(name: CheckedName, value: unknown): Verdict {
  return VERDICTS[name](value);
}

/**
 * `<name>Schema.safeParse(value)`, with zod loaded only when needed: `{ success: true, data: value }` at once
 * when the hand-written check accepts `value` (the value itself, equal to zod's output up to member order);
 * otherwise a promise of zod's own result, the schemas and zod being imported on first use. So a valid message
 * costs no zod at all, and a rejection carries exactly the issues zod gives.
 */
export function parseLazily<N extends CheckedName>(
  name: N,
  value: unknown,
): LazyParseResult<CheckedMessages[N]> | Promise<LazyParseResult<CheckedMessages[N]>> {
  if (VERDICTS[name](value) === true) return { success: true, data: value as CheckedMessages[N] };
  return import('./on-demand.js').then((zod) => zod.parseWithZod(name, value));
}
