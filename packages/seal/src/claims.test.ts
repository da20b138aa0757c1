import { sha256 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Claims, CONTEXT_DIGEST_BYTES, contextDigest, decodeClaims, encodeClaims } from './claims.js';

const claims = fc.record({
  iat: fc.integer({ min: 0, max: 0xffff_fffe }),
  ttl: fc.integer({ min: 1, max: 0xffff }),
  audience: fc.uint8Array({ maxLength: 255 }),
  context: fc.option(fc.uint8Array({ minLength: 32, maxLength: 32 }), { nil: undefined }),
});

describe('claims v1', () => {
  it('decode(encode(c) || payload) = c, payload offset right after', () => {
    fc.assert(
      fc.property(claims, fc.uint8Array({ maxLength: 64 }), ({ iat, ttl, audience, context }, payload) => {
        const exp = Math.min(iat + ttl, 0xffff_ffff);
        const head = encodeClaims({ iat, exp, audience, context });
        expect(head.length).toBe(10 + audience.length + (context ? 32 : 0));
        const plain = new Uint8Array([...head, ...payload]);
        const parsed = decodeClaims(plain)!;
        expect(parsed.claims).toEqual({ iat, exp, audience, context });
        expect(plain.subarray(parsed.payloadOffset)).toEqual(payload);
      }),
    );
  });

  it('lays out flags, iat, exp, audience, digest as documented', () => {
    const context = contextDigest('ctx', sha256);
    const head = encodeClaims({ iat: 0x01020304, exp: 0x05060708, audience: Uint8Array.of(0x61), context });
    expect(Array.from(head.subarray(0, 11))).toEqual([1, 1, 2, 3, 4, 5, 6, 7, 8, 1, 0x61]);
    expect(head.subarray(11)).toEqual(context);
    expect(context.length).toBe(CONTEXT_DIGEST_BYTES);
  });

  const valid: Claims = { iat: 100, exp: 200, audience: Uint8Array.of(1, 2), context: undefined };
  it.each([
    ['shorter than the fixed part', (b: Uint8Array) => b.subarray(0, 9)],
    ['a reserved flag bit', (b: Uint8Array) => b.with(0, 2)],
    ['a context flag without digest bytes', (b: Uint8Array) => b.with(0, 1)],
    ['an audience past the end', (b: Uint8Array) => b.with(9, 3)],
    ['exp equal to iat', (b: Uint8Array) => b.with(8, 100)],
  ])('rejects %s', (_label, mutate) => {
    expect(decodeClaims(encodeClaims(valid))).toBeDefined();
    expect(decodeClaims(mutate(encodeClaims(valid)))).toBeUndefined();
  });
});
