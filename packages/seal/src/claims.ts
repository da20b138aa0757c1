import { readU32, writeU32 } from './bytes.js';

/**
 * Claims v1: the first bytes of every plaintext, inside the ciphertext (so nobody but a key holder reads or
 * changes them). The payload follows them directly. Big-endian integers.
 *
 * ```
 * offset  bytes  field
 * 0       1      flags: bit 0 = a context digest is present; bits 1-7 reserved, must be 0
 * 1       4      iat: issued at, seconds since the Unix epoch (u32, good until 2106)
 * 5       4      exp: expires at, seconds since the Unix epoch (u32); exp > iat
 * 9       1      n: audience length in bytes (0 = no audience)
 * 10      n      audience, UTF-8
 * 10+n    32     SHA-256(context), only when flags bit 0 is set
 * ...            payload
 * ```
 *
 * 10 bytes without audience and context. The context is kept as its full SHA-256, not truncated: contexts are
 * often caller-influenced (tool arguments, URLs), and a 128-bit digest would let a well-funded caller search for
 * two contexts that share one (2^64 work) and reuse a token across them.
 */
export interface Claims {
  /** Issued at, epoch seconds. */
  readonly iat: number;
  /** Expires at, epoch seconds; the token is refused from this second on. */
  readonly exp: number;
  /** UTF-8 audience bytes; empty when the sealer has no audience. */
  readonly audience: Uint8Array;
  /** SHA-256 of the context bytes, or `undefined` when sealed without a context. */
  readonly context: Uint8Array | undefined;
}

/** Bytes of the fixed part of the claims (flags, iat, exp, audience length). */
export const MIN_CLAIMS_BYTES = 10;
/** The longest audience, in UTF-8 bytes (its length is one byte on the wire). */
export const MAX_AUDIENCE_BYTES = 255;
/** Bytes of the context digest. */
export const CONTEXT_DIGEST_BYTES = 32;
/** The largest time value on the wire (u32 seconds: 2106-02-07). */
export const MAX_EPOCH_SECONDS = 0xffff_ffff;
const FLAG_CONTEXT = 1;

const utf8 = /* @__PURE__ */ new TextEncoder();

/**
 * The digest a context is kept as: SHA-256 of its bytes (strings are UTF-8 encoded, bytes are taken as they
 * are). `hash` is the backend's SHA-256 and `hashText`, when the backend has one, its SHA-256 of a string's UTF-8
 * bytes; every implementation gives the same 32 bytes.
 */
export function contextDigest(
  context: string | Uint8Array,
  hash: (bytes: Uint8Array) => Uint8Array,
  hashText?: (text: string) => Uint8Array,
): Uint8Array {
  if (typeof context !== 'string') return hash(context);
  return hashText === undefined ? hash(utf8.encode(context)) : hashText(context);
}

/** Lets only {@link prepared} construct a {@link PreparedContext}. */
const CONSTRUCT: unique symbol = Symbol('PreparedContext');

/**
 * A context whose digest is already computed: what `sealer.prepareContext` returns, accepted wherever a context
 * is. Sealing or unsealing under it is exactly sealing or unsealing under the context it was prepared from; only
 * the SHA-256 is not computed again (a server that opens a request's state and seals the next round's under the
 * same binding hashes it once). Immutable and opaque.
 */
export class PreparedContext {
  readonly #digest: Uint8Array;

  /** @internal Use `sealer.prepareContext(context)`. */
  constructor(digest: Uint8Array, construct: typeof CONSTRUCT) {
    if (construct !== CONSTRUCT) throw new TypeError('use sealer.prepareContext(context)');
    this.#digest = digest;
    Object.freeze(this);
  }

  /** @internal The digest of `context` when it is a prepared one; `undefined` otherwise. */
  static digestOf(context: unknown): Uint8Array | undefined {
    return typeof context === 'object' && context !== null && #digest in context
      ? (context as PreparedContext).#digest
      : undefined;
  }
}

/** The prepared form of a context whose digest is `digest` (owned by the result from now on). */
export function prepared(digest: Uint8Array): PreparedContext {
  return new PreparedContext(digest, CONSTRUCT);
}

/** Serialises claims (layout above). The caller has validated the ranges. */
export function encodeClaims(claims: Claims): Uint8Array {
  const { iat, exp, audience, context } = claims;
  const out = new Uint8Array(MIN_CLAIMS_BYTES + audience.length + (context ? CONTEXT_DIGEST_BYTES : 0));
  out[0] = context ? FLAG_CONTEXT : 0;
  writeU32(out, 1, iat);
  writeU32(out, 5, exp);
  out[9] = audience.length;
  out.set(audience, MIN_CLAIMS_BYTES);
  if (context) out.set(context, MIN_CLAIMS_BYTES + audience.length);
  return out;
}

/**
 * Parses the claims at the start of a decrypted plaintext: the claims and the offset of the payload, or
 * `undefined` when the layout is not v1 (reserved flags, lengths past the end, exp not after iat).
 */
export function decodeClaims(plain: Uint8Array): { claims: Claims; payloadOffset: number } | undefined {
  if (plain.length < MIN_CLAIMS_BYTES) return undefined;
  const flags = plain[0]!;
  if ((flags & ~FLAG_CONTEXT) !== 0) return undefined;
  const iat = readU32(plain, 1);
  const exp = readU32(plain, 5);
  const audienceEnd = MIN_CLAIMS_BYTES + plain[9]!;
  const end = audienceEnd + (flags & FLAG_CONTEXT ? CONTEXT_DIGEST_BYTES : 0);
  if (exp <= iat || end > plain.length) return undefined;
  const audience = plain.subarray(MIN_CLAIMS_BYTES, audienceEnd);
  const context = end > audienceEnd ? plain.subarray(audienceEnd, end) : undefined;
  return { claims: { iat, exp, audience, context }, payloadOffset: end };
}
