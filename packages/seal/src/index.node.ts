// @boomerang/seal, `node` entry: the same names as `index.ts`, with XChaCha20-Poly1305 running in `node:crypto`
// (HChaCha20 in JS + OpenSSL ChaCha20-Poly1305). Tokens are byte-compatible with the portable entry's.
import { nodeBackend } from './backend-node.js';
import { createSealerWith, type Sealer, type SealerOptions } from './sealer.js';

// --- sealing
/**
 * Creates a sealer: `seal` turns bytes into an encrypted, authenticated, expiring token bound to an audience
 * and an optional context; `unseal` gives the bytes back or throws a {@link SealError} saying why not.
 *
 * With `keys`, tokens are format v1 (XChaCha20-Poly1305 with random 192-bit nonces, HKDF-SHA256 key
 * derivation); `keys[0]` seals and every key unseals, which is how keys rotate without downtime. With `codec`,
 * your cipher does the encryption and the sealer still enforces the claims.
 *
 * This is the `node` build: the cipher runs in `node:crypto` (falling back to @noble/ciphers where OpenSSL
 * lacks ChaCha20-Poly1305, e.g. FIPS mode); its tokens are byte-compatible with the portable build's.
 *
 * @throws TypeError / RangeError for wrong options: keys that are not `Uint8Array`s, shorter than 32 bytes or
 * duplicated, a non-integer TTL, an audience over 255 bytes.
 */
export function createSealer(options: SealerOptions): Sealer {
  return createSealerWith(nodeBackend, options);
}
/** Which crypto backend this entry uses: `'node'` here (`node:crypto`), `'portable'` in the default entry. */
export const sealBackend: 'node' | 'portable' = nodeBackend.name;
// --- everything else: the same names in both entries (index.test.ts holds them equal)

// --- encodings

export { decodeBase64Url, encodeBase64Url } from './base64url.js';
export { canonicalJson } from './canonical-json.js';

// --- errors

export { SEAL_ERROR_REASONS, SealError, type SealErrorReason } from './errors.js';

// --- keys

export { generateKey, parseKeys } from './keys.js';

// --- types

export type { PreparedContext } from './claims.js';
export type { SealCodec } from './envelope.js';
export type {
  SealContext,
  Sealer,
  SealerCodecOptions,
  SealerCommonOptions,
  SealerKeyOptions,
  SealerOptions,
  SealOptions,
  UnsealOptions,
} from './sealer.js';
