// The request-metadata headers of Streamable HTTP (2026-07-28): value encoding, `x-mcp-header` declarations in
// a tool's `inputSchema`, and the header set a client sends for one message. Shared by the server handler (which
// validates) and the client transport (which writes); web-standard only.

/** Header names, in the spelling the spec uses (HTTP compares names case-insensitively). */
export const HeaderName = {
  protocolVersion: 'MCP-Protocol-Version',
  method: 'Mcp-Method',
  name: 'Mcp-Name',
  paramPrefix: 'Mcp-Param-',
  /** 2025-11-25 only: the session a request belongs to. */
  session: 'Mcp-Session-Id',
} as const;

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
/** Visible ASCII at both ends, visible ASCII, space or tab inside: sendable as is. */
const PLAIN_VALUE = /^(?:[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)?$/;
/** What a received plain header value may contain (the runtime already trimmed surrounding whitespace). */
const RECEIVED_VALUE = /^[\x20-\x7e\t]*$/;
/** RFC 9110 `token` (`1*tchar`). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Encodes one `Mcp-Name` / `Mcp-Param-*` value: as is when it is plain visible ASCII (no leading or trailing
 * whitespace, no control characters), otherwise `=?base64?{base64(utf8(value))}?=`. A plain value that itself
 * looks like the sentinel is encoded too, so a decoder never confuses the two.
 */
export function encodeHeaderValue(value: string): string {
  if (PLAIN_VALUE.test(value) && !looksEncoded(value)) return value;
  let binary = '';
  for (const byte of utf8.encode(value)) binary += String.fromCharCode(byte);
  return `${SENTINEL_PREFIX}${btoa(binary)}${SENTINEL_SUFFIX}`;
}

/**
 * Decodes a received `Mcp-Name` / `Mcp-Param-*` value. Returns `undefined` for a value that is not acceptable:
 * a plain value with characters outside visible ASCII, space and tab, or a sentinel whose content is not
 * canonical base64 of valid UTF-8.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!looksEncoded(value)) return RECEIVED_VALUE.test(value) ? value : undefined;
  const encoded = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!BASE64.test(encoded)) return undefined;
  try {
    return strictUtf8.decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

function looksEncoded(value: string): boolean {
  return (
    value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length &&
    value.startsWith(SENTINEL_PREFIX) &&
    value.endsWith(SENTINEL_SUFFIX)
  );
}

/** One `x-mcp-header` declaration: header `Mcp-Param-{header}` mirrors the argument at `path`. */
export interface ParamHeader {
  /** The `x-mcp-header` value: the `{Name}` of `Mcp-Param-{Name}`. */
  readonly header: string;
  /** The chain of `properties` keys from the schema root to the annotated property. */
  readonly path: readonly string[];
}

/** What {@link paramHeadersOf} found: the declarations, or why the tool definition is invalid. */
export type ParamHeadersResult =
  | { readonly ok: true; readonly headers: readonly ParamHeader[] }
  | { readonly ok: false; readonly reason: string };

// Keywords whose value is a schema, an array of schemas or a map of schemas. Annotations below them are not
// statically reachable (only a chain of `properties` keys is), which makes the tool definition invalid.
const SCHEMA_KEYWORDS = new Set([
  'items',
  'additionalItems',
  'contains',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'not',
  'if',
  'then',
  'else',
]);
const SCHEMA_ARRAY_KEYWORDS = new Set(['prefixItems', 'allOf', 'anyOf', 'oneOf']);
const SCHEMA_MAP_KEYWORDS = new Set([
  '$defs',
  'definitions',
  'patternProperties',
  'dependentSchemas',
  'dependencies',
]);
const MAX_DEPTH = 64;
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

const paramHeadersCache = new WeakMap<object, ParamHeadersResult>();

/**
 * Reads the `x-mcp-header` declarations of a tool's `inputSchema` and checks the rules of 2026-07-28: each value
 * a non-empty RFC 9110 token, case-insensitively unique, only on `string` / `integer` / `boolean` properties
 * (a `["…", "null"]` type array counts as its one primitive), only on properties reachable from the root through
 * `properties` keys alone (never under `items`, `anyOf`/`oneOf`/`allOf`/`not`, `if`/`then`/`else`, `$ref`,
 * `$defs` …). One bad annotation invalidates the whole tool. Results are cached per schema object.
 */
export function paramHeadersOf(inputSchema: unknown): ParamHeadersResult {
  if (!isObject(inputSchema)) return { ok: true, headers: [] };
  const cached = paramHeadersCache.get(inputSchema);
  if (cached !== undefined) return cached;
  const headers: ParamHeader[] = [];
  let result: ParamHeadersResult;
  try {
    walk(inputSchema, [], headers, 0);
    const seen = new Set<string>();
    for (const { header } of headers) {
      const key = header.toLowerCase();
      if (seen.has(key)) throw new Invalid(`x-mcp-header "${header}" is declared twice (case-insensitively)`);
      seen.add(key);
    }
    result = { ok: true, headers };
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    result = { ok: false, reason: error.message };
  }
  paramHeadersCache.set(inputSchema, result);
  return result;
}

class Invalid extends Error {}

/** `path` is the static `properties` chain to `node`, or `undefined` once the walk left it. */
function walk(node: unknown, path: string[] | undefined, out: ParamHeader[], depth: number): void {
  if (!isObject(node)) return;
  if (depth > MAX_DEPTH) throw new Invalid('inputSchema is nested too deeply');
  if (Object.hasOwn(node, 'x-mcp-header')) out.push(declaration(node, path));
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && isObject(value)) {
      for (const [name, sub] of Object.entries(value)) {
        walk(sub, path === undefined ? undefined : [...path, name], out, depth + 1);
      }
    } else if (SCHEMA_KEYWORDS.has(key)) {
      walk(value, undefined, out, depth + 1);
    } else if (SCHEMA_ARRAY_KEYWORDS.has(key) && Array.isArray(value)) {
      for (const sub of value) walk(sub, undefined, out, depth + 1);
    } else if (SCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) {
      for (const sub of Object.values(value)) walk(sub, undefined, out, depth + 1);
    }
  }
}

