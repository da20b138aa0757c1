// Prompts: `prompts/list`, `prompts/get` (an MRTR method) and the list-changed notification.
import { z } from 'zod';
import { IconSchema, MetaObjectSchema, RoleSchema } from './base.js';
import { ContentBlockSchema } from './content.js';
import { jsonrpcNotification, jsonrpcRequest, jsonrpcResultResponse } from './jsonrpc.js';
import {
  cacheableListResult,
  completeResult,
  NotificationParamsSchema,
  PaginatedRequestParamsSchema,
} from './meta.js';
import { InputRequiredResultSchema, InputResponseRequestParamsSchema } from './mrtr.js';

/** An argument a prompt template accepts; arguments are strings on the wire. */
export const PromptArgumentSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
});
/** An argument a prompt template accepts. */
export type PromptArgument = z.infer<typeof PromptArgumentSchema>;

/** A prompt or prompt template the server offers. */
export const PromptSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  icons: z.array(IconSchema).optional(),
  description: z.string().optional(),
  arguments: z.array(PromptArgumentSchema).optional(),
  _meta: MetaObjectSchema.optional(),
});
/** A prompt or prompt template. */
export type Prompt = z.infer<typeof PromptSchema>;

/** One message of a rendered prompt; unlike a sampling message it may embed resources. */
export const PromptMessageSchema = z.looseObject({
  role: RoleSchema,
  content: ContentBlockSchema,
});
/** One message of a rendered prompt. */
export type PromptMessage = z.infer<typeof PromptMessageSchema>;

/** `prompts/list`: one page of the server's prompts. */
export const ListPromptsRequestSchema = jsonrpcRequest('prompts/list', PaginatedRequestParamsSchema);
/** `prompts/list` request. */
export type ListPromptsRequest = z.infer<typeof ListPromptsRequestSchema>;

/** The result of `prompts/list`: a page of prompts, cacheable for `ttlMs`. */
export const ListPromptsResultSchema = cacheableListResult.extend({
  prompts: z.array(PromptSchema),
});
/** The result of `prompts/list`. */
export type ListPromptsResult = z.infer<typeof ListPromptsResultSchema>;

/** A successful response to `prompts/list`. */
export const ListPromptsResultResponseSchema = jsonrpcResultResponse(ListPromptsResultSchema);
/** A successful response to `prompts/list`. */
export type ListPromptsResultResponse = z.infer<typeof ListPromptsResultResponseSchema>;

/**
 * Params of `prompts/get`: the prompt `name`, string `arguments`, and on a retry the MRTR answers and state.
 */
export const GetPromptRequestParamsSchema = InputResponseRequestParamsSchema.extend({
  name: z.string(),
  arguments: z.record(z.string(), z.string()).optional(),
});
/** Params of `prompts/get`. */
export type GetPromptRequestParams = z.infer<typeof GetPromptRequestParamsSchema>;

/** `prompts/get`: render a prompt. May be answered with an `InputRequiredResult`. */
export const GetPromptRequestSchema = jsonrpcRequest('prompts/get', GetPromptRequestParamsSchema);
/** `prompts/get` request. */
export type GetPromptRequest = z.infer<typeof GetPromptRequestSchema>;

/** A rendered prompt: its messages and an optional description. */
export const GetPromptResultSchema = completeResult.extend({
  description: z.string().optional(),
  messages: z.array(PromptMessageSchema),
});
/** A rendered prompt. */
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;

/** A successful response to `prompts/get`: the rendered prompt or a request for input, by `resultType`. */
export const GetPromptResultResponseSchema = jsonrpcResultResponse(
  z.discriminatedUnion('resultType', [GetPromptResultSchema, InputRequiredResultSchema]),
);
/** A successful response to `prompts/get`. */
export type GetPromptResultResponse = z.infer<typeof GetPromptResultResponseSchema>;

/** Sent on a `subscriptions/listen` stream that asked for `promptsListChanged`: the prompt list changed. */
export const PromptListChangedNotificationSchema = jsonrpcNotification(
  'notifications/prompts/list_changed',
  NotificationParamsSchema.optional(),
);
/** The prompt list changed. */
export type PromptListChangedNotification = z.infer<typeof PromptListChangedNotificationSchema>;
