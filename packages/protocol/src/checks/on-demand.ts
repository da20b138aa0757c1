// The zod side of @boomerang/protocol/internal: the schema of each checked message. Only a dynamic `import()` in
// index.ts loads this module, so a bundle that reads messages through the checks ships zod (and the schemas) as a
// chunk of its own, fetched the first time a value needs zod's verdict or issues.
import {
  CallToolResultSchema,
  CompleteResultSchema,
  CreateMessageResultSchema,
  DiscoverResultSchema,
  ElicitResultSchema,
  GetPromptResultSchema,
  InputRequestsSchema,
  InputRequiredResultSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListRootsResultSchema,
  ListToolsResultSchema,
  LoggingMessageNotificationParamsSchema,
  ProgressNotificationParamsSchema,
  ReadResourceResultSchema,
} from '../schema/index.js';
import { CreateTaskResultSchema, DetailedTaskSchema, GetTaskResultSchema } from '../tasks/schema.js';
import type { CheckedMessages, CheckedName, LazyParseResult } from './checked.js';

/** What this module needs of a zod schema. */
interface ZodParser {
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown };
}

/** The zod schema of each checked message: `<name>Schema`. */
export const CHECKED_SCHEMAS: { readonly [N in CheckedName]: ZodParser } = {
  DiscoverResult: DiscoverResultSchema,
  ListToolsResult: ListToolsResultSchema,
  CallToolResult: CallToolResultSchema,
  ListPromptsResult: ListPromptsResultSchema,
  GetPromptResult: GetPromptResultSchema,
  ListResourcesResult: ListResourcesResultSchema,
  ListResourceTemplatesResult: ListResourceTemplatesResultSchema,
  ReadResourceResult: ReadResourceResultSchema,
  CompleteResult: CompleteResultSchema,
  InputRequiredResult: InputRequiredResultSchema,
  InputRequests: InputRequestsSchema,
  ElicitResult: ElicitResultSchema,
  CreateMessageResult: CreateMessageResultSchema,
  ListRootsResult: ListRootsResultSchema,
  LoggingMessageNotificationParams: LoggingMessageNotificationParamsSchema,
  ProgressNotificationParams: ProgressNotificationParamsSchema,
  CreateTaskResult: CreateTaskResultSchema,
  GetTaskResult: GetTaskResultSchema,
  DetailedTask: DetailedTaskSchema,
};

/** `<name>Schema.safeParse(value)`: zod's own verdict, output and issues. */
export function parseWithZod<N extends CheckedName>(
  name: N,
  value: unknown,
): LazyParseResult<CheckedMessages[N]> {
  return CHECKED_SCHEMAS[name].safeParse(value) as LazyParseResult<CheckedMessages[N]>;
}
