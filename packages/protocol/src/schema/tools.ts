// Tool definitions and `tools/list`. (`tools/call` lives in tools-call.ts: it depends on the MRTR types,
// which depend on sampling, which embeds tool definitions.)
import { z } from 'zod';
import { IconSchema, MetaObjectSchema } from './base.js';
import { jsonrpcNotification, jsonrpcRequest, jsonrpcResultResponse } from './jsonrpc.js';
import { cacheableListResult, NotificationParamsSchema, PaginatedRequestParamsSchema } from './meta.js';

/**
 * Hints about a tool's behaviour (read-only, destructive, idempotent, open-world). Hints only: never base a
 * decision on annotations from an untrusted server.
 */
export const ToolAnnotationsSchema = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});
/** Hints about a tool's behaviour. */
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

/**
 * A tool the client can call. `inputSchema` is a JSON Schema (2020-12 unless `$schema` says otherwise) whose
 * root is `type: "object"`; any other keyword is kept as is.
 */
export const ToolSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  icons: z.array(IconSchema).optional(),
  description: z.string().optional(),
  inputSchema: z.looseObject({
    $schema: z.string().optional(),
    type: z.literal('object'),
  }),
  outputSchema: z.looseObject({ $schema: z.string().optional() }).optional(),
  annotations: ToolAnnotationsSchema.optional(),
  _meta: MetaObjectSchema.optional(),
});
/** A tool the client can call. */
export type Tool = z.infer<typeof ToolSchema>;

/** `tools/list`: one page of the server's tools. */
export const ListToolsRequestSchema = jsonrpcRequest('tools/list', PaginatedRequestParamsSchema);
/** `tools/list` request. */
export type ListToolsRequest = z.infer<typeof ListToolsRequestSchema>;

/** The result of `tools/list`: a page of tools, cacheable for `ttlMs`. */
export const ListToolsResultSchema = cacheableListResult.extend({
  tools: z.array(ToolSchema),
});
/** The result of `tools/list`. */
export type ListToolsResult = z.infer<typeof ListToolsResultSchema>;

/** A successful response to `tools/list`. */
export const ListToolsResultResponseSchema = jsonrpcResultResponse(ListToolsResultSchema);
/** A successful response to `tools/list`. */
export type ListToolsResultResponse = z.infer<typeof ListToolsResultResponseSchema>;

/** Sent on a `subscriptions/listen` stream that asked for `toolsListChanged`: the tool list changed. */
export const ToolListChangedNotificationSchema = jsonrpcNotification(
  'notifications/tools/list_changed',
  NotificationParamsSchema.optional(),
);
/** The tool list changed. */
export type ToolListChangedNotification = z.infer<typeof ToolListChangedNotificationSchema>;
