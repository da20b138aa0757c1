import { describe, expect, it } from 'vitest';
import {
  decodeHeaderValue,
  encodeHeaderValue,
  headerMatches,
  nameParamOf,
  paramHeadersOf,
  valueAt,
} from './headers.js';

describe('encodeHeaderValue / decodeHeaderValue', () => {
  // The spec's own examples (basic/transports/streamable-http, "Value Encoding").
  const examples: [string, string][] = [
    ['us-west1', 'us-west1'],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
  ];
  for (const [value, encoded] of examples) {
    it(`${JSON.stringify(value)} ↔ ${encoded}`, () => {
      expect(encodeHeaderValue(value)).toBe(encoded);
      expect(decodeHeaderValue(encoded)).toBe(value);
    });
  }

  it('keeps inner spaces and tabs plain, encodes control characters and lone edges', () => {
    expect(encodeHeaderValue('a b\tc')).toBe('a b\tc');
    expect(encodeHeaderValue('tab\t')).toMatch(/^=\?base64\?/);
    expect(encodeHeaderValue('\u0000')).toMatch(/^=\?base64\?/);
    expect(encodeHeaderValue('')).toBe('');
  });

  it('round-trips any string (astral characters included)', () => {
    for (const value of ['🪃', 'é', 'a\r\nb', ' ', '=?base64??=', 'x'.repeat(1000)]) {
      expect(decodeHeaderValue(encodeHeaderValue(value))).toBe(value);
    }
  });

  it('round-trips random strings, and every encoded value is a valid plain header value', () => {
    const pool = [0x09, 0x0a, 0x20, 0x3d, 0x3f, 0x41, 0x7e, 0x7f, 0xe9, 0x65e5, 0x1fa83, 0xfeff];
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 500; i++) {
      const length = random(12);
      const value = String.fromCodePoint(
        ...Array.from({ length }, () => pool[random(pool.length)] as number),
      );
      const encoded = encodeHeaderValue(value);
      expect(encoded).toMatch(/^(?:[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)?$/);
      expect(decodeHeaderValue(encoded)).toBe(value);
    }
  });

  it('refuses invalid received values', () => {
    expect(decodeHeaderValue('=?base64?!!!?=')).toBeUndefined();
    expect(decodeHeaderValue('=?base64?SGk?=')).toBeUndefined(); // not padded
    expect(decodeHeaderValue('=?base64?/w==?=')).toBeUndefined(); // not UTF-8
    expect(decodeHeaderValue('caf\u00e9')).toBeUndefined(); // obs-text
    expect(decodeHeaderValue('a\u0001b')).toBeUndefined();
    expect(decodeHeaderValue('=?BASE64?SGk=?=')).toBe('=?BASE64?SGk=?='); // markers are case-sensitive
  });
});

describe('headerMatches', () => {
  it('compares numbers numerically and everything else exactly', () => {
    expect(headerMatches('42.0', 42)).toBe(true);
    expect(headerMatches('42', 42)).toBe(true);
    expect(headerMatches('-7', -7)).toBe(true);
    expect(headerMatches('0x2A', 42)).toBe(false);
    expect(headerMatches('', 0)).toBe(false);
    expect(headerMatches('true', true)).toBe(true);
    expect(headerMatches('True', true)).toBe(false);
    expect(headerMatches('a', 'a')).toBe(true);
    expect(headerMatches('a', 'A')).toBe(false);
  });
});

describe('paramHeadersOf', () => {
  const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    type: 'object',
    properties,
    ...extra,
  });

  it('finds declarations on properties reachable through properties alone', () => {
    const result = paramHeadersOf(
      schema({
        region: { type: 'string', 'x-mcp-header': 'Region' },
        nested: { type: 'object', properties: { id: { type: 'integer', 'x-mcp-header': 'Id' } } },
        flag: { type: ['boolean', 'null'], 'x-mcp-header': 'Flag' },
        'x-mcp-header': { type: 'string' }, // a property named like the keyword is not an annotation
      }),
    );
    expect(result).toEqual({
      ok: true,
      headers: [
        { header: 'Region', path: ['region'] },
        { header: 'Id', path: ['nested', 'id'] },
        { header: 'Flag', path: ['flag'] },
      ],
    });
  });

  it('accepts schemas without declarations, and non-objects', () => {
    expect(paramHeadersOf({ type: 'object' })).toEqual({ ok: true, headers: [] });
    expect(paramHeadersOf(undefined)).toEqual({ ok: true, headers: [] });
  });

  const invalid: [string, unknown][] = [
    ['empty', schema({ a: { type: 'string', 'x-mcp-header': '' } })],
    ['not a string', schema({ a: { type: 'string', 'x-mcp-header': 7 } })],
    ['not a token', schema({ a: { type: 'string', 'x-mcp-header': 'Has Space' } })],
    ['a control character', schema({ a: { type: 'string', 'x-mcp-header': 'A\r\nB' } })],
    [
      'case-insensitively duplicated',
      schema({ a: { type: 'string', 'x-mcp-header': 'Dup' }, b: { type: 'string', 'x-mcp-header': 'dup' } }),
    ],
    ['on a number', schema({ a: { type: 'number', 'x-mcp-header': 'A' } })],
    ['on an object', schema({ a: { type: 'object', 'x-mcp-header': 'A' } })],
    ['without a type', schema({ a: { 'x-mcp-header': 'A' } })],
    ['on the root', { type: 'object', 'x-mcp-header': 'Root' }],
    ['under items', schema({ a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'A' } } })],
    ['under anyOf', schema({}, { anyOf: [schema({ a: { type: 'string', 'x-mcp-header': 'A' } })] })],
    ['under not', schema({}, { not: schema({ a: { type: 'string', 'x-mcp-header': 'A' } }) })],
    ['under if/else', schema({}, { else: schema({ a: { type: 'string', 'x-mcp-header': 'A' } }) })],
    [
      'under $defs',
      schema({ a: { $ref: '#/$defs/a' } }, { $defs: { a: { type: 'string', 'x-mcp-header': 'A' } } }),
    ],
    [
      'under additionalProperties',
      schema({}, { additionalProperties: { type: 'string', 'x-mcp-header': 'A' } }),
    ],
  ];
  for (const [why, inputSchema] of invalid) {
    it(`rejects a declaration ${why}`, () => {
      const result = paramHeadersOf(inputSchema);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).toMatch(/x-mcp-header/);
    });
  }

  it('rejects schemas nested too deeply instead of overflowing', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 200; i++) deep = { type: 'object', properties: { a: deep } };
    expect(paramHeadersOf(deep)).toEqual({ ok: false, reason: 'inputSchema is nested too deeply' });
  });
});

describe('valueAt', () => {
  it('reads own properties along a path only', () => {
    expect(valueAt({ a: { b: 1 } }, ['a', 'b'])).toBe(1);
    expect(valueAt({ a: 1 }, ['a', 'b'])).toBeUndefined();
    expect(valueAt({}, ['toString'])).toBeUndefined();
    expect(valueAt(undefined, ['a'])).toBeUndefined();
  });
});

describe('nameParamOf', () => {
  it('names the param Mcp-Name mirrors: name, uri, and taskId for the tasks extension’s methods', () => {
    expect(nameParamOf('tools/call')).toBe('name');
    expect(nameParamOf('prompts/get')).toBe('name');
    expect(nameParamOf('resources/read')).toBe('uri');
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel'])
      expect(nameParamOf(method)).toBe('taskId');
    for (const method of ['tools/list', 'tasks/list', 'tasks/result', 'server/discover']) {
      expect(nameParamOf(method)).toBeUndefined();
    }
  });
});
