import type { Backend } from './backend.js';
import { NONCE_BYTES, TAG_BYTES } from './backend.js';
import { isBytes } from './bytes.js';
import { MIN_CLAIMS_BYTES } from './claims.js';
import { describe, SealError } from './errors.js';
import { KEY_ID_BYTES, type KeyRing } from './keys.js';

/**
 * Token format v1: the bytes below, as one canonical unpadded base64url string.
 *
 * ```
 * offset  bytes  field
 * 0       3      format prefix B2 5D 7F: every v1 token starts with the text "sl1_"
 * 3       5      key id (see keys.ts): selects the ring slot
 * 8       24     nonce, fresh from the CSPRNG for every token
 * 32      m      XChaCha20-Poly1305 ciphertext of claims || payload (claims layout: claims.ts)
 * 32+m    16     Poly1305 tag
 * ```
 *
 * Associated data = bytes 0-7 (prefix and key id): a token cannot be replayed into another format version or
 * re-labelled for another slot. 48 bytes of framing plus at least 10 bytes of claims. The ciphertext starts
 * at a multiple of 4, so the pure-JS cipher works on aligned words in place (about 20 % faster at 10 KB).
 */
export const FORMAT_PREFIX = /* @__PURE__ */ Uint8Array.of(0xb2, 0x5d, 0x7f);
/** How every v1 token begins, as text. */
export const FORMAT_PREFIX_TEXT = 'sl1_';
const KEY_ID_AT = 3;
const NONCE_AT = KEY_ID_AT + KEY_ID_BYTES;
const BODY_AT = NONCE_AT + NONCE_BYTES;
/** Framing bytes of a v1 token around its plaintext (prefix, key id, nonce, tag), before base64url. */
export const FRAMING_BYTES = BODY_AT + TAG_BYTES;

/**
 * Bring your own cipher (a KMS data key, an HSM, a different AEAD): turns bytes into a string and back. The
 * sealer hands it the claims and the payload as one byte string and enforces expiry, audience and context
 * around it, so a codec only has to provide confidentiality and integrity.
 *
 * Contract: `unseal(seal(x))` returns `x`; `unseal` throws on anything it did not produce. Whatever it throws
 * (or a non-bytes result) becomes `SealError('forged')` with the codec's error as `cause`: codecs fail closed.
 */
export interface SealCodec {
  /** Encrypts and authenticates `bytes` into a token string. */
  seal(bytes: Uint8Array): string;
  /** Verifies and decrypts a token produced by `seal`; throws on anything else. */
  unseal(token: string): Uint8Array;
}

/** What the sealer needs from whatever turns claims and payload into a token: the key ring or a user codec. */
export interface Envelope {
  /** Bytes a token adds to its plaintext before base64url, when known (so size limits apply before work). */
  readonly framing: number | undefined;
  /** `claims || payload` into a token. */
  seal(claims: Uint8Array, payload: Uint8Array): string;
  /** The plaintext (`claims || payload`) of a token, or a `SealError`. The caller checked type and size. */
  open(token: string): Uint8Array;
}

/** A decoded v1 token, split into its fields (views into one array). */
export interface TokenParts {
  readonly keyId: Uint8Array;
  readonly nonce: Uint8Array;
  readonly associatedData: Uint8Array;
  readonly sealed: Uint8Array;
}

/**
 * Decodes a v1 token and splits it, without any key. Throws `SealError('malformed')` for text that is not
 * canonical base64url, too short to hold framing and claims, or of another format version.
 */
export function parseToken(token: string, backend: Backend): TokenParts {
  const bytes = backend.decode(token);
  if (
    bytes === undefined ||
    bytes.length < FRAMING_BYTES + MIN_CLAIMS_BYTES ||
    bytes[0] !== FORMAT_PREFIX[0] ||
    bytes[1] !== FORMAT_PREFIX[1] ||
    bytes[2] !== FORMAT_PREFIX[2]
  ) {
    throw new SealError('malformed');
  }
  return {
    keyId: bytes.subarray(KEY_ID_AT, NONCE_AT),
    nonce: bytes.subarray(NONCE_AT, BODY_AT),
    associatedData: bytes.subarray(0, NONCE_AT),
    sealed: bytes.subarray(BODY_AT),
  };
}

/** The built-in envelope: format v1 under the ring's keys (the primary seals, every key opens). */
export function keyRingEnvelope(ring: KeyRing, backend: Backend): Envelope {
  return {
    framing: FRAMING_BYTES,
    seal(claims, payload) {
      const { id, aead } = ring.primary;
      const out = new Uint8Array(FRAMING_BYTES + claims.length + payload.length);
      out.set(FORMAT_PREFIX, 0);
      out.set(id, KEY_ID_AT);
      // One CSPRNG draw per token, deliberately: a pool of pre-drawn nonces captured in a VM snapshot or a
      // forked process would hand the same nonces to every clone, and one nonce reused under a key breaks it.
      const nonce = globalThis.crypto.getRandomValues(out.subarray(NONCE_AT, BODY_AT));
      out.set(claims, BODY_AT);
      out.set(payload, BODY_AT + claims.length);
      aead.seal(nonce, out.subarray(0, NONCE_AT), out.subarray(BODY_AT));
      return backend.encode(out);
    },
    open(token) {
      const { keyId, nonce, associatedData, sealed } = parseToken(token, backend);
      const slot = ring.lookup(keyId);
      if (slot === undefined) throw new SealError('unknown-key');
      const plain = slot.aead.open(nonce, associatedData, sealed);
      if (plain === undefined) throw new SealError('forged');
      return plain;
    },
  };
}

/** Wraps a user codec so that it fails closed: any throw or a non-bytes result is `forged`. */
export function codecEnvelope(codec: SealCodec): Envelope {
  if (typeof codec !== 'object' || codec === null) {
    throw new TypeError(`"codec" expected { seal, unseal }, got ${describe(codec)}`);
  }
  if (typeof codec.seal !== 'function' || typeof codec.unseal !== 'function') {
    throw new TypeError('"codec" expected { seal, unseal } functions');
  }
  return {
    framing: undefined,
    seal(claims, payload) {
      const bytes = new Uint8Array(claims.length + payload.length);
      bytes.set(claims);
      bytes.set(payload, claims.length);
      const token = codec.seal(bytes);
      if (typeof token !== 'string')
        throw new TypeError(`"codec.seal" expected string, got ${describe(token)}`);
      return token;
    },
    open(token) {
      let plain: unknown;
      try {
        plain = codec.unseal(token);
      } catch (cause) {
        throw new SealError('forged', { cause });
      }
      if (!isBytes(plain)) {
        throw new SealError('forged', { cause: new TypeError(`"codec.unseal" returned ${describe(plain)}`) });
      }
      return plain;
    },
  };
}
