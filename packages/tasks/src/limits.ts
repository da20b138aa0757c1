// The bounds on what one request may make the runtime store: how deep and how large the JSON it keeps (a task's
// params, a tasks/update's answers) may be. Both are measured without recursion, before anything is written.
import { ErrorCode, McpError } from '@boomerang/protocol';

/**
 * Deepest nesting of objects and arrays the runtime stores (a task's params, an answer). Far above any real tool
 * argument or answer; the runtime serializes what it stores (`JSON.stringify` recurses, and a 20,000-deep value
 * exhausts the stack), and PostgreSQL's `json` parser recurses too. The same bound as the server's on the
 * arguments it binds into sealed request state.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * Largest client description a task keeps (its creating request's `clientInfo` and `clientCapabilities`, and the
 * caller's `auth` names), in UTF-8 bytes of JSON: real ones are a few hundred bytes.
 */
export const MAX_ORIGIN_BYTES = 16_384;

const encoder = new TextEncoder();

/**
 * The size in UTF-8 bytes of `value` as JSON, or `-32602` naming `what` when `value` nests deeper than
 * {@link MAX_JSON_DEPTH} levels or is larger than `maxBytes`. The depth is checked first by an iterative walk, so
 * neither this check nor the serialization after it can exhaust the stack.
 */
export function checkJsonSize(value: unknown, maxBytes: number, what: string): number {
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid params: ${what} nests deeper than ${MAX_JSON_DEPTH} levels`,
    );
  }
  const size = encoder.encode(JSON.stringify(value) ?? '').length;
  if (size > maxBytes) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid params: ${what} is ${size} bytes, over this server's ${maxBytes}-byte limit`,
    );
  }
  return size;
}

/** True when `value` has objects or arrays nested more than `limit` levels deep; stops at the first. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const pending: { readonly node: object; readonly depth: number }[] = [{ node: value, depth: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { node, depth } = next;
    const members: readonly unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const member of members) {
      if (typeof member !== 'object' || member === null) continue;
      if (depth >= limit) return true;
      pending.push({ node: member, depth: depth + 1 });
    }
  }
  return false;
}
