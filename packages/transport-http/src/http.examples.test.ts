import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { main } from './http.examples.js';
import { main as mountNode } from './node.examples.js';

describe('README examples', () => {
  it('greets over HTTP in two rounds', async () => {
    expect(await main()).toBe('Bonjour, Ada!');
  });

  it('mounts the endpoint in a node:http server of your own: /mcp greets in two rounds, the rest is the app', async () => {
    expect(await mountNode()).toEqual(['Hello, Ada!', 'the rest of the app']);
  });

  it('README.md quotes every example verbatim (from its first import on)', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    for (const example of ['http.examples.ts', 'edge.examples.ts', 'node.examples.ts']) {
      const source = await readFile(new URL(example, import.meta.url), 'utf8');
      expect(readme, `${example} is not quoted in README.md`).toContain(
        source.slice(source.search(/^import /m)), // from the first import statement, not a comment's word
      );
    }
  });
});
