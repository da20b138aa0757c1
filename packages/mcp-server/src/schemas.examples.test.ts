import { readFileSync } from 'node:fs';
import { Client } from '@boomerang/client';
import { connectInMemory } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { library } from './schemas.examples.js';

describe('README example: schemas', () => {
  it('README.md quotes the example region verbatim', () => {
    const source = readFileSync(new URL('./schemas.examples.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const regions = [...source.matchAll(/\/\/ #region (\w+)\n([\s\S]*?)\n+\/\/ #endregion \1/g)];
    expect(regions.map((m) => m[1])).toEqual(['schemas']);
    for (const [, , body] of regions) expect(readme).toContain(body?.trim());
  });

  it('every tool works through a client: valibot, arktype, raw JSON Schema, withJsonSchema and a raw form', async () => {
    const client = new Client(
      { name: 'c', version: '1' },
      { elicitation: async () => ({ action: 'accept', content: { yes: true } }) },
    );
    await using _link = await connectInMemory(client, library);
    const text = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool(name, args)).content[0];
    expect(await text('lend', { title: 'Dune' })).toMatchObject({ text: '"Dune" is yours for 2 weeks' });
    expect((await client.callTool('count', { shelf: 'sf' })).structuredContent).toEqual({
      shelf: 'sf',
      books: 2,
    });
    expect(await text('search', { query: 'tides' })).toMatchObject({ text: '10 results for tides' });
    expect(await text('renew', { title: 'Dune' })).toMatchObject({ text: '"Dune" renewed' });
    const bad = await client.callTool('search', { query: '', limit: 99 });
    expect(bad.isError).toBe(true);
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t.inputSchema.type])).toEqual([
      ['lend', 'object'],
      ['count', 'object'],
      ['search', 'object'],
      ['renew', 'object'],
    ]);
  });
});
