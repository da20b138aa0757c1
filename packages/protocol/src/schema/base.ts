// Common building blocks of MCP 2026-07-28: JSON values, `_meta` objects, ids, roles, icons and
// implementations. Object schemas are `z.looseObject`: MCP allows extension fields, and a proxy must not drop
// what it relays.
import type { z } from 'zod';
import { lazySchema, zod } from './zod.js';

/** The JSON-RPC version every envelope carries. */
export const JSONRPC_VERSION = '2.0';

/**
 * An object with any members, kept as is (`{ [key: string]: unknown }`). A loose object rather than
 * `z.record`: same result, about twice as fast, and `__proto__` keys are dropped instead of reaching a
 * prototype setter.
 */
export const openObject = lazySchema(() => zod.looseObject({}));

/** `JSONRPC_VERSION` as a schema: every envelope's `jsonrpc` member. */
export const jsonrpcVersion = lazySchema(() => zod.literal(JSONRPC_VERSION));

/** Any JSON value: string, number, boolean, null, object or array (recursive). */
export type JSONValue = string | number | boolean | null | JSONObject | JSONArray;

/** A JSON object whose members are JSON values. */
export type JSONObject = { [key: string]: JSONValue };

/** A JSON array of JSON values. */
export type JSONArray = JSONValue[];

/**
 * Any JSON value. Follows schema.ts (`number`, `null` allowed): schema.json's generated `JSONValue` narrows
 * numbers to integers and omits `null`, which would reject ordinary JSON such as `{ "temperature": 0.7 }`.
 */
export const JSONValueSchema: z.ZodType<JSONValue> = lazySchema(() =>
  zod.lazy(() =>
    zod.union([zod.string(), zod.number(), zod.boolean(), zod.null(), JSONObjectSchema, JSONArraySchema]),
  ),
);

/** A JSON object of JSON values; the shape of capability settings and provider metadata. */
export const JSONObjectSchema: z.ZodType<JSONObject> = lazySchema(() =>
  zod.lazy(() => zod.record(zod.string(), JSONValueSchema)),
);

/** A JSON array of JSON values. */
export const JSONArraySchema: z.ZodType<JSONArray> = lazySchema(() =>
  zod.lazy(() => zod.array(JSONValueSchema)),
);

/**
 * The contents of a `_meta` field: any keys (reverse-DNS prefixed; `io.modelcontextprotocol/` and `…mcp/` are
 * reserved). Every key survives a parse, so metadata a peer attaches is relayed untouched.
 */
export const MetaObjectSchema = openObject;
/** The contents of a `_meta` field. */
export type MetaObject = z.infer<typeof MetaObjectSchema>;

/** A JSON-RPC request id. schema.json allows strings and integers only (no fractions, no `null`). */
export const RequestIdSchema = lazySchema(() => zod.union([zod.string(), zod.int()]));
/** A JSON-RPC request id: a string or an integer. */
export type RequestId = z.infer<typeof RequestIdSchema>;

/** An opaque token that ties `notifications/progress` to the request that asked for them. */
export const ProgressTokenSchema = lazySchema(() => zod.union([zod.string(), zod.int()]));
/** A progress token: a string or an integer. */
export type ProgressToken = z.infer<typeof ProgressTokenSchema>;

/** An opaque pagination cursor; only the server that minted it interprets it. */
export const CursorSchema = lazySchema(() => zod.string());
/** An opaque pagination cursor. */
export type Cursor = z.infer<typeof CursorSchema>;

/**
 * The kind of a result: `"complete"` or `"input_required"`, open to future values on the wire. Concrete
 * result schemas pin the literal they carry, so a client can tell the two apart with one comparison.
 */
export const ResultTypeSchema = lazySchema(() => zod.string());
/** The kind of a result (`"complete"`, `"input_required"`, or a future value). */
export type ResultType = z.infer<typeof ResultTypeSchema>;

/** The sender or recipient of messages in a conversation. */
export const RoleSchema = lazySchema(() => zod.enum(['user', 'assistant']));
/** `"user"` or `"assistant"`. */
export type Role = z.infer<typeof RoleSchema>;

/**
 * Log severity, as in RFC 5424 syslog. Deprecated in 2026-07-28 (SEP-2577) but still the type of the
 * `io.modelcontextprotocol/logLevel` request key and of `notifications/message`.
 */
export const LoggingLevelSchema = lazySchema(() =>
  zod.enum(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']),
);
/** A log severity, from `debug` to `emergency`. */
export type LoggingLevel = z.infer<typeof LoggingLevelSchema>;

/**
 * An icon a client may display: `src` is an http(s) or `data:` URI (consumers should distrust foreign hosts
 * and SVG scripts); `sizes` are `WxH` strings or `any`.
 */
export const IconSchema = lazySchema(() =>
  zod.looseObject({
    src: zod.string(),
    mimeType: zod.string().optional(),
    sizes: zod.array(zod.string()).optional(),
    theme: zod.enum(['light', 'dark']).optional(),
  }),
);
/** An optionally sized icon. */
export type Icon = z.infer<typeof IconSchema>;

/** The `icons` member shared by tools, prompts, resources and implementations. */
export const IconsSchema = lazySchema(() =>
  zod.looseObject({
    icons: zod.array(IconSchema).optional(),
  }),
);
/** Something that may carry icons. */
export type Icons = z.infer<typeof IconsSchema>;

/** `name` (programmatic identifier) and optional `title` (display name), shared by named protocol objects. */
export const BaseMetadataSchema = lazySchema(() =>
  zod.looseObject({
    name: zod.string(),
    title: zod.string().optional(),
  }),
);
/** A programmatic name plus an optional display title. */
export type BaseMetadata = z.infer<typeof BaseMetadataSchema>;

/**
 * A client or server's self-description (`clientInfo` / `serverInfo` in `_meta`). Self-reported and
 * unverified: for display and logs, never for decisions.
 */
export const ImplementationSchema = lazySchema(() =>
  zod.looseObject({
    name: zod.string(),
    title: zod.string().optional(),
    icons: zod.array(IconSchema).optional(),
    version: zod.string(),
    description: zod.string().optional(),
    websiteUrl: zod.string().optional(),
  }),
);
/** A client or server's self-description. */
export type Implementation = z.infer<typeof ImplementationSchema>;

/** Display hints for content and resources: audience, priority in [0, 1], ISO 8601 last-modified time. */
export const AnnotationsSchema = lazySchema(() =>
  zod.looseObject({
    audience: zod.array(RoleSchema).optional(),
    priority: zod.number().min(0).max(1).optional(),
    lastModified: zod.string().optional(),
  }),
);
/** Display hints for content and resources. */
export type Annotations = z.infer<typeof AnnotationsSchema>;
