import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPage } from './code-blocks.js';
import { checkPages } from './pages.js';

const root = mkdtempSync(join(tmpdir(), 'docs-code-'));
const site = join(root, 'site');
const examples = join(root, 'examples');
mkdirSync(site);
mkdirSync(examples);
writeFileSync(join(examples, 'tested.examples.ts'), '// #region a\nexport const a = 1;\n// #endregion a\n');
writeFileSync(join(examples, 'tested.examples.test.ts'), "import './tested.examples.js';\n");
writeFileSync(join(examples, 'untested.examples.ts'), 'export const b = 2;\n');
writeFileSync(join(examples, 'helper.ts'), 'export const c = 3;\n');

function problemsOf(markdown: string): string[] {
  const page = join(site, 'page.md');
  writeFileSync(page, markdown);
  return checkPage(page, site, root);
}

describe('the code-block rule', () => {
  it('accepts includes of tested examples and shell commands', () => {
    expect(problemsOf('# T\n\n<<< @/../examples/tested.examples.ts#a\n\n```sh\npnpm add x\n```\n')).toEqual(
      [],
    );
  });

  it('refuses code written in the page, fenced or indented, naming the line', () => {
    const problems = problemsOf(
      '---\ntitle: x\n---\n# T\n\n```ts\nconst x = 1;\n```\n\ntext\n\n    indented();\n',
    );
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^site\/page\.md:6: a `ts` code block written in the page/);
    expect(problems[1]).toMatch(/^site\/page\.md:12: an indented code block/);
    expect(problemsOf('~~~\nplain\n~~~\n')[0]).toContain('a `plain` code block');
  });

  it('refuses includes of missing files or regions, of non-examples, and of files no test names', () => {
    const problems = problemsOf(
      [
        '<<< @/../examples/tested.examples.ts#b',
        '<<< @/../examples/gone.examples.ts',
        '<<< @/../examples/helper.ts',
        '<<< @/../examples/untested.examples.ts',
      ].join('\n\n'),
    );
    expect(problems).toEqual([
      'site/page.md:1: examples/tested.examples.ts has no region #b',
      'site/page.md:3: examples/gone.examples.ts does not exist',
      'site/page.md:5: examples/helper.ts is neither an example (*.examples.ts, .mjs) nor a fixture (.json)',
      'site/page.md:7: no *.test.ts beside examples/untested.examples.ts mentions "untested.examples", so nothing runs it',
    ]);
  });

  it('holds for every page of the site, and the sidebar lists exactly the pages there are', () => {
    expect(checkPages()).toEqual([]);
  });
});
