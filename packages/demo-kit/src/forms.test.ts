// The form model: every primitive of the spec's requested schema read as a field, and every check an answer meets.
import type { PrimitiveSchemaDefinition } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { choicesOf, contentProblems, formField, formFields, multiChoicesOf, valueProblem } from './forms.js';

const legacy = {
  type: 'string',
  enum: ['a', 'b'],
  enumNames: ['Apple', 'Banana'],
} as PrimitiveSchemaDefinition;
const titledMulti: PrimitiveSchemaDefinition = {
  type: 'array',
  minItems: 1,
  maxItems: 2,
  items: {
    anyOf: [
      { const: 'r', title: 'Red' },
      { const: 'g', title: 'Green' },
      { const: 'b', title: 'Blue' },
    ],
  },
};

describe('formFields', () => {
  it('reads every primitive kind of the spec, in schema order, with its constraints', () => {
    const fields = formFields({
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name', minLength: 2, maxLength: 20, description: 'Your name' },
        email: { type: 'string', format: 'email', default: 'ada@example.com' },
        site: { type: 'string', format: 'uri' },
        day: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
        odd: { type: 'string', format: 'hostname' } as unknown as PrimitiveSchemaDefinition,
        price: { type: 'number', minimum: 0, maximum: 99.5 },
        seats: { type: 'integer', minimum: 1, maximum: 9, default: 2 },
        vip: { type: 'boolean', default: false },
        colour: { type: 'string', enum: ['red', 'green'] },
        speed: {
          type: 'string',
          oneOf: [
            { const: 'std', title: 'Standard' },
            { const: 'exp', title: 'Express' },
          ],
        },
        fruit: legacy,
        tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, default: ['x'] },
        hues: titledMulti,
      },
      required: ['name', 'seats', 'hues'],
    });
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['name', 'text', true],
      ['email', 'text', false],
      ['site', 'text', false],
      ['day', 'text', false],
      ['at', 'text', false],
      ['odd', 'text', false],
      ['price', 'number', false],
      ['seats', 'integer', true],
      ['vip', 'boolean', false],
      ['colour', 'choice', false],
      ['speed', 'choice', false],
      ['fruit', 'choice', false],
      ['tags', 'choices', false],
      ['hues', 'choices', true],
    ]);
    const [name, email, , day, at, odd, price, seats, , , speed, fruit, tags, hues] = fields;
    expect(name).toMatchObject({ label: 'Name', description: 'Your name', minLength: 2, maxLength: 20 });
    expect(email).toMatchObject({ label: 'email', format: 'email', default: 'ada@example.com' });
    expect(day?.format).toBe('date');
    expect(at?.format).toBe('date-time');
    expect(odd?.format).toBeUndefined();
    expect(price).toMatchObject({ minimum: 0, maximum: 99.5 });
    expect(seats).toMatchObject({ minimum: 1, maximum: 9, default: 2 });
    expect(speed?.choices).toEqual([
      { value: 'std', label: 'Standard' },
      { value: 'exp', label: 'Express' },
    ]);
    expect(fruit?.choices?.map((c) => c.label)).toEqual(['Apple', 'Banana']);
    expect(tags).toMatchObject({ default: ['x'], choices: [{ value: 'x' }, { value: 'y' }] });
    expect(hues).toMatchObject({ minItems: 1, maxItems: 2 });
  });

  it('reads a hostile schema without throwing: odd members are ignored, odd properties are text', () => {
    const fields = formFields({
      type: 'object',
      properties: { weird: 42, nested: { type: 'object' }, bounds: { type: 'number', minimum: 'low' } },
      required: 'all',
    } as never);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['weird', 'text', false],
      ['nested', 'text', false],
      ['bounds', 'number', false],
    ]);
    expect(fields[2]?.minimum).toBeUndefined();
    expect(formFields({ type: 'object' } as never)).toEqual([]);
  });

  it('lists choices of every enum kind', () => {
    expect(choicesOf(legacy)).toEqual([
      { value: 'a', label: 'Apple' },
      { value: 'b', label: 'Banana' },
    ]);
    expect(choicesOf({ type: 'string' })).toBeUndefined();
    expect(multiChoicesOf(titledMulti)?.map((c) => c.label)).toEqual(['Red', 'Green', 'Blue']);
    expect(multiChoicesOf({ type: 'string', enum: ['a'] })).toBeUndefined();
  });
});

