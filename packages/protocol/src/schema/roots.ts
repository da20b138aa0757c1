// `roots/list`: the directories or files the client lets the server work on (as an MRTR input request).
// Deprecated in 2026-07-28 (SEP-2577); kept for at least twelve months.
import { z } from 'zod';
import { MetaObjectSchema } from './base.js';

/** A root the server may operate on: a `file://` URI and an optional display name. */
export const RootSchema = z.looseObject({
  uri: z.string(),
  name: z.string().optional(),
  _meta: MetaObjectSchema.optional(),
});
/** A root the server may operate on. */
export type Root = z.infer<typeof RootSchema>;

/** An input request asking the client for its roots (embedded, no JSON-RPC envelope). */
export const ListRootsRequestSchema = z.looseObject({
  method: z.literal('roots/list'),
  params: z.looseObject({ _meta: MetaObjectSchema.optional() }).optional(),
});
/** An input request asking the client for its roots. */
export type ListRootsRequest = z.infer<typeof ListRootsRequestSchema>;

/** The client's answer to `roots/list`. */
export const ListRootsResultSchema = z.looseObject({
  roots: z.array(RootSchema),
});
/** The client's answer to `roots/list`. */
export type ListRootsResult = z.infer<typeof ListRootsResultSchema>;
