import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SealError } from './errors.js';
import { generateKey } from './keys.js';
import { CLOCK_SKEW_SECONDS, DEFAULT_MAX_TOKEN_BYTES } from './sealer.js';
import { type Flavour, flavours, manualClock, reasonOf } from './test-support/flavours.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const text = (s: string) => new TextEncoder().encode(s);

function sealerSuite(flavour: Flavour): void {
  describe(flavour.name, () => {
    const secret = generateKey();
    const clock = manualClock();
    const sealer = flavour.make(secret, { audience: 'orders', clock: clock.now });

    describe('round trips', () => {
      it('unseal(seal(x)) = x for arbitrary bytes, contexts and TTLs', () => {
        fc.assert(
          fc.property(
            fc.uint8Array({ maxLength: 2048 }),
            fc.option(fc.oneof(fc.string(), fc.uint8Array({ maxLength: 64 })), { nil: undefined }),
            fc.integer({ min: 1, max: 10 ** 6 }),
            (payload, context, ttlSeconds) => {
              const token = sealer.seal(
                payload,
                context === undefined ? { ttlSeconds } : { context, ttlSeconds },
              );
              expect(sealer.unseal(token, context === undefined ? {} : { context })).toEqual(payload);
            },
          ),
          { numRuns: 150 },
        );
      });

      it('unsealJson(sealJson(v)) = v for arbitrary JSON', () => {
        fc.assert(
          fc.property(fc.jsonValue(), (value) => {
            const expected: unknown = JSON.parse(JSON.stringify(value));
            expect(sealer.unsealJson(sealer.sealJson(value, { context: 'c' }), { context: 'c' })).toEqual(
              expected,
            );
          }),
          { numRuns: 150 },
        );
      });

      it('two seals of the same input differ (fresh randomness), both open', () => {
        const a = sealer.seal(text('same'));
        const b = sealer.seal(text('same'));
        expect(a).not.toBe(b);
        expect(sealer.unseal(a)).toEqual(sealer.unseal(b));
      });

      it('a string context and its UTF-8 bytes are the same context', () => {
        const token = sealer.seal(text('x'), { context: 'checkout:é' });
        expect(sealer.unseal(token, { context: text('checkout:é') })).toEqual(text('x'));
      });

      it('a prepared context is the context it was prepared from, any number of times, both ways', () => {
        fc.assert(
          fc.property(
            fc.oneof(fc.string(), fc.uint8Array({ maxLength: 64 })),
            fc.uint8Array({ maxLength: 64 }),
            (context, payload) => {
              const prepared = sealer.prepareContext(context);
              const token = sealer.seal(payload, { context: prepared });
              expect(sealer.unseal(token, { context })).toEqual(payload);
              expect(sealer.unseal(token, { context: prepared })).toEqual(payload);
              expect(sealer.unseal(sealer.seal(payload, { context }), { context: prepared })).toEqual(
                payload,
              );
              const other = sealer.prepareContext(`${String(context)}!`);
              expect(reasonOf(() => sealer.unseal(token, { context: other }))).toBe('context');
              expect(reasonOf(() => sealer.unseal(token))).toBe('context');
            },
          ),
          { numRuns: 100 },
        );
      });

      it('a prepared context keeps the bytes it was prepared from, and cannot be forged', () => {
        const bytes = text('order:1');
        const prepared = sealer.prepareContext(bytes);
        bytes.set(text('order:2'));
        const token = sealer.seal(text('p'), { context: prepared });
        expect(sealer.unseal(token, { context: 'order:1' })).toEqual(text('p'));
        expect(Object.isFrozen(prepared)).toBe(true);
        const Forge = prepared.constructor as new (digest: Uint8Array) => unknown;
        expect(() => new Forge(new Uint8Array(32))).toThrow(TypeError);
        const lookalike = Object.create(Object.getPrototypeOf(prepared)) as string;
        expect(() => sealer.seal(text('p'), { context: lookalike })).toThrow(TypeError);
        expect(() => sealer.unseal(token, { context: lookalike })).toThrow(TypeError);
      });

      it('methods work detached from the sealer', () => {
        const { seal, unseal } = sealer;
        expect(unseal(seal(text('detached')))).toEqual(text('detached'));
      });
    });

    describe('tampering', () => {
      const token = sealer.seal(text('tamper-proof'), { context: 'ctx' });
      const open = (t: string) => reasonOf(() => sealer.unseal(t, { context: 'ctx' }));

      it('every single-character change is rejected', () => {
        for (let i = 0; i < token.length; i++) {
          for (const c of `${ALPHABET}=+/ .é`) {
            if (c === token[i]) continue;
            expect(open(token.slice(0, i) + c + token.slice(i + 1))).toMatch(/malformed|unknown-key|forged/);
          }
        }
      });

      it('every single-byte change of the decoded token is rejected', () => {
        const bytes = Buffer.from(token, 'base64url');
        fc.assert(
          fc.property(fc.nat(bytes.length - 1), fc.integer({ min: 1, max: 255 }), (at, mask) => {
            const copy = Buffer.from(bytes);
            copy[at] = copy[at]! ^ mask;
            expect(open(copy.toString('base64url'))).toMatch(/malformed|unknown-key|forged/);
          }),
        );
      });

      it('every truncation and extension is rejected', () => {
        for (let n = 0; n < token.length; n++) expect(open(token.slice(0, n))).toMatch(/malformed|forged/);
        for (const tail of [...ALPHABET, 'AA', 'AAA', 'AAAA', '=', '==', ' ', '\n', '\0']) {
          expect(open(token + tail)).toMatch(/malformed|forged/);
        }
      });
    });

    describe('claims', () => {
      it('wrong, missing or unexpected context → context', () => {
        const withContext = sealer.seal(text('p'), { context: 'order:1' });
        expect(reasonOf(() => sealer.unseal(withContext, { context: 'order:2' }))).toBe('context');
        expect(reasonOf(() => sealer.unseal(withContext))).toBe('context');
        expect(reasonOf(() => sealer.unseal(withContext, { context: '' }))).toBe('context');
        const without = sealer.seal(text('p'));
        expect(reasonOf(() => sealer.unseal(without, { context: 'order:1' }))).toBe('context');
        expect(reasonOf(() => sealer.unseal(sealer.seal(text('p'), { context: '' })))).toBe('context');
      });

      it('same key, other audience → audience (both ways, and none vs some)', () => {
        const other = flavour.make(secret, { audience: 'billing', clock: clock.now });
        const none = flavour.make(secret, { clock: clock.now });
        expect(reasonOf(() => other.unseal(sealer.seal(text('p'))))).toBe('audience');
        expect(reasonOf(() => sealer.unseal(other.seal(text('p'))))).toBe('audience');
        expect(reasonOf(() => none.unseal(sealer.seal(text('p'))))).toBe('audience');
        expect(reasonOf(() => sealer.unseal(none.seal(text('p'))))).toBe('audience');
        expect(none.unseal(none.seal(text('p')))).toEqual(text('p'));
      });

      it('expires exactly ttl seconds after issue → expired', () => {
        const local = manualClock(Date.UTC(2026, 0, 1)); // on a second boundary
        const s = flavour.make(secret, { ttlSeconds: 60, clock: local.now });
        const token = s.seal(text('p'));
        const short = s.seal(text('p'), { ttlSeconds: 1 });
        local.advance(59_999);
        expect(s.unseal(token)).toEqual(text('p'));
        expect(reasonOf(() => s.unseal(short))).toBe('expired');
        local.advance(1);
        expect(reasonOf(() => s.unseal(token))).toBe('expired');
        local.advance(10 ** 9);
        expect(reasonOf(() => s.unseal(token))).toBe('expired');
      });

      it(`issued more than ${CLOCK_SKEW_SECONDS}s in the future → not-yet-valid; within the skew → accepted`, () => {
        const ahead = manualClock(clock.now() + CLOCK_SKEW_SECONDS * 1000);
        const fast = flavour.make(secret, { audience: 'orders', clock: ahead.now, ttlSeconds: 3600 });
        expect(sealer.unseal(fast.seal(text('p')))).toEqual(text('p'));
        ahead.advance(1000);
        expect(reasonOf(() => sealer.unseal(fast.seal(text('p'))))).toBe('not-yet-valid');
      });

      it('another key → rejected (unknown-key for the ring, forged for a codec)', () => {
        const stranger = flavour.make(generateKey(), { audience: 'orders', clock: clock.now });
        expect(reasonOf(() => sealer.unseal(stranger.seal(text('p'))))).toBe(
          flavour.brokenReason === 'malformed' ? 'unknown-key' : 'forged',
        );
      });
    });

    describe('sizes', () => {
      it('refuses tokens over maxTokenBytes before decoding → too-large', () => {
        const small = flavour.make(secret, { maxTokenBytes: 200, clock: clock.now });
        const token = small.seal(new Uint8Array(50));
        expect(reasonOf(() => small.unseal(`${token}${'A'.repeat(201 - token.length)}`))).toBe('too-large');
        expect(() => small.seal(new Uint8Array(200))).toThrow(RangeError);
        expect(() => small.seal(new Uint8Array(200))).toThrow(/at most 200 characters/);
      });

      it(`mints and opens payloads right up to the default limit (${DEFAULT_MAX_TOKEN_BYTES})`, () => {
        const big = sealer.seal(new Uint8Array(40_000).fill(7));
        expect(big.length).toBeLessThanOrEqual(DEFAULT_MAX_TOKEN_BYTES);
        expect(sealer.unseal(big)).toEqual(new Uint8Array(40_000).fill(7));
        expect(() => sealer.seal(new Uint8Array(60_000))).toThrow(RangeError);
      });
    });

    describe('hostile input', () => {
      const good = sealer.seal(text('p'));
      const table: [label: string, token: unknown, reason: string][] = [
        ['undefined', undefined, 'malformed'],
        ['null', null, 'malformed'],
        ['number', 42, 'malformed'],
        ['bigint', 42n, 'malformed'],
        ['boolean', true, 'malformed'],
        ['object', { token: good }, 'malformed'],
        ['array', [good], 'malformed'],
        ['String object', new String(good), 'malformed'],
        ['bytes', text(good), 'malformed'],
        ['function', () => good, 'malformed'],
        ['symbol', Symbol('t'), 'malformed'],
        ['empty string', '', flavour.brokenReason],
        ['10 MB string', 'A'.repeat(10 * 1024 * 1024), 'too-large'],
        ['10 MB of emoji', '😀'.repeat(5 * 1024 * 1024), 'too-large'],
        ['padding', `${good}=`, flavour.brokenReason],
        [
          'padding to a multiple of 4',
          good + '='.repeat((4 - (good.length % 4)) % 4 || 4),
          flavour.brokenReason,
        ],
        ['standard alphabet', good.replace(/-/g, '+').replace(/_/g, '/').concat('+/'), flavour.brokenReason],
        ['leading space', ` ${good}`, flavour.brokenReason],
        ['trailing newline', `${good}\n`, flavour.brokenReason],
        ['zero-width space', `${good.slice(0, 10)}\u200b${good.slice(10)}`, flavour.brokenReason],
        [
          'full-width letters',
          good.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)),
          flavour.brokenReason,
        ],
        ['lone surrogate', `${good}\ud800`, flavour.brokenReason],
        ['NUL', `${good}\0`, flavour.brokenReason],
        ['JSON of the token', JSON.stringify(good), flavour.brokenReason],
      ];
      it.each(table)('%s → %s', (_label, token, reason) => {
        expect(reasonOf(() => sealer.unseal(token as string))).toBe(reason);
      });

      it('never throws anything but SealError for arbitrary strings and values', () => {
        fc.assert(
          fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.anything()), (value) => {
            expect(() => sealer.unseal(value as string)).toThrow(SealError);
          }),
          { numRuns: 300 },
        );
      });
    });

    describe('wrong arguments are TypeError / RangeError, never coerced', () => {
      it.each([
        ['payload string', () => sealer.seal('bytes please' as unknown as Uint8Array), TypeError],
        ['payload number', () => sealer.seal(5 as unknown as Uint8Array), TypeError],
        ['payload array', () => sealer.seal([1, 2] as unknown as Uint8Array), TypeError],
        ['context number', () => sealer.seal(text('p'), { context: 5 as unknown as string }), TypeError],
        ['unseal context number', () => sealer.unseal('x', { context: 5 as unknown as string }), TypeError],
        ['prepare a number', () => sealer.prepareContext(5 as unknown as string), TypeError],
        ['prepare an object', () => sealer.prepareContext({} as unknown as string), TypeError],
        ['ttl string', () => sealer.seal(text('p'), { ttlSeconds: '60' as unknown as number }), TypeError],
        ['ttl 0', () => sealer.seal(text('p'), { ttlSeconds: 0 }), RangeError],
        ['ttl fraction', () => sealer.seal(text('p'), { ttlSeconds: 1.5 }), RangeError],
        ['ttl NaN', () => sealer.seal(text('p'), { ttlSeconds: Number.NaN }), RangeError],
        ['JSON undefined', () => sealer.sealJson(undefined), TypeError],
        ['JSON bigint', () => sealer.sealJson({ n: 1n }), TypeError],
      ])('%s', (_label, fn, type) => {
        expect(fn).toThrow(type);
      });

      it.each([
        ['ttlSeconds -1', { ttlSeconds: -1 }, RangeError],
        ['ttlSeconds "600"', { ttlSeconds: '600' }, TypeError],
        ['audience number', { audience: 7 }, TypeError],
        ['audience over 255 bytes', { audience: 'é'.repeat(128) }, RangeError],
        ['clock not a function', { clock: 5 }, TypeError],
        ['maxTokenBytes 0', { maxTokenBytes: 0 }, RangeError],
        ['maxTokenBytes Infinity', { maxTokenBytes: Number.POSITIVE_INFINITY }, RangeError],
      ])('option %s', (_label, options, type) => {
        expect(() => flavour.make(secret, options as never)).toThrow(type);
      });

      it('a clock that returns garbage is a TypeError, not a token verdict', () => {
        const broken = flavour.make(secret, { clock: () => Number.NaN });
        expect(() => broken.seal(text('p'))).toThrow(TypeError);
        const before = flavour.make(secret, { clock: () => -1 });
        expect(() => before.seal(text('p'))).toThrow(RangeError);
      });
    });
  });
}

describe('seal suite', () => {
  for (const flavour of flavours) sealerSuite(flavour);
});
