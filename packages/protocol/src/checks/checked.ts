// The messages a client reads with a hand-written check first and zod only on demand (checks/index.ts): each by
// the name of its zod schema without `Schema`, with its type.
import type { z } from 'zod';
import type {
  CallToolResult,
  CompleteResult,
  CreateMessageResult,
  DiscoverResult,
  ElicitResult,
  GetPromptResult,
  InputRequests,
  InputRequiredResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListRootsResult,
  ListToolsResult,
  LoggingMessageNotificationParams,
  ProgressNotificationParams,
  ReadResourceResult,
} from '../schema/index.js';
import type { CreateTaskResult, DetailedTask, GetTaskResult } from '../tasks/task.js';

/**
 * What a client validates, by schema name (`CallToolResult` is `CallToolResultSchema` of
 * @boomerang/protocol/schemas, `CreateTaskResult` `CreateTaskResultSchema` of @boomerang/protocol/tasks): the
 * results of the methods it sends, the input requests of a round and its callbacks' answers, the notifications it
 * routes, and the tasks extension's answers.
 */
export interface CheckedMessages {
  DiscoverResult: DiscoverResult;
  ListToolsResult: ListToolsResult;
  CallToolResult: CallToolResult;
  ListPromptsResult: ListPromptsResult;
  GetPromptResult: GetPromptResult;
  ListResourcesResult: ListResourcesResult;
  ListResourceTemplatesResult: ListResourceTemplatesResult;
  ReadResourceResult: ReadResourceResult;
  CompleteResult: CompleteResult;
  InputRequiredResult: InputRequiredResult;
  InputRequests: InputRequests;
  ElicitResult: ElicitResult;
  CreateMessageResult: CreateMessageResult;
  ListRootsResult: ListRootsResult;
  LoggingMessageNotificationParams: LoggingMessageNotificationParams;
  ProgressNotificationParams: ProgressNotificationParams;
  CreateTaskResult: CreateTaskResult;
  GetTaskResult: GetTaskResult;
  DetailedTask: DetailedTask;
}

/** The name of a message in {@link CheckedMessages}. */
export type CheckedName = keyof CheckedMessages;

/**
 * zod's verdict on a value, as far as a hand-written check knows it: `true` (zod accepts it, and its output equals
 * the value up to member order), `false` (zod rejects it), `undefined` (only zod can tell).
 */
export type Verdict = boolean | undefined;

/** What `schema.safeParse(value)` gives: the parsed value, or zod's error with its issues. */
export type LazyParseResult<T> =
  | { readonly success: true; readonly data: T; readonly error?: undefined }
  | { readonly success: false; readonly error: z.ZodError; readonly data?: undefined };
