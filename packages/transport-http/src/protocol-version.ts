// The mark of a 2026-07-28 message: its `_meta` names its protocol version. A 2025-11-25 message never does (its
// era negotiated the version once, with `initialize`), so this is what tells the eras apart, on both sides.
import { type JSONRPCMessage, MetaKey } from '@boomerang/protocol';
import { isObject } from './headers.js';

/** The protocol version that `params._meta` names, or `undefined` when it names none (or is no object). */
export function protocolVersionOf(params: unknown): string | undefined {
  if (!isObject(params)) return undefined;
  const meta = params._meta;
  if (!isObject(meta)) return undefined;
  const version = meta[MetaKey.protocolVersion];
  return typeof version === 'string' ? version : undefined;
}

/** True for a message of the 2026-07-28 era (and later): one whose `_meta` names its protocol version. */
export function namesProtocolVersion(message: JSONRPCMessage): boolean {
  return 'params' in message && protocolVersionOf(message.params) !== undefined;
}
