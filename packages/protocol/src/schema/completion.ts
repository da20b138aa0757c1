// `completion/complete`: argument autocompletion for prompts and resource templates.
import type { z } from 'zod';
import { jsonrpcRequest, jsonrpcResultResponse } from './jsonrpc.js';
import { completeResult, RequestParamsSchema } from './meta.js';
import { lazySchema, zod } from './zod.js';

/** Names the prompt whose argument is being completed. */
export const PromptReferenceSchema = lazySchema(() =>
  zod.looseObject({
    type: zod.literal('ref/prompt'),
    name: zod.string(),
    title: zod.string().optional(),
  }),
);
/** Names a prompt. */
export type PromptReference = z.infer<typeof PromptReferenceSchema>;

/** Names the resource (or resource template, by its URI template) whose variable is being completed. */
export const ResourceTemplateReferenceSchema = lazySchema(() =>
  zod.looseObject({
    type: zod.literal('ref/resource'),
    uri: zod.string(),
  }),
);
/** Names a resource or resource template. */
export type ResourceTemplateReference = z.infer<typeof ResourceTemplateReferenceSchema>;

/**
 * Params of `completion/complete`: what to complete (`ref`), the argument so far, and already-known values.
 */
export const CompleteRequestParamsSchema = lazySchema(() =>
  RequestParamsSchema.extend({
    ref: zod.discriminatedUnion('type', [PromptReferenceSchema, ResourceTemplateReferenceSchema]),
    argument: zod.looseObject({
      name: zod.string(),
      value: zod.string(),
    }),
    context: zod
      .looseObject({
        arguments: zod.record(zod.string(), zod.string()).optional(),
      })
      .optional(),
  }),
);
/** Params of `completion/complete`. */
export type CompleteRequestParams = z.infer<typeof CompleteRequestParamsSchema>;

/** `completion/complete`: ask for completion options for one argument. */
export const CompleteRequestSchema = lazySchema(() =>
  jsonrpcRequest('completion/complete', CompleteRequestParamsSchema),
);
/** `completion/complete` request. */
export type CompleteRequest = z.infer<typeof CompleteRequestSchema>;

/** Completion options: at most 100 `values`, optionally the `total` available and whether there are more. */
export const CompleteResultSchema = lazySchema(() =>
  completeResult.extend({
    completion: zod.looseObject({
      values: zod.array(zod.string()).max(100),
      total: zod.int().optional(),
      hasMore: zod.boolean().optional(),
    }),
  }),
);
/** Completion options. */
export type CompleteResult = z.infer<typeof CompleteResultSchema>;

/** A successful response to `completion/complete`. */
export const CompleteResultResponseSchema = lazySchema(() => jsonrpcResultResponse(CompleteResultSchema));
/** A successful response to `completion/complete`. */
export type CompleteResultResponse = z.infer<typeof CompleteResultResponseSchema>;
