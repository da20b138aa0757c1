import { createHash, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nodeBackend } from './backend-node.js';
import { portableBackend } from './backend-portable.js';
import { createKeyRing, deriveCipherKey, generateKey, KEY_ID_BYTES, keyIdOf, parseKeys } from './keys.js';
import { entries, manualClock, reasonOf } from './test-support/flavours.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const text = (s: string) => new TextEncoder().encode(s);

describe('generateKey', () => {
  it('returns 32 fresh random bytes', () => {
    const a = generateKey();
    expect(a).toBeInstanceOf(Uint8Array);
    expect(a.length).toBe(32);
    expect(hex(a)).not.toBe(hex(generateKey()));
  });
});

describe('parseKeys', () => {
  const key = Uint8Array.from({ length: 32 }, (_, i) => i);
  const key48 = Uint8Array.from({ length: 48 }, (_, i) => 255 - i);

  it('reads base64url, hex (64+ digits), standard base64 with padding, in order, trimmed', () => {
    const b64url = Buffer.from(key).toString('base64url');
    const b64 = Buffer.from(key48).toString('base64');
    expect(b64).toMatch(/[+/]/);
    expect(parseKeys(` ${b64url} ,\n${hex(key48)}, ${b64}`)).toEqual([key, key48, key48]);
    expect(parseKeys(hex(key).toUpperCase())).toEqual([key]);
    expect(parseKeys(Buffer.from(key).toString('base64'))).toEqual([key]);
  });

  it('round-trips what the CLI keygen prints', () => {
    const k = generateKey();
    expect(parseKeys(Buffer.from(k).toString('base64url'))).toEqual([k]);
  });

  it.each([
    ['a number', 42, TypeError, /"text" expected string, got number/],
    ['bytes', new Uint8Array(32), TypeError, /"text" expected string/],
    ['undefined', undefined, TypeError, /"text" expected string/],
    ['an empty string', '', RangeError, /at least one key/],
    ['whitespace', '  ', RangeError, /at least one key/],
    ['an empty entry', `${hex(key)},`, RangeError, /"keys\[1\]" is empty/],
    [
      'a short key',
      Buffer.alloc(16).toString('base64url'),
      RangeError,
      /"keys\[0\]" expected Uint8Array of length ≥ 32, got 16/,
    ],
    ['a passphrase', 'correct-horse-battery-staple-1234', RangeError, /"keys\[0\]"/],
    ['odd hex', `${hex(key)}a`, RangeError, /odd number of hex digits/],
    ['junk', 'not a key at all!', RangeError, /neither hex nor base64url/],
  ])('rejects %s', (_label, input, type, message) => {
    expect(() => parseKeys(input as string)).toThrow(type);
    expect(() => parseKeys(input as string)).toThrow(message);
  });
});

