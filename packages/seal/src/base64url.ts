/**
 * Canonical, unpadded base64url (RFC 4648 §5). Tokens are compared as bytes after decoding, so the decoder
 * must accept exactly one spelling per byte string: no `=` padding, no `+` or `/`, no whitespace, and the
 * unused low bits of the last character must be zero. Otherwise a token could be re-spelled (`…Q` vs `…R`) and
 * still verify, which breaks "only the exact string minted verifies" for anyone who caches or deduplicates
 * tokens by their text.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const ENCODE = /* @__PURE__ */ Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
// Character code → 6-bit value; -1 for every other code below 256 (codes above read as `undefined` → -1).
const DECODE = /* @__PURE__ */ (() => {
  const table = new Int8Array(256).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  return table;
})();
const ascii = /* @__PURE__ */ new TextDecoder();

/** The length of the unpadded base64url text for `byteLength` bytes. */
export function base64UrlLength(byteLength: number): number {
  return Math.ceil((byteLength * 4) / 3);
}

/** Encodes bytes as unpadded base64url; pure JS, for runtimes without `Buffer`. */
export function encodeBase64Url(bytes: Uint8Array): string {
  const out = new Uint8Array(base64UrlLength(bytes.length));
  const whole = bytes.length - (bytes.length % 3);
  let o = 0;
  for (let i = 0; i < whole; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = ENCODE[n >> 18]!;
    out[o++] = ENCODE[(n >> 12) & 63]!;
    out[o++] = ENCODE[(n >> 6) & 63]!;
    out[o++] = ENCODE[n & 63]!;
  }
  if (whole < bytes.length) {
    const two = whole + 1 < bytes.length;
    const n = (bytes[whole]! << 16) | (two ? bytes[whole + 1]! << 8 : 0);
    out[o++] = ENCODE[n >> 18]!;
    out[o++] = ENCODE[(n >> 12) & 63]!;
    if (two) out[o++] = ENCODE[(n >> 6) & 63]!;
  }
  return ascii.decode(out);
}

/**
 * Decodes canonical unpadded base64url, the one spelling {@link encodeBase64Url} produces for each byte
 * string; pure JS. Returns `undefined` for anything else (a length of 4k+1, a character outside the alphabet,
 * non-zero unused bits in the last character), never a partial or "best effort" result.
 */
export function decodeBase64Url(text: string): Uint8Array | undefined {
  const rest = text.length & 3;
  if (rest === 1) return undefined;
  const out = new Uint8Array((text.length * 3) >> 2);
  const whole = text.length - rest;
  const at = (i: number): number => DECODE[text.charCodeAt(i)] ?? -1;
  let bad = 0;
  let o = 0;
  for (let i = 0; i < whole; i += 4) {
    const a = at(i);
    const b = at(i + 1);
    const c = at(i + 2);
    const d = at(i + 3);
    bad |= a | b | c | d;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    out[o++] = n >> 8;
    out[o++] = n;
  }
  if (rest !== 0) {
    const a = at(whole);
    const b = at(whole + 1);
    const c = rest === 3 ? at(whole + 2) : 0;
    // The unused low bits of the last character must be zero: 4 bits after 2 characters, 2 after 3.
    bad |= a | b | c | (rest === 2 ? -(b & 0x0f) : -(c & 0x03));
    const n = (a << 18) | (b << 12) | (c << 6);
    out[o++] = n >> 16;
    if (rest === 3) out[o++] = n >> 8;
  }
  return bad < 0 ? undefined : out;
}
