import { createHash, hkdfSync } from 'node:crypto';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { portableBackend } from './backend-portable.js';
import { FORMAT_PREFIX, FORMAT_PREFIX_TEXT, FRAMING_BYTES } from './envelope.js';
import { deriveCipherKey, generateKey, keyIdOf } from './keys.js';
import { entries, manualClock, reasonOf } from './test-support/flavours.js';

const text = (s: string) => new TextEncoder().encode(s);
const SECRET = Uint8Array.from({ length: 32 }, (_, i) => i);
const NONCE = Uint8Array.from({ length: 24 }, (_, i) => 0x40 + i);
const NOW = Date.UTC(2026, 6, 28, 12); // 1785240000 s

/** Makes the next random draws return NONCE, so a token is reproducible. */
function fixNonce(): void {
  vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(
    <T extends ArrayBufferView | null>(a: T): T => {
      (a as unknown as Uint8Array).set(NONCE.subarray(0, (a as unknown as Uint8Array).length));
      return a;
    },
  );
}

describe('nonces', () => {
  it('are drawn from the CSPRNG for every token, never from a pool a VM snapshot or fork could replay', () => {
    const spy = vi.spyOn(globalThis.crypto, 'getRandomValues');
    const sealer = entries[0]!.api.createSealer({ keys: [SECRET] });
    const seen = new Set<string>();
    const before = spy.mock.calls.length;
    for (let i = 0; i < 50; i++) {
      const bytes = Buffer.from(sealer.seal(new Uint8Array(1)), 'base64url');
      seen.add(bytes.subarray(8, 32).toString('hex'));
    }
    expect(seen.size).toBe(50);
    expect(spy.mock.calls.length - before).toBe(50);
    vi.restoreAllMocks();
  });
});

describe('token format v1', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('every token starts with the format prefix text', () => {
    expect(Buffer.from(FORMAT_PREFIX).toString('base64url')).toBe(FORMAT_PREFIX_TEXT);
    for (const { api } of entries) {
      expect(
        api
          .createSealer({ keys: [generateKey()] })
          .seal(new Uint8Array())
          .startsWith('sl1_'),
      ).toBe(true);
    }
  });

  it('is byte-identical on both backends (known answer)', () => {
    for (const { api } of entries) {
      fixNonce();
      const sealer = api.createSealer({ keys: [SECRET], audience: 'aud', clock: () => NOW, ttlSeconds: 600 });
      expect(sealer.seal(text('hello'), { context: 'ctx' })).toBe(KNOWN_TOKEN);
      vi.restoreAllMocks();
      expect(sealer.unseal(KNOWN_TOKEN, { context: 'ctx' })).toEqual(text('hello'));
    }
  });

  it('decodes by the documented layout with nothing but HKDF and XChaCha20-Poly1305', () => {
    const bytes = Buffer.from(KNOWN_TOKEN, 'base64url');
    const key = new Uint8Array(
      hkdfSync('sha256', SECRET, new Uint8Array(), 'boomerang-seal/v1 xchacha20-poly1305 key', 32),
    );
    expect(Array.from(bytes.subarray(0, 3))).toEqual([0xb2, 0x5d, 0x7f]);
    expect(bytes.subarray(3, 8)).toEqual(Buffer.from(keyIdOf(key, portableBackend)));
    expect(bytes.subarray(8, 32)).toEqual(Buffer.from(NONCE));
    const plain = xchacha20poly1305(key, bytes.subarray(8, 32), bytes.subarray(0, 8)).decrypt(
      bytes.subarray(32),
    );
    const view = new DataView(plain.buffer, plain.byteOffset);
    expect(plain[0]).toBe(1); // context digest present
    expect(view.getUint32(1)).toBe(NOW / 1000);
    expect(view.getUint32(5)).toBe(NOW / 1000 + 600);
    expect(plain[9]).toBe(3);
    expect(new TextDecoder().decode(plain.subarray(10, 13))).toBe('aud');
    expect(plain.subarray(13, 45)).toEqual(new Uint8Array(createHash('sha256').update('ctx').digest()));
    expect(new TextDecoder().decode(plain.subarray(45))).toBe('hello');
    expect(bytes.length).toBe(FRAMING_BYTES + 10 + 3 + 32 + 5);
  });

  it('binds prefix and key id as associated data', () => {
    const [k1, k2] = [generateKey(), generateKey()];
    for (const { api } of entries) {
      const sealer = api.createSealer({ keys: [k1, k2] });
      const bytes = Buffer.from(sealer.seal(text('p')), 'base64url');
      // Re-label the token with the other key's id: the key exists, the tag does not verify.
      bytes.set(keyIdOf(deriveCipherKey(k2, portableBackend), portableBackend), 3);
      expect(reasonOf(() => sealer.unseal(bytes.toString('base64url')))).toBe('forged');
      // Another format version: refused before any key is looked at.
      const v2 = Buffer.from(sealer.seal(text('p')), 'base64url');
      v2.set(Buffer.from('sl2_', 'base64url'), 0);
      expect(reasonOf(() => sealer.unseal(v2.toString('base64url')))).toBe('malformed');
    }
  });

  it('tokens are interchangeable between the backends', () => {
    const secret = generateKey();
    const clock = manualClock();
    const [a, b] = entries.map(({ api }) =>
      api.createSealer({ keys: [secret], audience: 'x', clock: clock.now }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), fc.string(), (payload, context) => {
        expect(b!.unseal(a!.seal(payload, { context }), { context })).toEqual(payload);
        expect(a!.unseal(b!.seal(payload, { context }), { context })).toEqual(payload);
      }),
      { numRuns: 200 },
    );
  });
});

const KNOWN_TOKEN =
  'sl1_L2hUu9BAQUJDREVGR0hJSktMTU5PUFFSU1RVVlc7STHkui5MoEXroYAWn8nDclDJK6VXmatCKOV78g8aoO0w_HLqJW595uwORn5TKJcqGzylKH767aknL3WojSLV8Kk';
