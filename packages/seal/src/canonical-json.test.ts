import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps arrays in order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }, 3], c: { z: null, y: undefined } })).toBe(
      '{"a":[{"c":2,"d":1},3],"b":1,"c":{"z":null}}',
    );
  });

  it('keeps an own __proto__ member as a member', () => {
    expect(canonicalJson(JSON.parse('{"__proto__":{"x":1},"a":0}'))).toBe('{"__proto__":{"x":1},"a":0}');
  });

  it('writes exactly what the JSON.stringify replacer path writes, for JSON data and anything else', () => {
    const slow = (value: unknown) =>
      JSON.stringify(value, (_key, inner: unknown) => {
        if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) return inner;
        const sorted: Record<string, unknown> = {};
        for (const key of Object.keys(inner).sort()) {
          Object.defineProperty(sorted, key, {
            value: (inner as Record<string, unknown>)[key],
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return sorted;
      });
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(slow(value));
      }),
    );
    fc.assert(
      fc.property(
        fc.anything({
          withBoxedValues: true,
          withDate: true,
          withMap: true,
          withNullPrototype: true,
          withSparseArray: true,
          withTypedArray: true,
        }),
        (value) => {
          expect(canonicalJson(value)).toBe(slow(value));
        },
      ),
    );
    const deep: unknown[] = [];
    let at = deep;
    for (let i = 0; i < 200; i++) {
      const next: unknown[] = [];
      at.push({ [`k${i}`]: -0, z: [undefined, () => 1] }, next);
      at = next;
    }
    expect(canonicalJson(deep)).toBe(slow(deep));
    expect(canonicalJson({ b: 1, '': 2, 10: 3, 9: 4, 4294967295: 5, a: 6 })).toBe(
      '{"9":4,"10":3,"":2,"4294967295":5,"a":6,"b":1}',
    );
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { cyclic };
    expect(() => canonicalJson(cyclic)).toThrow(RangeError); // the sorted copies hide the cycle: stack overflow
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
  });

  it('is independent of insertion order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        const reversed = Object.fromEntries(Object.entries(object).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(object));
      }),
    );
  });
});
