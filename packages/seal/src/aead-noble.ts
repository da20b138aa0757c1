import type { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import type { Aead } from './backend.js';
import { TAG_BYTES } from './backend.js';

/**
 * XChaCha20-Poly1305 from @noble/ciphers (audited, pure JS) as an {@link Aead}. The cipher is passed in, so that
 * the `node` entry can load @noble only when it needs this (OpenSSL without ChaCha20-Poly1305, e.g. FIPS mode).
 */
export function xchachaAead(cipher: typeof xchacha20poly1305, key: Uint8Array): Aead {
  return {
    seal(nonce, ad, sealed) {
      cipher(key, nonce, ad).encrypt(sealed.subarray(0, sealed.length - TAG_BYTES), sealed);
    },
    open(nonce, ad, sealed) {
      try {
        // In place: `sealed` is a fresh decode of the token, owned by this call.
        return cipher(key, nonce, ad).decrypt(sealed, sealed.subarray(0, sealed.length - TAG_BYTES));
      } catch {
        return undefined;
      }
    },
  };
}
