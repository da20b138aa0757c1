// Common building blocks of MCP 2026-07-28: JSON values, `_meta` objects, ids, roles, icons and
// implementations. Object schemas are `z.looseObject`: MCP allows extension fields, and a proxy must not drop
// what it relays.
import { z } from 'zod';

/** The JSON-RPC version every envelope carries. */
export const JSONRPC_VERSION = '2.0';

/**
 * An object with any members, kept as is (`{ [key: string]: unknown }`). A loose object rather than
 * `z.record`: same result, about twice as fast, and `__proto__` keys are dropped instead of reaching a
 * prototype setter.
 */
export const openObject = z.looseObject({});

/** `JSONRPC_VERSION` as a schema: every envelope's `jsonrpc` member. */
export const jsonrpcVersion = z.literal(JSONRPC_VERSION);

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
export const JSONValueSchema: z.ZodType<JSONValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), JSONObjectSchema, JSONArraySchema]),
);

/** A JSON object of JSON values; the shape of capability settings and provider metadata. */
export const JSONObjectSchema: z.ZodType<JSONObject> = z.lazy(() => z.record(z.string(), JSONValueSchema));

/** A JSON array of JSON values. */
export const JSONArraySchema: z.ZodType<JSONArray> = z.lazy(() => z.array(JSONValueSchema));

/**
 * The contents of a `_meta` field: any keys (reverse-DNS prefixed; `io.modelcontextprotocol/` and `…mcp/` are
 * reserved). Every key survives a parse, so metadata a peer attaches is relayed untouched.
 */
export const MetaObjectSchema = openObject;
/** The contents of a `_meta` field. */
export type MetaObject = z.infer<typeof MetaObjectSchema>;

/** A JSON-RPC request id. schema.json allows strings and integers only (no fractions, no `null`). */
export const RequestIdSchema = z.union([z.string(), z.int()]);
/** A JSON-RPC request id: a string or an integer. */
export type RequestId = z.infer<typeof RequestIdSchema>;

/** An opaque token that ties `notifications/progress` to the request that asked for them. */
export const ProgressTokenSchema = z.union([z.string(), z.int()]);
/** A progress token: a string or an integer. */
export type ProgressToken = z.infer<typeof ProgressTokenSchema>;

/** An opaque pagination cursor; only the server that minted it interprets it. */
export const CursorSchema = z.string();
/** An opaque pagination cursor. */
export type Cursor = z.infer<typeof CursorSchema>;

/**
 * The kind of a result: `"complete"` or `"input_required"`, open to future values on the wire. Concrete
 * result schemas pin the literal they carry, so a client can tell the two apart with one comparison.
 */
export const ResultTypeSchema = z.string();
/** The kind of a result (`"complete"`, `"input_required"`, or a future value). */
export type ResultType = z.infer<typeof ResultTypeSchema>;

/** The sender or recipient of messages in a conversation. */
export const RoleSchema = z.enum(['user', 'assistant']);
/** `"user"` or `"assistant"`. */
export type Role = z.infer<typeof RoleSchema>;

/**
 * Log severity, as in RFC 5424 syslog. Deprecated in 2026-07-28 (SEP-2577) but still the type of the
 * `io.modelcontextprotocol/logLevel` request key and of `notifications/message`.
 */
export const LoggingLevelSchema = z.enum([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]);
/** A log severity, from `debug` to `emergency`. */
export type LoggingLevel = z.infer<typeof LoggingLevelSchema>;

/**
 * An icon a client may display: `src` is an http(s) or `data:` URI (consumers should distrust foreign hosts
 * and SVG scripts); `sizes` are `WxH` strings or `any`.
 */
export const IconSchema = z.looseObject({
  src: z.string(),
  mimeType: z.string().optional(),
  sizes: z.array(z.string()).optional(),
  theme: z.enum(['light', 'dark']).optional(),
});
/** An optionally sized icon. */
export type Icon = z.infer<typeof IconSchema>;

/** The `icons` member shared by tools, prompts, resources and implementations. */
export const IconsSchema = z.looseObject({
  icons: z.array(IconSchema).optional(),
});
/** Something that may carry icons. */
export type Icons = z.infer<typeof IconsSchema>;

/** `name` (programmatic identifier) and optional `title` (display name), shared by named protocol objects. */
export const BaseMetadataSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
});
/** A programmatic name plus an optional display title. */
export type BaseMetadata = z.infer<typeof BaseMetadataSchema>;

/**
 * A client or server's self-description (`clientInfo` / `serverInfo` in `_meta`). Self-reported and
 * unverified: for display and logs, never for decisions.
 */
export const ImplementationSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  icons: z.array(IconSchema).optional(),
  version: z.string(),
  description: z.string().optional(),
  websiteUrl: z.string().optional(),
});
/** A client or server's self-description. */
export type Implementation = z.infer<typeof ImplementationSchema>;

/** Display hints for content and resources: audience, priority in [0, 1], ISO 8601 last-modified time. */
export const AnnotationsSchema = z.looseObject({
  audience: z.array(RoleSchema).optional(),
  priority: z.number().min(0).max(1).optional(),
  lastModified: z.string().optional(),
});
/** Display hints for content and resources. */
export type Annotations = z.infer<typeof AnnotationsSchema>;
