// `tools/call`: the request, its final result, and the response that may instead ask for input (MRTR).
import type { z } from 'zod';
import { openObject } from './base.js';
import { ContentBlockSchema } from './content.js';
import { jsonrpcRequest, jsonrpcResultResponse } from './jsonrpc.js';
import { completeResult } from './meta.js';
import { InputRequiredResultSchema, InputResponseRequestParamsSchema } from './mrtr.js';
import { lazySchema, zod } from './zod.js';

/** Params of `tools/call`: the tool `name`, its `arguments`, and on a retry the MRTR answers and state. */
export const CallToolRequestParamsSchema = lazySchema(() =>
  InputResponseRequestParamsSchema.extend({
    name: zod.string(),
    arguments: openObject.optional(),
  }),
);
/** Params of `tools/call`. */
export type CallToolRequestParams = z.infer<typeof CallToolRequestParamsSchema>;

/** `tools/call`: invoke a tool. May be answered with an `InputRequiredResult`. */
export const CallToolRequestSchema = lazySchema(() =>
  jsonrpcRequest('tools/call', CallToolRequestParamsSchema),
);
/** `tools/call` request. */
export type CallToolRequest = z.infer<typeof CallToolRequestSchema>;

/**
 * A tool's final result: content blocks for the model, optional `structuredContent` (matching
 * `outputSchema`), and `isError` for failures the model should see (protocol failures are JSON-RPC errors
 * instead).
 */
export const CallToolResultSchema = lazySchema(() =>
  completeResult.extend({
    content: zod.array(ContentBlockSchema),
    structuredContent: zod.unknown().optional(),
    isError: zod.boolean().optional(),
  }),
);
/** A tool's final result. */
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

/** A successful response to `tools/call`: the final result or a request for input, by `resultType`. */
export const CallToolResultResponseSchema = lazySchema(() =>
  jsonrpcResultResponse(
    zod.discriminatedUnion('resultType', [CallToolResultSchema, InputRequiredResultSchema]),
  ),
);
/** A successful response to `tools/call`. */
export type CallToolResultResponse = z.infer<typeof CallToolResultResponseSchema>;
