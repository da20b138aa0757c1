import { describe, expect, it } from 'vitest';
import { parseChangeset, renderChangelog } from './changelog.js';

describe('changelog', () => {
  it('reads a changeset: its releases and its summary', () => {
    const changeset = parseChangeset(
      'x',
      '---\n"@boomerang/seal": minor\n\'@boomerang/server\': patch\n---\n\nFaster.\n',
    );
    expect(changeset).toEqual({
      id: 'x',
      releases: [
        { name: '@boomerang/seal', type: 'minor' },
        { name: '@boomerang/server', type: 'patch' },
      ],
      summary: 'Faster.',
    });
  });

  it('refuses a changeset it cannot read, naming the file', () => {
    expect(() => parseChangeset('bad', 'no front matter')).toThrow('.changeset/bad.md: no front matter');
    expect(() => parseChangeset('bad', '---\n"@boomerang/seal": huge\n---\nx')).toThrow('.changeset/bad.md');
  });

  it('lists unreleased changes per package and bump, a multi-line summary as one item', () => {
    const page = renderChangelog(
      [
        parseChangeset('a', '---\n"@boomerang/seal": patch\n---\n\nFix one.\nSecond line.\n'),
        parseChangeset('b', '---\n"@boomerang/seal": major\n"@boomerang/client": minor\n---\n\nBreak two.\n'),
      ],
      new Map(),
    );
    expect(page).toContain('## Unreleased');
    const seal = page.slice(page.indexOf('### @boomerang/seal'));
    expect(seal.indexOf('#### Major changes')).toBeLessThan(seal.indexOf('#### Patch changes'));
    expect(seal).toContain('- Fix one.\n  Second line.');
    expect(page.indexOf('### @boomerang/client')).toBeLessThan(page.indexOf('### @boomerang/seal'));
    expect(page).not.toContain('## Released');
  });

  it("nests a package's released CHANGELOG.md under its name", () => {
    const page = renderChangelog(
      [],
      new Map([['@boomerang/seal', '# @boomerang/seal\n\n## 1.0.0\n\n- First.\n']]),
    );
    expect(page).toContain('## Released\n\n### @boomerang/seal\n\n#### 1.0.0\n\n- First.');
    expect(page).not.toContain('## Unreleased');
  });
});