describe('key ring', () => {
  const k1 = generateKey();

  it.each([
    [
      'a single key instead of an array',
      k1,
      TypeError,
      /"keys" expected array of Uint8Array, got Uint8Array/,
    ],
    ['a string', 'secret', TypeError, /"keys" expected array/],
    ['an empty array', [], RangeError, /at least 1 key, got 0/],
    ['a string key', ['x'.repeat(32)], TypeError, /"keys\[0\]" expected Uint8Array, got string/],
    ['a number key', [0], TypeError, /"keys\[0\]" expected Uint8Array, got number/],
    ['an array of numbers', [Array.from(k1)], TypeError, /"keys\[0\]" expected Uint8Array, got array/],
    ['an ArrayBuffer', [k1.buffer], TypeError, /got ArrayBuffer|got object/],
    [
      'a 16-byte key',
      [new Uint8Array(16)],
      RangeError,
      /"keys\[0\]" expected Uint8Array of length ≥ 32, got 16/,
    ],
    ['a 31-byte second key', [k1, new Uint8Array(31)], RangeError, /"keys\[1\]" expected .* got 31/],
    [
      'a duplicate',
      [k1, generateKey(), Uint8Array.from(k1)],
      RangeError,
      /"keys\[2\]" duplicates "keys\[0\]"/,
    ],
  ])('rejects %s', (_label, keys, type, message) => {
    for (const { api } of entries) {
      expect(() => api.createSealer({ keys: keys as Uint8Array[] })).toThrow(type);
      expect(() => api.createSealer({ keys: keys as Uint8Array[] })).toThrow(message);
    }
  });

  it('accepts longer secrets (any length ≥ 32 is stretched by HKDF) and Buffers', () => {
    const sealer = entries[0].api.createSealer({ keys: [new Uint8Array(100).fill(1), Buffer.alloc(32, 2)] });
    expect(sealer.unseal(sealer.seal(text('ok')))).toEqual(text('ok'));
  });

  it('wants exactly one of keys or codec', () => {
    const codec = { seal: () => '', unseal: () => new Uint8Array() };
    expect(() => entries[0].api.createSealer({ keys: [k1], codec } as never)).toThrow(TypeError);
    expect(() => entries[0].api.createSealer({} as never)).toThrow(TypeError);
    expect(() => entries[0].api.createSealer({ codec: { seal: 1 } } as never)).toThrow(TypeError);
  });

  it('derives a 5-byte key id from the derived key and finds slots by it', () => {
    const ring = createKeyRing([k1, generateKey()], portableBackend);
    expect(ring.primary.id).toEqual(keyIdOf(deriveCipherKey(k1, portableBackend), portableBackend));
    expect(ring.primary.id.length).toBe(KEY_ID_BYTES);
    expect(ring.lookup(ring.primary.id)).toBe(ring.primary);
    expect(ring.lookup(new Uint8Array(KEY_ID_BYTES))).toBeUndefined();
  });

  it.each([
    ['portable', portableBackend],
    ['node', nodeBackend],
  ])('matches HKDF-SHA256 and SHA-256 as node:crypto computes them (%s backend)', (_, backend) => {
    const secret = generateKey();
    const info = 'boomerang-seal/v1 xchacha20-poly1305 key';
    const derived = new Uint8Array(hkdfSync('sha256', secret, new Uint8Array(0), info, 32));
    expect(new Uint8Array(deriveCipherKey(secret, backend))).toEqual(derived);
    const id = createHash('sha256')
      .update('boomerang-seal/v1 key id')
      .update(derived)
      .digest()
      .subarray(0, 5);
    expect(new Uint8Array(keyIdOf(derived, backend))).toEqual(new Uint8Array(id));
  });

  it.each([
    ['portable', portableBackend],
    ['node', nodeBackend],
  ])('is stable across releases (known answer, %s backend)', (_, backend) => {
    const secret = Uint8Array.from({ length: 32 }, (_, i) => i);
    expect(hex(deriveCipherKey(secret, backend))).toBe(DERIVED_KEY_HEX);
    expect(hex(keyIdOf(deriveCipherKey(secret, backend), backend))).toBe(KEY_ID_HEX);
  });
});

describe('rotation', () => {
  it('a fleet going [old] → [old,new] → [new,old] → [new] never rejects a valid token; then old-key tokens are', () => {
    const ttlSeconds = 600;
    for (const { api: a } of entries) {
      for (const { api: b } of entries) {
        const clock = manualClock();
        const [oldKey, newKey] = [generateKey(), generateKey()];
        // Odd instances run the other backend: a mixed fleet must interoperate too.
        const instance = (keys: Uint8Array[], i: number) =>
          (i % 2 === 0 ? a : b).createSealer({ keys, ttlSeconds, audience: 'fleet', clock: clock.now });
        const phases = [[oldKey], [oldKey, newKey], [newKey, oldKey], [newKey]];
        let fleet = [0, 1, 2].map((i) => instance([oldKey], i));
        const minted: { token: string; phase: number; exp: number; payload: Uint8Array }[] = [];
        for (const [phase, keys] of phases.entries()) {
          // The runbook: drop the old key only once every token it sealed has expired.
          if (phase === 3) clock.advance(ttlSeconds * 1000);
          // Instances restart one at a time, so old and new configurations serve side by side.
          for (let i = 0; i < fleet.length; i++) {
            fleet = fleet.map((s, j) => (j === i ? instance(keys, j) : s));
            for (const [j, sealer] of fleet.entries()) {
              const payload = text(`phase ${phase}, restart ${i}, instance ${j}`);
              minted.push({
                token: sealer.seal(payload),
                phase,
                exp: clock.now() + ttlSeconds * 1000,
                payload,
              });
            }
            for (const { token, exp, payload } of minted) {
              if (clock.now() >= exp) continue;
              for (const sealer of fleet) expect(sealer.unseal(token)).toEqual(payload);
            }
            clock.advance(60_000);
          }
        }
        // Phase 3 done: the old key is gone, so anything it sealed is refused, even a token minted just now.
        const oldTokens = minted.filter((m) => m.phase <= 1).map((m) => m.token);
        oldTokens.push(instance([oldKey], 0).seal(text('late')));
        for (const token of oldTokens) {
          for (const sealer of fleet) expect(reasonOf(() => sealer.unseal(token))).toBe('unknown-key');
        }
      }
    }
  });
});

const DERIVED_KEY_HEX = '305096a0400767457dcc1b77f641fc9caadaa76c0a84bd5cea6d68ae420cb76f';
const KEY_ID_HEX = '2f6854bbd0';
