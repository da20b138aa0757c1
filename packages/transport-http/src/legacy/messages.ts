// What a 2025-11-25 POST looks like beyond naming no protocol version in `_meta` (which the endpoint's seam
// checked before handing it here): the versions its `MCP-Protocol-Version` header may name, and its `initialize`.
import type { JSONRPCMessage, JSONRPCRequest } from '@boomerang/protocol';

/** Protocol versions a 2025-11-25-era POST may name in `MCP-Protocol-Version` (absent is fine too). */
export const LEGACY_VERSIONS: ReadonlySet<string> = new Set(['2025-11-25', '2025-06-18', '2025-03-26']);

/**
 * True for an `initialize` request, among messages whose envelope `parseMessage` accepted (there, a message
 * with a `method` and an own `id` is a request).
 */
export function isInitialize(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && message.method === 'initialize' && Object.hasOwn(message, 'id');
}
