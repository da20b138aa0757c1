import { Buffer } from 'node:buffer';
// A namespace import, so that `crypto.hash` can be feature-tested (a named import of it fails to link on old Node).
import * as crypto from 'node:crypto';
import {
  type CipherChaCha20Poly1305,
  createCipheriv,
  createDecipheriv,
  createHash,
  type DecipherChaCha20Poly1305,
  getCiphers,
  hkdfSync,
} from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as NobleChaCha from '@noble/ciphers/chacha.js';
import { xchachaAead } from './aead-noble.js';
import type { Aead, Backend } from './backend.js';
import { TAG_BYTES } from './backend.js';

let noble: typeof NobleChaCha | undefined;

/**
 * @noble/ciphers' ChaCha module, loaded the first time a token is sealed or opened rather than when the package
 * is imported (a server that never seals, or not yet, starts faster): its ES module through `require` (Node ≥
 * 20.19), the very instance an `import` gives.
 */
function nobleChaCha(): typeof NobleChaCha {
  if (noble === undefined) {
    const require = createRequire(import.meta.url);
    noble = require(fileURLToPath(import.meta.resolve('@noble/ciphers/chacha.js'))) as typeof NobleChaCha;
  }
  return noble;
}

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
  // Scratch words for the subkey derivation, reused by every call (calls are synchronous, so they never overlap);
  // the subkey is wiped as soon as OpenSSL has copied it, whatever happens.
  const nonce32 = new Uint32Array(4);
  const nonceBytes = new Uint8Array(nonce32.buffer);
  const subkey32 = new Uint32Array(8);
  const subkey = new Uint8Array(subkey32.buffer);
  const iv = new Uint8Array(12);
  let hchacha: typeof NobleChaCha.hchacha | undefined;
  const derive = (nonce: Uint8Array): void => {
    nonceBytes.set(nonce.subarray(0, 16));
    hchacha ??= nobleChaCha().hchacha;
    hchacha(SIGMA, key32, nonce32, subkey32);
    iv.set(nonce.subarray(16, 24), 4);
  };
  return {
    seal(nonce, ad, sealed) {
      const length = sealed.length - TAG_BYTES;
      derive(nonce);
      let cipher: CipherChaCha20Poly1305;
      try {
        cipher = createCipheriv('chacha20-poly1305', subkey, iv, OPTIONS);
      } finally {
        subkey.fill(0); // OpenSSL has its copy
      }
      cipher.setAAD(ad, { plaintextLength: length });
      sealed.set(cipher.update(sealed.subarray(0, length)));
      cipher.final();
      sealed.set(cipher.getAuthTag(), length);
    },
    open(nonce, ad, sealed) {
      const length = sealed.length - TAG_BYTES;
      derive(nonce);
      let decipher: DecipherChaCha20Poly1305;
      try {
        decipher = createDecipheriv('chacha20-poly1305', subkey, iv, OPTIONS);
      } finally {
        subkey.fill(0);
      }
      decipher.setAAD(ad, { plaintextLength: length });
      decipher.setAuthTag(sealed.subarray(length));
      const plain = decipher.update(sealed.subarray(0, length));
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

/** SHA-256 of a string's UTF-8 bytes, encoded by `node:crypto` itself (no `TextEncoder` copy in between). */
const nodeSha256Text: (text: string) => Uint8Array =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'buffer')
    : (text) => createHash('sha256').update(text, 'utf8').digest();

/**
 * The backend of the `node` entry: `node:crypto` for the cipher, SHA-256 and HKDF, `Buffer` for base64url; nothing
 * of @noble loads until a token is sealed or opened (HChaCha20 is noble's).
 */
export const nodeBackend: Backend = {
  name: 'node',
  aead: (key) => (hasNativeChaCha() ? nodeAead(key) : xchachaAead(nobleChaCha().xchacha20poly1305, key)),
  encode: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64url'),
  // Buffer's decoder is lenient (padding, `+`/`/`, junk, stray bits). Canonical means "what the encoder
  // writes", so a round trip to the same text is the whole check; it costs less than scanning the text.
  decode: (text) => {
    const bytes = Buffer.from(text, 'base64url');
    return bytes.toString('base64url') === text ? bytes : undefined;
  },
  sha256: nodeSha256,
  sha256Text: nodeSha256Text,
  hkdfSha256: (secret, info, length) =>
    new Uint8Array(hkdfSync('sha256', secret, new Uint8Array(0), info, length)),
};
