import { describe, expect, it } from 'vitest';
import { toJSONSchema } from 'zod/v4/core';
import { loadToJSONSchema as loadPortable } from './zod-json-schema.js';
import { loadToJSONSchema as loadNode } from './zod-json-schema.node.js';

describe('#zod-json-schema', () => {
  it("gives zod's own converter, on Node (required lazily: the ES module instance) and elsewhere", () => {
    expect(loadNode()).toBe(toJSONSchema);
    expect(loadPortable()).toBe(toJSONSchema);
  });

  it('is imported by nothing else: the package loads zod only through it, when a zod schema is published', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const loaders = new Set(['zod-json-schema.ts', 'zod-json-schema.node.ts']);
    const sources = (dir: URL): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        if (entry.isDirectory()) return sources(new URL(`${entry.name}/`, dir));
        const skip = !entry.name.endsWith('.ts') || /\.(test|examples)\.ts$/.test(entry.name);
        return skip || loaders.has(entry.name) ? [] : [readFileSync(new URL(entry.name, dir), 'utf8')];
      });
    for (const source of sources(new URL('./', import.meta.url))) {
      // Type-only imports of zod are erased; a value import would load zod with the package.
      expect(source).not.toMatch(/^import (?!type )[^;]*from ["']zod(\/[^'"]*)?["'];/m);
    }
  });
});
