import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@boomerang/testing', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual([
      'accept',
      'assistantMessage',
      'cancel',
      'connectTestClient',
      'decline',
      'roots',
    ]);
  });

  it('the README quotes every region of the example files verbatim', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    for (const [file, names] of [
      ['./harness.examples.ts', ['test']],
      ['./bookshop.examples.ts', ['server']],
    ] as const) {
      const source = await readFile(new URL(file, import.meta.url), 'utf8');
      const regions = [...source.matchAll(/\/\/ #region (\w+)\n([\s\S]*?)\/\/ #endregion \1/g)];
      expect(regions.map((m) => m[1])).toEqual(names);
      for (const [, , body] of regions) expect(readme).toContain(`\`\`\`ts\n${body}\`\`\``);
    }
  });
});
