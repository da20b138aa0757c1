// Tool definitions and `tools/list`. (`tools/call` lives in tools-call.ts: it depends on the MRTR types,
// which depend on sampling, which embeds tool definitions.)
import type { z } from 'zod';
import { IconSchema, MetaObjectSchema } from './base.js';
import { jsonrpcNotification, jsonrpcRequest, jsonrpcResultResponse } from './jsonrpc.js';
import { cacheableListResult, NotificationParamsSchema, PaginatedRequestParamsSchema } from './meta.js';
import { lazySchema, zod } from './zod.js';

/**
 * Hints about a tool's behaviour (read-only, destructive, idempotent, open-world). Hints only: never base a
 * decision on annotations from an untrusted server.
 */
export const ToolAnnotationsSchema = lazySchema(() =>
  zod.looseObject({
    title: zod.string().optional(),
    readOnlyHint: zod.boolean().optional(),
    destructiveHint: zod.boolean().optional(),
    idempotentHint: zod.boolean().optional(),
    openWorldHint: zod.boolean().optional(),
  }),
);
/** Hints about a tool's behaviour. */
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

/**
 * A tool the client can call. `inputSchema` is a JSON Schema (2020-12 unless `$schema` says otherwise) whose
 * root is `type: "object"`; any other keyword is kept as is.
 */
export const ToolSchema = lazySchema(() =>
  zod.looseObject({
    name: zod.string(),
    title: zod.string().optional(),
    icons: zod.array(IconSchema).optional(),
    description: zod.string().optional(),
    inputSchema: zod.looseObject({
      $schema: zod.string().optional(),
      type: zod.literal('object'),
    }),
    outputSchema: zod.looseObject({ $schema: zod.string().optional() }).optional(),
    annotations: ToolAnnotationsSchema.optional(),
    _meta: MetaObjectSchema.optional(),
  }),
);
/** A tool the client can call. */
export type Tool = z.infer<typeof ToolSchema>;

/** `tools/list`: one page of the server's tools. */
export const ListToolsRequestSchema = lazySchema(() =>
  jsonrpcRequest('tools/list', PaginatedRequestParamsSchema),
);
/** `tools/list` request. */
export type ListToolsRequest = z.infer<typeof ListToolsRequestSchema>;

/** The result of `tools/list`: a page of tools, cacheable for `ttlMs`. */
export const ListToolsResultSchema = lazySchema(() =>
  cacheableListResult.extend({
    tools: zod.array(ToolSchema),
  }),
);
/** The result of `tools/list`. */
export type ListToolsResult = z.infer<typeof ListToolsResultSchema>;

/** A successful response to `tools/list`. */
export const ListToolsResultResponseSchema = lazySchema(() => jsonrpcResultResponse(ListToolsResultSchema));
/** A successful response to `tools/list`. */
export type ListToolsResultResponse = z.infer<typeof ListToolsResultResponseSchema>;

/** Sent on a `subscriptions/listen` stream that asked for `toolsListChanged`: the tool list changed. */
export const ToolListChangedNotificationSchema = lazySchema(() =>
  jsonrpcNotification('notifications/tools/list_changed', NotificationParamsSchema.optional()),
);
/** The tool list changed. */
export type ToolListChangedNotification = z.infer<typeof ToolListChangedNotificationSchema>;
