import { Buffer } from 'node:buffer';
// A namespace import, so that `crypto.hash` can be feature-tested (a named import of it fails to link on old Node).
import * as crypto from 'node:crypto';
import { createCipheriv, createDecipheriv, createHash, getCiphers } from 'node:crypto';
import { hchacha } from '@noble/ciphers/chacha.js';
import type { Aead, Backend } from './backend.js';
import { TAG_BYTES } from './backend.js';
import { nobleAead } from './backend-portable.js';

// HChaCha20 takes and returns words in memory order (noble normalises big-endian hosts itself).
const SIGMA = /* @__PURE__ */ words(new TextEncoder().encode('expand 32-byte k'));
const OPTIONS = { authTagLength: TAG_BYTES } as const;

function words(bytes: Uint8Array): Uint32Array {
  const out = new Uint32Array(bytes.length >> 2);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

/**
 * XChaCha20-Poly1305 as the draft defines it: HChaCha20(key, nonce[0..16]) in JS (one ChaCha block, well under
 * a microsecond) gives a subkey, then OpenSSL's ChaCha20-Poly1305 runs with that subkey and the nonce
 * `0x00000000 || nonce[16..24]`. Same bytes as @noble/ciphers' `xchacha20poly1305`, at native speed.
 */
export function nodeAead(key: Uint8Array): Aead {
  const key32 = words(key);
  const subkey = (nonce: Uint8Array): [Uint8Array, Uint8Array] => {
    const out = new Uint32Array(8);
    hchacha(SIGMA, key32, words(nonce.subarray(0, 16)), out);
    const iv = new Uint8Array(12);
    iv.set(nonce.subarray(16, 24), 4);
    return [new Uint8Array(out.buffer), iv];
  };
  return {
    seal(nonce, ad, sealed) {
      const length = sealed.length - TAG_BYTES;
      const [k, iv] = subkey(nonce);
      const cipher = createCipheriv('chacha20-poly1305', k, iv, OPTIONS);
      cipher.setAAD(ad, { plaintextLength: length });
      sealed.set(cipher.update(sealed.subarray(0, length)));
      cipher.final();
      sealed.set(cipher.getAuthTag(), length);
      k.fill(0);
    },
    open(nonce, ad, sealed) {
      const length = sealed.length - TAG_BYTES;
      const [k, iv] = subkey(nonce);
      const decipher = createDecipheriv('chacha20-poly1305', k, iv, OPTIONS);
      decipher.setAAD(ad, { plaintextLength: length });
      decipher.setAuthTag(sealed.subarray(length));
      const plain = decipher.update(sealed.subarray(0, length));
      k.fill(0);
      try {
        decipher.final();
      } catch {
        plain.fill(0);
        return undefined;
      }
      // A plain Uint8Array that owns its memory: never a view into Node's shared Buffer pool.
      return plain.byteOffset === 0 && plain.buffer.byteLength === length
        ? new Uint8Array(plain.buffer, 0, length)
        : new Uint8Array(plain);
    },
  };
}

let nativeChaCha: boolean | undefined;

/** OpenSSL builds without ChaCha20-Poly1305 (FIPS mode) exist; there the node backend uses noble's cipher. */
function hasNativeChaCha(): boolean {
  nativeChaCha ??= getCiphers().includes('chacha20-poly1305');
  return nativeChaCha;
}

/**
 * SHA-256 in `node:crypto`: the one-shot `crypto.hash` where it exists (Node ≥ 20.12, about 3× faster than
 * noble's on a context of a hundred bytes), else a `Hash` object.
 */
const nodeSha256: (bytes: Uint8Array) => Uint8Array =
  typeof crypto.hash === 'function'
    ? (bytes) => crypto.hash('sha256', bytes, 'buffer')
    : (bytes) => createHash('sha256').update(bytes).digest();

/** The backend of the `node` entry: `node:crypto` for the cipher and SHA-256, `Buffer` for base64url. */
export const nodeBackend: Backend = {
  name: 'node',
  aead: (key) => (hasNativeChaCha() ? nodeAead(key) : nobleAead(key)),
  encode: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64url'),
  // Buffer's decoder is lenient (padding, `+`/`/`, junk, stray bits). Canonical means "what the encoder
  // writes", so a round trip to the same text is the whole check; it costs less than scanning the text.
  decode: (text) => {
    const bytes = Buffer.from(text, 'base64url');
    return bytes.toString('base64url') === text ? bytes : undefined;
  },
  sha256: nodeSha256,
};
