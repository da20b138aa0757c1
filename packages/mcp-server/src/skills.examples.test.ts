import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useThePdfSkill } from './skills.examples.js';

describe('Skills examples', () => {
  it('the READMEs quote each region verbatim', () => {
    const source = readFileSync(new URL('./skills.examples.ts', import.meta.url), 'utf8');
    const regions = Object.fromEntries(
      [...source.matchAll(/\/\/ #region (\w+)\n([\s\S]*?)\n+\/\/ #endregion \1/g)].map((m) => [
        m[1],
        m[2]?.trim(),
      ]),
    );
    expect(Object.keys(regions)).toEqual(['serve', 'host']);
    expect(readFileSync(new URL('../README.md', import.meta.url), 'utf8')).toContain(regions.serve);
    expect(readFileSync(new URL('../../client/README.md', import.meta.url), 'utf8')).toContain(regions.host);
  });

  it('serve + host: the skill is listed, loaded and read, verified', async () => {
    expect(await useThePdfSkill()).toBe('# PDF processing (+ 71 bytes of FORMS.md)');
  });
});
