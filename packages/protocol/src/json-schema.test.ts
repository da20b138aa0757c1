import { describe, expect, it } from 'vitest';
import { fromJsonSchema } from './json-schema.js';
import { describeIssues, isStandardSchemaV1, type SchemaIssue, validate } from './validation.js';

const Person = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    age: { type: 'integer', minimum: 0 },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['name'],
  additionalProperties: false,
};

describe('fromJsonSchema: validation', () => {
  const person = fromJsonSchema(Person);

  it('is a Standard Schema whose output is the value itself', () => {
    expect(isStandardSchemaV1(person)).toBe(true);
    const value = { name: 'Ada', age: 36, tags: ['x'] };
    expect(validate(person, value)).toEqual({ ok: true, value });
  });

  it('names the precise issue with its path (array indexes as numbers)', () => {
    const outcome = validate(person, { name: 'Ada', tags: ['x', 2] });
    expect(outcome).toEqual({
      ok: false,
      issues: [{ path: ['tags', 1], message: expect.stringContaining('Expected "string"') }],
    });
  });

  it('reports missing required members and unexpected ones', () => {
    const missing = validate(person, {}) as { ok: false; issues: { path: unknown[]; message: string }[] };
    expect(missing.ok).toBe(false);
    expect(missing.issues[0]?.message).toMatch(/required property "name"/);
    const extra = validate(person, { name: 'Ada', admin: true }) as { ok: false; issues: SchemaIssue[] };
    expect(describeIssues(extra.issues, 'arguments')).toMatch(/^arguments: Property "admin"/);
  });

  it('keeps object keys that look like numbers as strings', () => {
    const map = fromJsonSchema({ type: 'object', additionalProperties: { type: 'number' } });
    expect(validate(map, { '0': 'x' })).toMatchObject({ ok: false, issues: [{ path: ['0'] }] });
  });

  it('decodes escaped keys in paths', () => {
    const schema = fromJsonSchema({ type: 'object', properties: { 'a/b c~#': { type: 'string' } } });
    expect(validate(schema, { 'a/b c~#': 1 })).toMatchObject({ ok: false, issues: [{ path: ['a/b c~#'] }] });
  });

  it('resolves local $refs, $defs and anchors', () => {
    const tree = fromJsonSchema({
      $defs: {
        node: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } },
        },
      },
      $ref: '#/$defs/node',
    });
    expect(validate(tree, { children: [{ children: [] }] })).toMatchObject({ ok: true });
    expect(validate(tree, { children: [{ children: 1 }] })).toMatchObject({
      ok: false,
      issues: [{ path: ['children', 0, 'children'] }],
    });
    const anchored = fromJsonSchema({ $defs: { s: { $anchor: 'str', type: 'string' } }, $ref: '#str' });
    expect(validate(anchored, 1)).toMatchObject({ ok: false });
  });

  it('copies the schema: changing the caller’s object changes nothing, and the kept copy is frozen', () => {
    const source = structuredClone(Person) as Record<string, unknown>;
    const compiled = fromJsonSchema(source);
    source.required = [];
    expect(validate(compiled, {})).toMatchObject({ ok: false });
    expect(Object.isFrozen(compiled.schema)).toBe(true);
    expect(compiled.schema).toEqual(Person);
  });

  it('speaks draft-07 when $schema says so, and defaults to 2020-12', () => {
    expect(fromJsonSchema({}).dialect).toBe('draft-2020-12');
    const seven = fromJsonSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'string' }],
      additionalItems: false,
    });
    expect(seven.dialect).toBe('draft-07');
    expect(validate(seven, ['a'])).toMatchObject({ ok: true });
    expect(validate(seven, ['a', 'b'])).toMatchObject({ ok: false });
  });

  it('accepts boolean schemas', () => {
    expect(validate(fromJsonSchema(true), 1)).toMatchObject({ ok: true });
    expect(validate(fromJsonSchema(false), 1)).toMatchObject({ ok: false });
  });

  it('hands back its JSON Schema for its own dialect only (Standard JSON Schema)', () => {
    const converter = person['~standard'].jsonSchema;
    expect(converter.input({ target: 'draft-2020-12' })).toEqual(Person);
    expect(converter.output({ target: 'draft-2020-12' })).not.toBe(person.schema);
    expect(() => converter.input({ target: 'draft-07' })).toThrow(/cannot be converted to draft-07/);
  });
});

describe('@boomerang/protocol/json-schema', () => {
  it('exports exactly its public API', async () => {
    expect(Object.keys(await import('./json-schema.js')).sort()).toEqual(['fromJsonSchema']);
  });
});

describe('fromJsonSchema: schemas it refuses', () => {
  it.each([
    ['not an object', 'string', /"schema" expected a JSON Schema object, got string/],
    ['an array', [], /got array/],
    ['null', null, /got null/],
    ['an unknown dialect', { $schema: 'https://example.com/my-dialect' }, /unsupported JSON Schema dialect/],
    ['an unknown type', { properties: { a: { type: 'text' } } }, /"type" "text" is not a JSON Schema type/],
    ['a bad pattern', { items: { pattern: '(' } }, /"pattern" "\(" is not a valid regular expression/],
    [
      'an external $ref',
      { $ref: 'https://example.com/s.json' },
      /points outside the schema; external references are never fetched/,
    ],
    ['a dangling pointer', { $ref: '#/$defs/missing' }, /points at nothing in the schema/],
    ['an unknown anchor', { $ref: '#nowhere' }, /names no \$anchor/],
    ['a function', { default: () => 1 }, /a function, which JSON cannot carry/],
    ['a non-finite number', { maximum: Number.POSITIVE_INFINITY }, /non-finite number/],
    [
      'a subschema that is no schema',
      { properties: { a: 5 } },
      /the schema\.properties\["a"\] is not a schema \(an object or a boolean\), got 5/,
    ],
    ['a non-schema in anyOf', { anyOf: [{}, 'x'] }, /the schema\.anyOf\[1\] is not a schema/],
  ])('%s', (_name, schema, message) => {
    expect(() => fromJsonSchema(schema)).toThrow(TypeError);
    expect(() => fromJsonSchema(schema)).toThrow(message);
  });

  it('bounds depth and size (a server’s schema is untrusted)', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { items: deep };
    expect(() => fromJsonSchema(deep, { maxDepth: 30 })).toThrow(/nested deeper than 30 levels/);
    expect(() => fromJsonSchema(deep)).not.toThrow();
    const wide = { anyOf: Array.from({ length: 50 }, () => ({ type: 'string' })) };
    expect(() => fromJsonSchema(wide, { maxNodes: 20 })).toThrow(/more than 20 objects and arrays/);
  });

  it('treats enum, const and default values as data, not subschemas', () => {
    const schema = fromJsonSchema({
      properties: { default: { type: 'string' }, enum: { enum: [{ type: 'nonsense' }] } },
      default: { type: 'whatever', $ref: 'https://example.com' },
    });
    expect(validate(schema, { default: 'x' })).toMatchObject({ ok: true });
    expect(validate(schema, { default: 1 })).toMatchObject({ ok: false, issues: [{ path: ['default'] }] });
  });
});