describe('valueProblem', () => {
  const field = (schema: Record<string, unknown>) =>
    formField('f', schema as PrimitiveSchemaDefinition, true);
  it.each<[string, Record<string, unknown>, unknown, string | undefined]>([
    ['text', { type: 'string' }, 'hi', undefined],
    ['text, not a string', { type: 'string' }, 3, 'text, please'],
    ['too short', { type: 'string', minLength: 2 }, 'A', 'at least 2 characters, please'],
    ['too long', { type: 'string', maxLength: 5 }, 'Adalbert', 'at most 5 characters, please (got 8)'],
    ['email', { type: 'string', format: 'email' }, 'ada@example.com', undefined],
    ['not an email', { type: 'string', format: 'email' }, 'ada', 'an email address, please'],
    ['uri', { type: 'string', format: 'uri' }, 'https://example.com/x', undefined],
    ['not a uri', { type: 'string', format: 'uri' }, 'example.com', 'an absolute URI, please'],
    ['date', { type: 'string', format: 'date' }, '2026-07-28', undefined],
    ['not a date', { type: 'string', format: 'date' }, '28/07/2026', 'a date like 2026-07-28, please'],
    ['February 30th', { type: 'string', format: 'date' }, '2026-02-30', 'a date like 2026-07-28, please'],
    ['date-time', { type: 'string', format: 'date-time' }, '2026-07-28T09:30:00Z', undefined],
    ['date-time, offset', { type: 'string', format: 'date-time' }, '2026-07-28T09:30:00.5+02:00', undefined],
    [
      'date-time without a zone',
      { type: 'string', format: 'date-time' },
      '2026-07-28T09:30',
      'a date and time like 2026-07-28T09:30:00Z, please',
    ],
    [
      'date-time at 25 o’clock',
      { type: 'string', format: 'date-time' },
      '2026-07-28T25:00:00Z',
      'a date and time like 2026-07-28T09:30:00Z, please',
    ],
    ['number', { type: 'number', minimum: 0, maximum: 1 }, 0.5, undefined],
    ['not a number', { type: 'number' }, '1', 'a number, please'],
    ['NaN', { type: 'number' }, Number.NaN, 'a number, please'],
    ['below', { type: 'number', minimum: 0 }, -1, 'at least 0'],
    ['above', { type: 'integer', maximum: 5 }, 6, 'at most 5'],
    ['not whole', { type: 'integer' }, 1.5, 'a whole number, please'],
    ['boolean', { type: 'boolean' }, false, undefined],
    ['not a boolean', { type: 'boolean' }, 'yes', 'yes or no, please'],
    ['choice', { type: 'string', enum: ['a', 'b'] }, 'b', undefined],
    ['not a choice', { type: 'string', enum: ['a', 'b'] }, 'c', '"c" is not one of the options'],
    ['choices', titledMulti, ['r', 'g'], undefined],
    ['choices, not a list', titledMulti, 'r', 'a list of options, please'],
    ['choices, unknown', titledMulti, ['r', 'x'], '"x" is not one of the options'],
    ['choices, twice', titledMulti, ['r', 'r'], 'each option once, please'],
    ['choices, too few', titledMulti, [], 'pick at least 1'],
    ['choices, too many', titledMulti, ['r', 'g', 'b'], 'pick at most 2'],
  ])('%s', (_, schema, value, problem) => {
    expect(valueProblem(field(schema), value)).toBe(problem);
  });
});

describe('contentProblems', () => {
  const fields = formFields({
    type: 'object',
    properties: {
      name: { type: 'string' },
      seats: { type: 'integer', minimum: 1 },
      note: { type: 'string' },
    },
    required: ['name', 'seats'],
  });
  it('names each field that is missing, wrong, or not in the form', () => {
    expect(contentProblems(fields, { name: 'Ada', seats: 2 })).toEqual({});
    expect(contentProblems(fields, { seats: 0, extra: true })).toEqual({
      name: 'this field is required',
      seats: 'at least 1',
      extra: 'not a field of this form',
    });
  });
});