function declaration(node: Record<string, unknown>, path: string[] | undefined): ParamHeader {
  const header = node['x-mcp-header'];
  const where = path === undefined ? '' : ` on "${path.join('.')}"`;
  if (typeof header !== 'string' || header.length === 0) {
    throw new Invalid(`x-mcp-header${where} must be a non-empty string`);
  }
  if (!TOKEN.test(header)) throw new Invalid(`x-mcp-header "${header}" is not an HTTP token`);
  if (path === undefined || path.length === 0) {
    throw new Invalid(`x-mcp-header "${header}" is not on a property reachable through "properties" alone`);
  }
  const types = (Array.isArray(node.type) ? node.type : [node.type]).filter((t) => t !== 'null');
  const [type] = types;
  if (types.length !== 1 || typeof type !== 'string' || !HEADER_TYPES.has(type)) {
    throw new Invalid(`x-mcp-header "${header}"${where} must annotate a string, integer or boolean property`);
  }
  return { header, path };
}

/** The argument at `path`, or `undefined` when some step is missing or not an object. */
export function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/**
 * The header text of an argument value (before encoding): strings as is, integers in decimal, booleans as
 * `true`/`false`. `undefined` for `null`, a missing value, or a value of another type (no header is sent then).
 */
export function headerTextOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** True when a decoded header value stands for `value`: strings exactly, numbers numerically (`42.0` = `42`). */
export function headerMatches(decoded: string, value: unknown): boolean {
  if (typeof value === 'number') return DECIMAL.test(decoded) && Number(decoded) === value;
  return decoded === headerTextOf(value);
}

/**
 * The param the `Mcp-Name` header carries for `method`: `params.name` or `params.uri` (SEP-2243), `params.taskId`
 * for `tasks/get`, `tasks/update`, `tasks/cancel` (the tasks extension's routing header); else `undefined`.
 */
export function nameParamOf(method: string): 'name' | 'uri' | 'taskId' | undefined {
  if (method === 'tools/call' || method === 'prompts/get') return 'name';
  if (method === 'resources/read') return 'uri';
  if (method === 'tasks/get' || method === 'tasks/update' || method === 'tasks/cancel') return 'taskId';
  return undefined;
}

/** @internal A non-null, non-array object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
