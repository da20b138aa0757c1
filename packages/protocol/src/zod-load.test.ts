import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CallToolResultSchema, ElicitResultSchema, ToolSchema } from './schemas.js';
import { loadZod as loadPortable } from './zod-load.js';
import { loadZod as loadNode } from './zod-load.node.js';

describe('#zod', () => {
  it('gives the zod instance every other import gets, on Node (required lazily) and elsewhere', () => {
    expect(loadNode()).toBe(z);
    // Elsewhere: the functions the schemas use, by name (a bundler keeps those only), each zod's own.
    const portable = loadPortable();
    expect(Object.keys(portable).length).toBeGreaterThan(10);
    for (const [name, value] of Object.entries(portable)) expect(value, name).toBe(z[name as keyof typeof z]);
  });

  it('builds every schema from the portable subset alone (a function missing from it fails here)', async () => {
    const portable = loadPortable();
    const { zod } = await import('./schema/zod.js');
    // The proxy reads from whichever loader `#zod` picked; every name a schema file calls must be in the subset.
    const { readdirSync, readFileSync } = await import('node:fs');
    const used = new Set<string>();
    for (const dir of ['schema', 'legacy', 'tasks']) {
      const folder = new URL(`./${dir}/`, import.meta.url);
      for (const file of readdirSync(folder)) {
        if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
        for (const match of readFileSync(new URL(file, folder), 'utf8').matchAll(/\bzod\.([A-Za-z]+)/g)) {
          if (match[1] !== 'js') used.add(match[1] as string);
        }
      }
    }
    expect(used.size).toBeGreaterThan(10);
    for (const name of used) {
      expect(portable, `zod.${name} is used by a schema but not imported by zod-load.ts`).toHaveProperty(
        name,
      );
      expect(Reflect.get(zod, name)).toBe(Reflect.get(portable, name));
    }
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
