import type { JSONRPCMessage } from '@boomerang/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DIRECT_DEPTH, wireCopy } from './wire-copy.js';

/** What a stdio or HTTP peer would parse: the reference the copy must equal. */
const viaJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value) as string);

/** The copy, or the constructor of what it threw. */
function outcome(run: () => unknown): { value: unknown } | { threw: string } {
  try {
    return { value: run() };
  } catch (error) {
    return { threw: (error as Error).constructor.name };
  }
}

/** Every object reachable from `value`. */
function objectsOf(value: unknown, into = new Set<object>()): Set<object> {
  if (typeof value === 'object' && value !== null && !into.has(value)) {
    into.add(value);
    for (const member of Object.values(value)) objectsOf(member, into);
  }
  return into;
}

const send = (value: unknown) => wireCopy(value as JSONRPCMessage);

/** Values JSON has rules for: -0, non-finite numbers, undefined, dates, `__proto__` keys, class instances… */
const awkward = fc.oneof(
  fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, undefined, null, '__proto__', '\ud800'),
  fc.date({ noInvalidDate: true }),
  fc.constant(() => 1),
  fc.constant(Symbol('s')),
  fc.constant(new Map([[1, 2]])),
  fc.constant(new Uint8Array([1, 2])),
  fc.dictionary(fc.constantFrom('__proto__', 'toString', '0', '7', 'a'), fc.integer()),
);

describe('wireCopy', () => {
  it('equals the JSON round trip, key order and -0 included, for any value', () => {
    const values = fc.oneof(
      fc.anything({
        withBoxedValues: true,
        withDate: true,
        withMap: true,
        withSet: true,
        withNullPrototype: true,
        withObjectString: true,
        withTypedArray: true,
        withSparseArray: true,
        values: [fc.anything(), awkward],
      }),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(values, (value) => {
        const object = { jsonrpc: '2.0', method: 'x', params: { value } };
        const copy = send(object);
        const reference = viaJson(object);
        expect(copy).toStrictEqual(reference);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(reference));
        for (const inner of objectsOf(copy)) expect(objectsOf(object).has(inner)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('throws exactly when JSON cannot write the value (BigInt), always as a TypeError', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withDate: true, withMap: true }), (value) => {
        const message = { jsonrpc: '2.0', id: 1, result: { value } };
        const copied = outcome(() => send(message));
        const reference = outcome(() => viaJson(message));
        if ('threw' in reference) expect(copied).toEqual({ threw: 'TypeError' });
        else expect(copied).toEqual({ value: reference.value });
      }),
      { numRuns: 300 },
    );
  });

  it('turns -0 into 0 and non-finite numbers into null, as JSON does', () => {
    const copy = send({ a: -0, b: [-0, Number.NaN], c: Number.NEGATIVE_INFINITY }) as unknown as {
      a: number;
      b: unknown[];
      c: unknown;
    };
    expect(Object.is(copy.a, 0)).toBe(true);
    expect(Object.is(copy.b[0], 0)).toBe(true);
    expect(copy).toStrictEqual({ a: 0, b: [0, null], c: null });
  });

  it('keeps an own "__proto__" member a member, never a prototype', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"x":1}');
    const copy = send(value) as unknown as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(copy).toStrictEqual(viaJson(value));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('calls toJSON with the key JSON.stringify passes (member name, index as a string, "" at the top)', () => {
    const keyOf = { toJSON: (key: string) => `key:${key}` };
    const message = { a: keyOf, list: [keyOf, keyOf], omit: { toJSON: () => undefined } };
    expect(send(message)).toStrictEqual({ a: 'key:a', list: ['key:0', 'key:1'] });
    expect(send(keyOf as unknown as JSONRPCMessage)).toBe('key:');
    expect(send([{ toJSON: () => undefined }])).toStrictEqual([null]);
  });

  it('reads every member once (getters run once, in order)', () => {
    const reads: string[] = [];
    const message = {
      get a() {
        reads.push('a');
        return { when: new Date(0) };
      },
      get b() {
        reads.push('b');
        return [1];
      },
    };
    expect(send(message)).toStrictEqual({ a: { when: '1970-01-01T00:00:00.000Z' }, b: [1] });
    expect(reads).toEqual(['a', 'b']);
  });

  it('copies values deeper than the direct limit through JSON, with the same result', () => {
    let deep: unknown = { leaf: [undefined, -0] };
    for (let i = 0; i < MAX_DIRECT_DEPTH * 3; i++) deep = i % 2 ? { next: deep } : [deep];
    expect(send(deep)).toStrictEqual(viaJson(deep));
  });

  it.each([
    [
      'a cycle',
      () => {
        const params: Record<string, unknown> = { list: [] };
        (params.list as unknown[]).push({ back: params });
        return params;
      },
    ],
    ['a BigInt', () => ({ nested: [{ n: 1n }] })],
    ['a BigInt at the top', () => 1n],
  ])('refuses %s with a TypeError naming JSON', (_, make) => {
    expect(() => send(make())).toThrow(TypeError);
    expect(() => send(make())).toThrow(/^"message" cannot be sent as JSON: /);
  });

  it.each([
    ['undefined', undefined],
    ['a function', () => 1],
    ['an object whose toJSON returns undefined', { toJSON: () => undefined }],
  ])('refuses %s, which JSON writes as nothing', (_, value) => {
    expect(() => send(value)).toThrow(/^"message" expected a JSON-RPC message, got /);
  });
});
