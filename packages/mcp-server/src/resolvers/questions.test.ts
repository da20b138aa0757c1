import { ElicitRequestSchema } from '@boomerang/protocol/schemas';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { elicit, elicitResult, elicitUrl, elicitUrlResult, listRoots, sample } from './index.js';
import { questionOf } from './questions.js';
import { questionDigest } from './state.js';

/** The requested schema an elicit question publishes. */
function published(schema: z.ZodType<Record<string, unknown>>): unknown {
  const request = questionOf(elicit('Q?', schema))?.request;
  expect(ElicitRequestSchema.safeParse(request).success).toBe(true);
  return (request as { params: { requestedSchema: unknown } }).params.requestedSchema;
}

describe('elicit: the requested schema', () => {
  it('publishes the input-side JSON Schema trimmed to type, properties and required', () => {
    const schema = z.strictObject({
      name: z.string().min(1).max(40).describe('Your name'),
      email: z.email().optional(),
      age: z.number().int().min(0),
      score: z.number().max(10),
      size: z.enum(['S', 'M', 'L']).default('M'),
      agree: z.boolean().meta({ title: 'Agree?' }),
      tags: z.array(z.enum(['a', 'b'])).min(1),
      fixed: z.literal('k'),
      day: z.iso.date(),
      qty: z.string().transform(Number),
    });
    expect(published(schema)).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Your name', minLength: 1, maxLength: 40 },
        email: { type: 'string', format: 'email' },
        age: { type: 'integer', minimum: 0 },
        score: { type: 'number', maximum: 10 },
        size: { type: 'string', enum: ['S', 'M', 'L'], default: 'M' },
        agree: { type: 'boolean', title: 'Agree?' },
        tags: { type: 'array', minItems: 1, items: { type: 'string', enum: ['a', 'b'] } },
        fixed: { type: 'string', enum: ['k'] },
        day: { type: 'string', format: 'date' },
        qty: { type: 'string' },
      },
      required: ['name', 'age', 'score', 'agree', 'tags', 'fixed', 'day', 'qty'],
    });
  });

  it('turns unions of titled literals into titled enums (single and multi-select)', () => {
    const colour = z.union([z.literal('r').meta({ title: 'Red' }), z.literal('g').meta({ title: 'Green' })]);
    expect(published(z.object({ colour, many: z.array(colour) }))).toEqual({
      type: 'object',
      properties: {
        colour: {
          type: 'string',
          oneOf: [
            { const: 'r', title: 'Red' },
            { const: 'g', title: 'Green' },
          ],
        },
        many: {
          type: 'array',
          items: {
            anyOf: [
              { const: 'r', title: 'Red' },
              { const: 'g', title: 'Green' },
            ],
          },
        },
      },
      required: ['colour', 'many'],
    });
    expect(published(z.object({ plain: z.union([z.literal('a'), z.literal('b')]) }))).toEqual({
      type: 'object',
      properties: { plain: { type: 'string', enum: ['a', 'b'] } },
      required: ['plain'],
    });
  });

  it('omits required when every field is optional, and accepts an empty form', () => {
    expect(published(z.object({ note: z.string().optional() }))).toEqual({
      type: 'object',
      properties: { note: { type: 'string' } },
    });
    expect(published(z.object({}))).toEqual({ type: 'object', properties: {} });
  });

  const outside: [string, z.ZodType][] = [
    ['a nested object', z.object({ address: z.object({ city: z.string() }) })],
    ['a nullable field', z.object({ n: z.string().nullable() })],
    ['a union of types', z.object({ n: z.union([z.string(), z.number()]) })],
    ['an array of free strings', z.object({ n: z.array(z.string()) })],
    ['a date', z.object({ n: z.date() })],
    ['a record', z.record(z.string(), z.string())],
    ['a non-object', z.string()],
    ['an array at the top', z.array(z.string())],
  ];
  for (const [name, schema] of outside) {
    it(`throws TypeError for ${name}`, () => {
      expect(() => elicit('Q?', schema as z.ZodType<Record<string, unknown>>)).toThrow(TypeError);
      expect(() => elicitResult('Q?', schema as z.ZodType<Record<string, unknown>>)).toThrow(TypeError);
    });
  }

  it('names the offending field', () => {
    expect(() => elicit('Q?', z.object({ ok: z.string(), address: z.object({}) }))).toThrow(
      /^elicit\(\): field 'address' must be a string, number, integer, boolean, enum or multi-select enum/,
    );
  });

  it('throws TypeError for a non-zod schema or a non-string message', () => {
    expect(() => elicit('Q?', { type: 'object' } as never)).toThrow(
      '"elicit() schema" expected a zod object schema, got object',
    );
    expect(() => elicit(42 as never, z.object({}))).toThrow('"elicit() message" expected string, got number');
  });

  it('reuses the published schema of one zod object (cached per schema)', () => {
    const schema = z.object({ a: z.string() });
    expect(published(schema)).toBe(published(schema));
  });
});

