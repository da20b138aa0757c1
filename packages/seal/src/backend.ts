/**
 * The seam between the shared token logic and a crypto implementation. Two backends exist: `portable`
 * (@noble/ciphers, any runtime) and `node` (`node:crypto`, picked by the `node` export condition). Both compute
 * the same XChaCha20-Poly1305 and the same canonical base64url, so their tokens are interchangeable; everything
 * else (layout, claims, keys, checks) is shared code.
 */
export interface Backend {
  /** Which implementation this is, for diagnostics and benchmarks. */
  readonly name: 'node' | 'portable';
  /** XChaCha20-Poly1305 under one 32-byte key (the key is captured; the caller never mutates it). */
  aead(key: Uint8Array): Aead;
  /** Unpadded base64url. */
  encode(bytes: Uint8Array): string;
  /** Canonical unpadded base64url, or `undefined` for any other text. */
  decode(text: string): Uint8Array | undefined;
  /** SHA-256 of `bytes` (the context digest of the claims: runs on every seal and every unseal with a context). */
  sha256(bytes: Uint8Array): Uint8Array;
  /** HKDF-SHA256 (RFC 5869) with an empty salt: `length` bytes of key material from `secret` and `info`. */
  hkdfSha256(secret: Uint8Array, info: Uint8Array, length: number): Uint8Array;
  /**
   * SHA-256 of the UTF-8 bytes of `text` (lone surrogates as U+FFFD, as `TextEncoder` writes them), where the
   * backend can hash a string without encoding it first; absent otherwise.
   */
  sha256Text?(text: string): Uint8Array;
}

/** XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha) with a 24-byte nonce and a 16-byte tag. */
export interface Aead {
  /**
   * Encrypts in place: `sealed` holds the plaintext followed by 16 spare bytes, which receive the tag. Writing
   * into the caller's buffer lets the envelope allocate the token exactly once.
   */
  seal(nonce: Uint8Array, ad: Uint8Array, sealed: Uint8Array): void;
  /**
   * Verifies then decrypts `ciphertext || tag`: the plaintext, or `undefined` on a bad tag. `sealed` belongs to
   * the caller's fresh decode of one token, so a backend may decrypt into its memory; the result never shares
   * memory with anything else (in particular not with Node's Buffer pool).
   */
  open(nonce: Uint8Array, ad: Uint8Array, sealed: Uint8Array): Uint8Array | undefined;
}

/** Bytes of the Poly1305 tag. */
export const TAG_BYTES = 16;
/** Bytes of the XChaCha20 nonce: random nonces of this size never collide in practice (see the README). */
export const NONCE_BYTES = 24;
