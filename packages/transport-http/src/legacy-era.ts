// Which POSTed traffic is 2025-11-25: a message whose `_meta` names its protocol version is 2026-07-28 (and never
// takes the legacy path); a 2025-11-25 client names its version, if at all, in the `MCP-Protocol-Version` header.
import { type JSONRPCMessage, type JSONRPCRequest, MetaKey } from '@boomerang/protocol';

/** Protocol versions a 2025-11-25-era POST may name in `MCP-Protocol-Version` (absent is fine too). */
export const LEGACY_VERSIONS: ReadonlySet<string> = new Set(['2025-11-25', '2025-06-18', '2025-03-26']);

/** True for a message whose `_meta` names its protocol version: 2026-07-28 and later. */
export function isModern(message: unknown): boolean {
  const params = (message as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return false;
  const meta = (params as { _meta?: unknown })._meta;
  return (
    typeof meta === 'object' &&
    meta !== null &&
    typeof (meta as Record<string, unknown>)[MetaKey.protocolVersion] === 'string'
  );
}

/**
 * True for an `initialize` request, among messages whose envelope `parseMessage` accepted (there, a message
 * with a `method` and an own `id` is a request).
 */
export function isInitialize(message: JSONRPCMessage): message is JSONRPCRequest {
  return (message as { method?: unknown }).method === 'initialize' && Object.hasOwn(message, 'id');
}
