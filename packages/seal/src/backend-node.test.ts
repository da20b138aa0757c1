import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { sha256 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { nodeAead, nodeBackend } from './backend-node.js';
import { nobleAead, portableBackend } from './backend-portable.js';

const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });

describe('node backend', () => {
  it('computes the same XChaCha20-Poly1305 as @noble/ciphers, both ways', () => {
    fc.assert(
      fc.property(
        bytes(32),
        bytes(24),
        fc.uint8Array({ maxLength: 40 }),
        fc.uint8Array({ maxLength: 3000 }),
        (key, nonce, ad, plain) => {
          const expected = xchacha20poly1305(key, nonce, ad).encrypt(plain);
          for (const aead of [nodeAead(key), nobleAead(key)]) {
            const sealed = new Uint8Array(plain.length + 16);
            sealed.set(plain);
            aead.seal(nonce, ad, sealed);
            expect(sealed).toEqual(expected);
            expect(aead.open(nonce, ad, expected)).toEqual(plain);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('returns undefined for a wrong tag, nonce or associated data', () => {
    const key = new Uint8Array(32).fill(1);
    const nonce = new Uint8Array(24).fill(2);
    const sealed = xchacha20poly1305(key, nonce, Uint8Array.of(1)).encrypt(new Uint8Array(100));
    for (const aead of [nodeAead(key), nobleAead(key)]) {
      expect(aead.open(nonce, Uint8Array.of(2), sealed)).toBeUndefined();
      expect(aead.open(new Uint8Array(24), Uint8Array.of(1), sealed)).toBeUndefined();
      expect(aead.open(nonce, Uint8Array.of(1), sealed.with(116 - 1, sealed[115]! ^ 1))).toBeUndefined();
      expect(aead.open(nonce, Uint8Array.of(1), sealed.subarray(0, 16))).toBeUndefined();
    }
  });

  it('hands out plain Uint8Arrays that own their memory (never a view into the Buffer pool)', () => {
    const key = new Uint8Array(32);
    const nonce = new Uint8Array(24);
    for (const size of [0, 1, 100, 5000]) {
      const sealed = xchacha20poly1305(key, nonce).encrypt(new Uint8Array(size));
      const plain = nodeAead(key).open(nonce, new Uint8Array(), sealed)!;
      expect(plain.constructor).toBe(Uint8Array);
      expect(plain.buffer.byteLength).toBe(size);
    }
  });

  it('computes the same SHA-256 as @noble/hashes (the context digest)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (data) => {
        expect(new Uint8Array(nodeBackend.sha256(data))).toEqual(sha256(data));
        expect(new Uint8Array(portableBackend.sha256(data))).toEqual(sha256(data));
      }),
      { numRuns: 200 },
    );
  });

  it('hashes a string as TextEncoder encodes it, lone surrogates included', () => {
    const utf8 = new TextEncoder();
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
        expect(new Uint8Array(nodeBackend.sha256Text!(text))).toEqual(sha256(utf8.encode(text)));
      }),
      { numRuns: 300 },
    );
    for (const text of ['\ud800', 'a\udfffb', '\udc00\ud800', 'é😀']) {
      expect(new Uint8Array(nodeBackend.sha256Text!(text))).toEqual(sha256(utf8.encode(text)));
    }
  });

  it('decodes only canonical base64url, even though Buffer would accept more', () => {
    expect(nodeBackend.decode('AQ')).toEqual(Buffer.of(1));
    for (const t of ['AQ==', 'AR', 'A+', 'A/', ' AQ', 'AQ\n', 'A', 'AQé'])
      expect(nodeBackend.decode(t)).toBeUndefined();
  });

  it('falls back to @noble/ciphers where OpenSSL lacks ChaCha20-Poly1305 (FIPS builds)', async () => {
    vi.resetModules();
    const unavailable = () => {
      throw new Error('Unknown cipher');
    };
    vi.doMock('node:crypto', async (original) => ({
      ...(await original<object>()),
      getCiphers: () => ['aes-256-gcm'],
      createCipheriv: unavailable,
      createDecipheriv: unavailable,
    }));
    try {
      const { nodeBackend: fips } = await import('./backend-node.js');
      const key = new Uint8Array(32).fill(3);
      const nonce = new Uint8Array(24).fill(4);
      const sealed = new Uint8Array(21);
      fips.aead(key).seal(nonce, new Uint8Array(), sealed);
      expect(sealed).toEqual(xchacha20poly1305(key, nonce).encrypt(new Uint8Array(5)));
    } finally {
      vi.doUnmock('node:crypto');
      vi.resetModules();
    }
  });
});
