// Prompts: `prompts/list`, `prompts/get` (an MRTR method) and the list-changed notification.
import type { z } from 'zod';
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
import { lazySchema, zod } from './zod.js';

/** An argument a prompt template accepts; arguments are strings on the wire. */
export const PromptArgumentSchema = lazySchema(() =>
  zod.looseObject({
    name: zod.string(),
    title: zod.string().optional(),
    description: zod.string().optional(),
    required: zod.boolean().optional(),
  }),
);
/** An argument a prompt template accepts. */
export type PromptArgument = z.infer<typeof PromptArgumentSchema>;

/** A prompt or prompt template the server offers. */
export const PromptSchema = lazySchema(() =>
  zod.looseObject({
    name: zod.string(),
    title: zod.string().optional(),
    icons: zod.array(IconSchema).optional(),
    description: zod.string().optional(),
    arguments: zod.array(PromptArgumentSchema).optional(),
    _meta: MetaObjectSchema.optional(),
  }),
);
/** A prompt or prompt template. */
export type Prompt = z.infer<typeof PromptSchema>;

/** One message of a rendered prompt; unlike a sampling message it may embed resources. */
export const PromptMessageSchema = lazySchema(() =>
  zod.looseObject({
    role: RoleSchema,
    content: ContentBlockSchema,
  }),
);
/** One message of a rendered prompt. */
export type PromptMessage = z.infer<typeof PromptMessageSchema>;

/** `prompts/list`: one page of the server's prompts. */
export const ListPromptsRequestSchema = lazySchema(() =>
  jsonrpcRequest('prompts/list', PaginatedRequestParamsSchema),
);
/** `prompts/list` request. */
export type ListPromptsRequest = z.infer<typeof ListPromptsRequestSchema>;

/** The result of `prompts/list`: a page of prompts, cacheable for `ttlMs`. */
export const ListPromptsResultSchema = lazySchema(() =>
  cacheableListResult.extend({
    prompts: zod.array(PromptSchema),
  }),
);
/** The result of `prompts/list`. */
export type ListPromptsResult = z.infer<typeof ListPromptsResultSchema>;

/** A successful response to `prompts/list`. */
export const ListPromptsResultResponseSchema = lazySchema(() =>
  jsonrpcResultResponse(ListPromptsResultSchema),
);
/** A successful response to `prompts/list`. */
export type ListPromptsResultResponse = z.infer<typeof ListPromptsResultResponseSchema>;

/**
 * Params of `prompts/get`: the prompt `name`, string `arguments`, and on a retry the MRTR answers and state.
 */
export const GetPromptRequestParamsSchema = lazySchema(() =>
  InputResponseRequestParamsSchema.extend({
    name: zod.string(),
    arguments: zod.record(zod.string(), zod.string()).optional(),
  }),
);
/** Params of `prompts/get`. */
export type GetPromptRequestParams = z.infer<typeof GetPromptRequestParamsSchema>;

/** `prompts/get`: render a prompt. May be answered with an `InputRequiredResult`. */
export const GetPromptRequestSchema = lazySchema(() =>
  jsonrpcRequest('prompts/get', GetPromptRequestParamsSchema),
);
/** `prompts/get` request. */
export type GetPromptRequest = z.infer<typeof GetPromptRequestSchema>;

/** A rendered prompt: its messages and an optional description. */
export const GetPromptResultSchema = lazySchema(() =>
  completeResult.extend({
    description: zod.string().optional(),
    messages: zod.array(PromptMessageSchema),
  }),
);
/** A rendered prompt. */
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;

/** A successful response to `prompts/get`: the rendered prompt or a request for input, by `resultType`. */
export const GetPromptResultResponseSchema = lazySchema(() =>
  jsonrpcResultResponse(
    zod.discriminatedUnion('resultType', [GetPromptResultSchema, InputRequiredResultSchema]),
  ),
);
/** A successful response to `prompts/get`. */
export type GetPromptResultResponse = z.infer<typeof GetPromptResultResponseSchema>;

/** Sent on a `subscriptions/listen` stream that asked for `promptsListChanged`: the prompt list changed. */
export const PromptListChangedNotificationSchema = lazySchema(() =>
  jsonrpcNotification('notifications/prompts/list_changed', NotificationParamsSchema.optional()),
);
/** The prompt list changed. */
export type PromptListChangedNotification = z.infer<typeof PromptListChangedNotificationSchema>;
