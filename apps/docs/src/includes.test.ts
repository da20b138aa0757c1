import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findIncludes, includedCode } from './includes.js';

const dir = mkdtempSync(join(tmpdir(), 'docs-includes-'));
const file = join(dir, 'a.examples.ts');
writeFileSync(
  file,
  [
    '// header',
    '// #region outer',
    'export const a = 1;',
    '  // #region inner',
    '  if (a) {',
    '    console.log(a);',
    '  }',
    '  // #endregion inner',
    '// #endregion outer',
    '',
  ].join('\n'),
);

describe('includes', () => {
  it('finds VitePress includes with their region and language, resolving @/ against the site', () => {
    const page = join(dir, 'site/guides/x.md');
    const includes = findIncludes(
      '# T\n\n<<< @/../a.examples.ts#outer\n\n  <<< ../../a.examples.ts{ts} [title]\n',
      page,
      join(dir, 'site'),
    );
    expect(includes).toEqual([
      { line: 3, path: '@/../a.examples.ts', file, region: 'outer', lang: 'ts' },
      { line: 5, path: '../../a.examples.ts', file, region: undefined, lang: 'ts' },
    ]);
  });

  it('shows a region without its markers (nested ones included), dedented', () => {
    expect(includedCode({ file, region: 'inner' })).toBe('if (a) {\n  console.log(a);\n}');
    expect(includedCode({ file, region: 'outer' })).toBe(
      'export const a = 1;\n  if (a) {\n    console.log(a);\n  }',
    );
  });

  it('is undefined for a missing file or region', () => {
    expect(includedCode({ file, region: 'nope' })).toBeUndefined();
    expect(includedCode({ file: join(dir, 'missing.ts'), region: undefined })).toBeUndefined();
  });
});
