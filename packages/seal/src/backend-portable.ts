import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { Aead, Backend } from './backend.js';
import { TAG_BYTES } from './backend.js';
import { decodeBase64Url, encodeBase64Url } from './base64url.js';

/** XChaCha20-Poly1305 from @noble/ciphers (audited, pure JS): runs in browsers, Deno, Bun, workers and Node. */
export function nobleAead(key: Uint8Array): Aead {
  return {
    seal(nonce, ad, sealed) {
      xchacha20poly1305(key, nonce, ad).encrypt(sealed.subarray(0, sealed.length - TAG_BYTES), sealed);
    },
    open(nonce, ad, sealed) {
      try {
        // In place: `sealed` is a fresh decode of the token, owned by this call.
        return xchacha20poly1305(key, nonce, ad).decrypt(
          sealed,
          sealed.subarray(0, sealed.length - TAG_BYTES),
        );
      } catch {
        return undefined;
      }
    },
  };
}

/** The backend of the default entry: no `node:` imports, no `Buffer`. */
export const portableBackend: Backend = {
  name: 'portable',
  aead: nobleAead,
  encode: encodeBase64Url,
  decode: decodeBase64Url,
  sha256,
};