describe('question builders', () => {
  it('render the input request for each kind', () => {
    expect(questionOf(elicitUrl('Sign in', 'https://x.example/a'))?.request).toEqual({
      method: 'elicitation/create',
      params: { mode: 'url', message: 'Sign in', url: 'https://x.example/a' },
    });
    const params = {
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hi' } }],
      maxTokens: 9,
    };
    expect(questionOf(sample(params))?.request).toEqual({ method: 'sampling/createMessage', params });
    expect(questionOf(listRoots())?.request).toEqual({ method: 'roots/list' });
  });

  it('tag each question with its kind, and are opaque, frozen handles', () => {
    const questions = [
      elicit('Q?', z.object({})),
      elicitResult('Q?', z.object({})),
      elicitUrl('Q', 'https://x.example'),
      elicitUrlResult('Q', 'https://x.example'),
      sample({ messages: [], maxTokens: 1 }),
      listRoots(),
    ];
    expect(questions.map((q) => q.kind)).toEqual([
      'elicit',
      'elicit',
      'elicitUrl',
      'elicitUrl',
      'sample',
      'listRoots',
    ]);
    for (const q of questions) {
      expect(Object.isFrozen(q)).toBe(true);
      expect(Object.keys(q)).toEqual(['kind']);
      expect(String(q)).toBe('[object Question]');
    }
    expect(questionOf({ kind: 'elicit' })).toBeUndefined();
  });

  it('check their arguments when the question is built', () => {
    expect(() => elicitUrl('Sign in', 'not a url')).toThrow(TypeError);
    expect(() => elicitUrl('Sign in', 42 as never)).toThrow(
      '"elicitUrl() url" expected URL or string, got number',
    );
    expect(() => elicitUrlResult(1 as never, 'https://x.example')).toThrow(TypeError);
    expect(() => sample({ messages: 'hi', maxTokens: 5 } as never)).toThrow(TypeError);
    expect(() => sample({ messages: [], maxTokens: 1.5 })).toThrow(TypeError);
  });
});

describe('reading answers', () => {
  const read = (question: unknown, answer: unknown) => questionOf(question)?.read(answer);

  it('reads an accepted form as the parsed content, and records the raw content', async () => {
    const schema = z.object({ n: z.string().transform((s) => s.length) });
    expect(await read(elicit('Q?', schema), { action: 'accept', content: { n: 'abc' } })).toEqual({
      ok: true,
      value: { n: 3 },
      record: { action: 'accept', content: { n: 'abc' } },
    });
    expect(await read(elicitResult('Q?', schema), { action: 'accept', content: { n: 'ab' } })).toMatchObject({
      value: { action: 'accept', content: { n: 2 } },
    });
  });

  it('reads refusals as refusals for elicit, and as outcomes for elicitResult', async () => {
    const schema = z.object({});
    expect(await read(elicit('Q?', schema), { action: 'decline' })).toEqual({
      ok: true,
      refused: 'decline',
      record: { action: 'decline' },
    });
    expect(await read(elicitResult('Q?', schema), { action: 'cancel' })).toEqual({
      ok: true,
      value: { action: 'cancel' },
      record: { action: 'cancel' },
    });
    expect(await read(elicitUrl('Q', 'https://x.example'), { action: 'cancel' })).toMatchObject({
      refused: 'cancel',
    });
  });

  it('supports async refinements in form schemas', async () => {
    const schema = z.object({ code: z.string().refine(async (c) => c === 'ok') });
    expect(await read(elicit('Q?', schema), { action: 'accept', content: { code: 'ok' } })).toMatchObject({
      ok: true,
    });
    expect(await read(elicit('Q?', schema), { action: 'accept', content: { code: 'no' } })).toMatchObject({
      ok: false,
    });
  });
});

describe('question digests', () => {
  it('equal questionDigest of the rendered request, memoised or not, for every kind', () => {
    const schema = z.object({ ok: z.boolean() });
    const questions = [
      elicit('Go?', schema),
      elicit('Go?', schema), // memoised per requested schema and message
      elicit('Go!', schema),
      elicitResult('Go?', z.object({ ok: z.boolean() })),
      elicitUrl('Sign in', 'https://x.example/a'),
      sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }),
      listRoots(),
      listRoots(),
    ];
    const digests = questions.map((q) => {
      const impl = questionOf(q);
      expect(impl?.digest()).toBe(questionDigest(impl?.request));
      return impl?.digest();
    });
    expect(digests[0]).toBe(digests[1]);
    expect(digests[0]).not.toBe(digests[2]);
    expect(digests[0]).toBe(digests[3]); // same rendered question, another schema object
  });

  it('the shared requested schema is frozen, so a memoised digest cannot go stale', () => {
    const request = questionOf(elicit('Q?', z.object({ tags: z.array(z.enum(['a', 'b'])) })))?.request;
    const requested = (request as { params: { requestedSchema: Record<string, unknown> } }).params
      .requestedSchema;
    expect(Object.isFrozen(requested)).toBe(true);
    expect(Object.isFrozen((requested.properties as Record<string, object>).tags)).toBe(true);
  });
});
