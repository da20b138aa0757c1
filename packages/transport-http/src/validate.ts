import { isThenable, MetaKey } from '@boomerang/protocol';
import type { HeaderReader } from './guard.js';
import {
  decodeHeaderValue,
  HeaderName,
  headerMatches,
  headerTextOf,
  isObject,
  nameParamOf,
  paramHeadersOf,
  valueAt,
} from './headers.js';

/** The part of a tool definition the server needs to validate `Mcp-Param-*` headers. */
export interface ToolHeaderSchema {
  /** The tool's name, as in `tools/call`'s `params.name`. */
  readonly name: string;
  /** The tool's input JSON Schema, whose properties may carry `x-mcp-header`. */
  readonly inputSchema: object;
}

/**
 * Where {@link createHttpHandler} finds a tool's `inputSchema` (and its `x-mcp-header` declarations): the tool
 * list itself, or a lookup by name that may be async (for tools that come and go at run time).
 */
export type ToolSchemaSource =
  | readonly ToolHeaderSchema[]
  | ((name: string) => ToolHeaderSchema | undefined | Promise<ToolHeaderSchema | undefined>);

interface Message {
  readonly method: string;
  readonly params?: Record<string, unknown> | undefined;
}

/**
 * Checks the request-metadata headers against the body; returns the `-32020` message, or `undefined` when they
 * agree. For requests `MCP-Protocol-Version`, `Mcp-Method` and (on `tools/call`, `prompts/get`,
 * `resources/read`) `Mcp-Name` are required; notification POSTs have no required headers in 2026-07-28, but a
 * header that is sent must still match. A body value that is missing or of the wrong type is left to the
 * server's own `-32602`. `Mcp-Param-*`: for every `x-mcp-header` declaration of the called tool, a header is
 * required when the argument has a string, number or boolean value and refused when it has none. Synchronous,
 * unless `tools` is a lookup that returned a promise: then a promise of the same.
 */
export function validateHeaders(
  headers: HeaderReader,
  message: Message,
  kind: 'request' | 'notification',
  tools: ToolSchemaSource | undefined,
): string | undefined | Promise<string | undefined> {
  const required = kind === 'request';
  const params = isObject(message.params) ? message.params : {};
  const meta = isObject(params._meta) ? params._meta : {};

  const version = headers.get(HeaderName.protocolVersion);
  if (version === null) {
    if (required) return `Header mismatch: missing ${HeaderName.protocolVersion} header`;
  } else {
    const body = meta[MetaKey.protocolVersion];
    if (typeof body === 'string' && version !== body) {
      return mismatch(HeaderName.protocolVersion, version, body);
    }
  }

  const method = headers.get(HeaderName.method);
  if (method === null) {
    if (required) return `Header mismatch: missing ${HeaderName.method} header`;
  } else if (method !== message.method) {
    return mismatch(HeaderName.method, method, message.method);
  }

  const nameParam = nameParamOf(message.method);
  if (nameParam !== undefined) {
    const raw = headers.get(HeaderName.name);
    const body = params[nameParam];
    if (raw === null) {
      if (required) return `Header mismatch: missing ${HeaderName.name} header`;
    } else {
      const decoded = decodeHeaderValue(raw);
      if (decoded === undefined) return `Header mismatch: invalid ${HeaderName.name} header value`;
      if (typeof body === 'string' && decoded !== body) return mismatch(HeaderName.name, decoded, body);
    }
  }

  if (message.method === 'tools/call' && tools !== undefined && typeof params.name === 'string') {
    return validateParamHeaders(headers, params.name, params.arguments, tools);
  }
  return undefined;
}

function validateParamHeaders(
  headers: HeaderReader,
  name: string,
  args: unknown,
  tools: ToolSchemaSource,
): string | undefined | Promise<string | undefined> {
  const found = typeof tools === 'function' ? tools(name) : tools.find((t) => t.name === name);
  return isThenable(found)
    ? Promise.resolve(found).then((tool) => checkParamHeaders(headers, tool, args))
    : checkParamHeaders(headers, found, args);
}

/** The `Mcp-Param-*` check against the declarations of `tool` (none for an unknown tool: the server answers it). */
function checkParamHeaders(
  headers: HeaderReader,
  tool: ToolHeaderSchema | undefined,
  args: unknown,
): string | undefined {
  if (tool === undefined) return undefined; // unknown tool: the server answers it
  const declared = paramHeadersOf(tool.inputSchema);
  // An invalid declaration is the server author's bug; clients drop such a tool, so there is nothing to check.
  if (!declared.ok) return undefined;
  for (const { header, path } of declared.headers) {
    const headerName = `${HeaderName.paramPrefix}${header}`;
    const raw = headers.get(headerName);
    const value = valueAt(args, path);
    const expected = headerTextOf(value);
    if (raw === null) {
      if (expected !== undefined) return `Header mismatch: missing ${headerName} header`;
      continue;
    }
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return `Header mismatch: invalid ${headerName} header value`;
    if (expected === undefined) {
      return `Header mismatch: ${headerName} header sent, but the body has no value at "${path.join('.')}"`;
    }
    if (!headerMatches(decoded, value)) return mismatch(headerName, decoded, expected);
  }
  return undefined;
}

function mismatch(header: string, got: string, body: string): string {
  return `Header mismatch: ${header} header value ${quote(got)} does not match body value ${quote(body)}`;
}

/** Quotes a value for an error message, shortened so a huge header never bloats the response. */
function quote(value: string): string {
  return JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);
}
