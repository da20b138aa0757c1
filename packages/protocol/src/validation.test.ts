import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssues, isStandardSchemaV1, validate } from './validation.js';

describe('validate', () => {
  it('returns the output of a synchronous schema', () => {
    const outcome = validate(z.object({ n: z.coerce.number() }), { n: '4' });
    expect(outcome).toEqual({ ok: true, value: { n: 4 } });
  });

  it('returns issues with plain key paths', () => {
    const outcome = validate(z.object({ a: z.object({ b: z.string() }) }), { a: { b: 1 } });
    expect(outcome).toMatchObject({ ok: false, issues: [{ path: ['a', 'b'] }] });
  });

  it('resolves asynchronously only for an asynchronous schema', async () => {
    const schema = z.string().refine(async (s) => s.length > 1, 'too short');
    const outcome = validate(schema, 'x');
    expect(outcome).toBeInstanceOf(Promise);
    expect(await outcome).toMatchObject({ ok: false, issues: [{ message: 'too short', path: [] }] });
  });

  it('turns { key } path segments into their keys', () => {
    const schema = {
      '~standard': {
        version: 1 as const,
        vendor: 'test',
        validate: () => ({ issues: [{ message: 'bad', path: [{ key: 'x' }, 0] }] }),
      },
    };
    expect(validate(schema, 1)).toEqual({ ok: false, issues: [{ message: 'bad', path: ['x', 0] }] });
  });
});

describe('isStandardSchemaV1', () => {
  it.each([
    [z.string(), true],
    [{ '~standard': { validate: () => ({ value: 1 }) } }, true],
    [{ '~standard': {} }, false],
    [{ safeParse: () => ({}) }, false],
    [null, false],
    ['schema', false],
  ])('%#', (value, expected) => {
    expect(isStandardSchemaV1(value)).toBe(expected);
  });
});

describe('describeIssues', () => {
  it('writes paths from the root and names at most three issues', () => {
    const issues = [
      { path: ['name'], message: 'm1' },
      { path: ['_meta', 'io.modelcontextprotocol/logLevel'], message: 'm2' },
      { path: ['items', 0], message: 'm3' },
      { path: [], message: 'm4' },
    ];
    expect(describeIssues(issues)).toBe(
      'params.name: m1; params._meta["io.modelcontextprotocol/logLevel"]: m2; params.items[0]: m3; and 1 more',
    );
    expect(describeIssues([{ path: [], message: 'x' }], 'result')).toBe('result: x');
  });
});
