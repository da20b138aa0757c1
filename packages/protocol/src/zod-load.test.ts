import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CallToolResultSchema, ElicitResultSchema, ToolSchema } from './schemas.js';
import { loadZod as loadPortable } from './zod-load.js';
import { loadZod as loadNode } from './zod-load.node.js';

describe('#zod', () => {
  it('gives the zod instance every other import gets, on Node (required lazily) and elsewhere', () => {
    expect(loadNode()).toBe(z);
    expect(loadPortable()).toBe(z);
  });
});

describe('lazySchema', () => {
  it('stands for the built schema: instanceof, parsing, methods, own keys, composition', () => {
    expect(CallToolResultSchema).toBeInstanceOf(z.ZodType);
    expect(ElicitResultSchema.safeParse({ action: 'accept' }).success).toBe(true);
    expect(ElicitResultSchema.safeParse({ action: 'later' }).success).toBe(false);
    expect(Object.keys(ToolSchema.shape)).toContain('inputSchema');
    expect(Object.keys(ElicitResultSchema).length).toBeGreaterThan(0);
    const wider = z.object({ result: ElicitResultSchema, extra: ToolSchema.shape.name });
    expect(wider.parse({ result: { action: 'cancel' }, extra: 'x' })).toEqual({
      result: { action: 'cancel' },
      extra: 'x',
    });
    expect({ ...ElicitResultSchema }).toBeTypeOf('object');
    expect(
      ElicitResultSchema.extend({ more: z.string() }).safeParse({ action: 'decline', more: 'm' }).success,
    ).toBe(true);
  });
});
