// `roots/list`: the directories or files the client lets the server work on (as an MRTR input request).
// Deprecated in 2026-07-28 (SEP-2577); kept for at least twelve months.
import type { z } from 'zod';
import { MetaObjectSchema } from './base.js';
import { lazySchema, zod } from './zod.js';

/** A root the server may operate on: a `file://` URI and an optional display name. */
export const RootSchema = lazySchema(() =>
  zod.looseObject({
    uri: zod.string(),
    name: zod.string().optional(),
    _meta: MetaObjectSchema.optional(),
  }),
);
/** A root the server may operate on. */
export type Root = z.infer<typeof RootSchema>;

/** An input request asking the client for its roots (embedded, no JSON-RPC envelope). */
export const ListRootsRequestSchema = lazySchema(() =>
  zod.looseObject({
    method: zod.literal('roots/list'),
    params: zod.looseObject({ _meta: MetaObjectSchema.optional() }).optional(),
  }),
);
/** An input request asking the client for its roots. */
export type ListRootsRequest = z.infer<typeof ListRootsRequestSchema>;

/** The client's answer to `roots/list`. */
export const ListRootsResultSchema = lazySchema(() =>
  zod.looseObject({
    roots: zod.array(RootSchema),
  }),
);
/** The client's answer to `roots/list`. */
export type ListRootsResult = z.infer<typeof ListRootsResultSchema>;
