/**
 * Opaque pagination cursors.
 *
 * Wire format (documented here, next to the code that writes it): the cursor a client sees is
 *
 *     base64url( UTF-8( JSON.stringify([1, method, handlerCursor]) ) )      (canonical, unpadded)
 *
 * where `handlerCursor` is the `nextCursor` the list handler returned, verbatim. Inbound, the server decodes the
 * cursor and hands the handler its own string back; anything that is not canonical base64url, not that JSON
 * shape, of another version, or minted for another list method is `-32602 Invalid cursor` before any handler
 * runs. So handlers never see garbage they did not produce, and a `tools/list` cursor cannot page `prompts/list`.
 *
 * Cursors carry no integrity protection: a client can still mint `[1, "tools/list", "anything"]`. Handlers whose
 * cursor encodes something sensitive must check it themselves (and answer `-32602`, e.g. by throwing
 * `new McpError(ErrorCode.InvalidParams, 'Invalid cursor')`).
 */

import { decodeBase64Url, encodeBase64Url } from '@boomerang/seal';

const VERSION = 1;
/** Inbound cursors longer than this are rejected without decoding (a cursor is a position, not a payload). */
const MAX_CURSOR_LENGTH = 16 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Wraps a handler's `nextCursor` for `method` into the opaque wire cursor. */
export function wrapCursor(method: string, handlerCursor: string): string {
  return encodeBase64Url(encoder.encode(JSON.stringify([VERSION, method, handlerCursor])));
}

/** Unwraps a wire cursor minted by {@link wrapCursor} for `method`; `undefined` when it is not one. */
export function unwrapCursor(method: string, cursor: string): string | undefined {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) return undefined;
  const bytes = decodeBase64Url(cursor);
  if (bytes === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 3) return undefined;
  const [version, boundMethod, inner] = value as unknown[];
  return version === VERSION && boundMethod === method && typeof inner === 'string' ? inner : undefined;
}
