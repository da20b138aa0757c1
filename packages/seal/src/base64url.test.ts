import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeBackend } from './backend-node.js';
import { portableBackend } from './backend-portable.js';
import { base64UrlLength, decodeBase64Url, encodeBase64Url } from './base64url.js';

const backends = [portableBackend, nodeBackend];

describe('base64url', () => {
  it('encodes like Buffer (RFC 4648 §5, unpadded) and round-trips, on every backend', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const expected = Buffer.from(bytes).toString('base64url');
        expect(encodeBase64Url(bytes)).toBe(expected);
        expect(base64UrlLength(bytes.length)).toBe(expected.length);
        for (const b of backends) {
          expect(b.encode(bytes)).toBe(expected);
          expect(Uint8Array.from(b.decode(expected)!)).toEqual(bytes);
        }
      }),
    );
  });

  it('accepts exactly the encoder output: the backends agree on arbitrary text', () => {
    const near = fc
      .tuple(fc.uint8Array({ maxLength: 40 }), fc.nat(60), fc.constantFrom(...'AQgw-_+/= \n.é\u0100\u0141'))
      .map(([bytes, at, c]) => {
        const t = Buffer.from(bytes).toString('base64url');
        const i = at % (t.length + 1);
        return t.slice(0, i) + c + t.slice(i + 1);
      });
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), near), (text) => {
        const canonical = Buffer.from(text, 'base64url').toString('base64url') === text;
        for (const b of backends) expect(b.decode(text) !== undefined).toBe(canonical);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['padding', 'AA=='],
    ['single padding', 'AAA='],
    ['plus', 'A+AA'],
    ['slash', 'A/AA'],
    ['length 4k+1', 'AAAAA'],
    ['unused bits set after 2 chars', 'AB'],
    ['unused bits set after 3 chars', 'AAB'],
    ['space', 'AA AA'],
    ['newline', 'AAAA\n'],
    ['non-ASCII', 'AAé'],
    ['char above 255 whose low byte is valid', 'AA\u0141A'],
  ])('rejects %s', (_label, text) => {
    for (const b of backends) expect(b.decode(text)).toBeUndefined();
    expect(decodeBase64Url(text)).toBeUndefined();
  });

  it('decodes the empty string to no bytes', () => {
    for (const b of backends) expect(b.decode('')?.length).toBe(0);
  });
});
