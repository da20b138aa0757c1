// `completion/complete`: argument autocompletion for prompts and resource templates.
import { z } from 'zod';
import { jsonrpcRequest, jsonrpcResultResponse } from './jsonrpc.js';
import { completeResult, RequestParamsSchema } from './meta.js';

/** Names the prompt whose argument is being completed. */
export const PromptReferenceSchema = z.looseObject({
  type: z.literal('ref/prompt'),
  name: z.string(),
  title: z.string().optional(),
});
/** Names a prompt. */
export type PromptReference = z.infer<typeof PromptReferenceSchema>;

/** Names the resource (or resource template, by its URI template) whose variable is being completed. */
export const ResourceTemplateReferenceSchema = z.looseObject({
  type: z.literal('ref/resource'),
  uri: z.string(),
});
/** Names a resource or resource template. */
export type ResourceTemplateReference = z.infer<typeof ResourceTemplateReferenceSchema>;

/**
 * Params of `completion/complete`: what to complete (`ref`), the argument so far, and already-known values.
 */
export const CompleteRequestParamsSchema = RequestParamsSchema.extend({
  ref: z.discriminatedUnion('type', [PromptReferenceSchema, ResourceTemplateReferenceSchema]),
  argument: z.looseObject({
    name: z.string(),
    value: z.string(),
  }),
  context: z
    .looseObject({
      arguments: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
});
/** Params of `completion/complete`. */
export type CompleteRequestParams = z.infer<typeof CompleteRequestParamsSchema>;

/** `completion/complete`: ask for completion options for one argument. */
export const CompleteRequestSchema = jsonrpcRequest('completion/complete', CompleteRequestParamsSchema);
/** `completion/complete` request. */
export type CompleteRequest = z.infer<typeof CompleteRequestSchema>;

/** Completion options: at most 100 `values`, optionally the `total` available and whether there are more. */
export const CompleteResultSchema = completeResult.extend({
  completion: z.looseObject({
    values: z.array(z.string()).max(100),
    total: z.int().optional(),
    hasMore: z.boolean().optional(),
  }),
});
/** Completion options. */
export type CompleteResult = z.infer<typeof CompleteResultSchema>;

/** A successful response to `completion/complete`. */
export const CompleteResultResponseSchema = jsonrpcResultResponse(CompleteResultSchema);
/** A successful response to `completion/complete`. */
export type CompleteResultResponse = z.infer<typeof CompleteResultResponseSchema>;
