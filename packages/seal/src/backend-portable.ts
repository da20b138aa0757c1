import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { xchachaAead } from './aead-noble.js';
import type { Aead, Backend } from './backend.js';
import { decodeBase64Url, encodeBase64Url } from './base64url.js';

/** XChaCha20-Poly1305 from @noble/ciphers (audited, pure JS): runs in browsers, Deno, Bun, workers and Node. */
export function nobleAead(key: Uint8Array): Aead {
  return xchachaAead(xchacha20poly1305, key);
}

/** The backend of the default entry: no `node:` imports, no `Buffer`. */
export const portableBackend: Backend = {
  name: 'portable',
  aead: nobleAead,
  encode: encodeBase64Url,
  decode: decodeBase64Url,
  sha256,
  hkdfSha256: (secret, info, length) => hkdf(sha256, secret, undefined, info, length),
};
