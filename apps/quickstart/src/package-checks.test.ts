// The checks of scripts/lint-packages.mjs, each shown failing on a tarball (or manifest) made to break it, and
// passing on a good one: `pnpm test` runs the lint on the real tarballs, this shows the lint can fail.
import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import {
  expectedLinks,
  manifestProblems,
  type TarballEntry,
  tarballProblems,
} from '../../../scripts/package-checks.mjs';

const license = 'MIT License\n\nCopyright (c) 2026 The Boomerang contributors\n';
const dir = 'packages/widget';
const file = (path: string, text = 'x'): TarballEntry => ({
  path,
  size: text.length,
  data: Buffer.from(text),
});
const manifest = (extra: Record<string, unknown> = {}) =>
  file(
    'package.json',
    JSON.stringify({ name: '@boomerang/widget', version: '1.0.0', ...expectedLinks(dir), ...extra }),
  );
const map = (sources: string[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ version: 3, sources, mappings: '', ...extra });

/** A tarball as lint-packages.mjs wants it. */
function good(): TarballEntry[] {
  return [
    manifest({ dependencies: { '@boomerang/protocol': '^1.0.0' } }),
    file('README.md'),
    file('LICENSE', license),
    file('dist/index.js'),
    file('dist/index.js.map', map(['../src/index.ts'])),
    file('dist/types/index.d.ts'),
    file('dist/types/index.d.ts.map', map(['../../src/index.ts'])),
    file('src/index.ts'),
  ];
}

const problems = (entries: TarballEntry[], tracked: string[] = []) =>
  tarballProblems({ dir, entries }, { license, tracked: new Set(tracked) });
const replace = (path: string, entry: TarballEntry) => good().map((e) => (e.path === path ? entry : e));

describe('tarballProblems', () => {
  it('passes a tarball with only what users need', () => {
    expect(problems(good())).toEqual([]);
  });

  it.each([
    ['src/index.test.ts', 'src/index.test.ts is a test file'],
    ['src/client.examples.ts', 'src/client.examples.ts is an example file'],
    ['src/harness.examples.test.ts', 'src/harness.examples.test.ts is a test file'],
    ['src/test-support/wire.ts', 'src/test-support/wire.ts is a test helper or fixture'],
    ['test-fixtures/server.mjs', 'test-fixtures/server.mjs is a test helper or fixture'],
    ['src/readme.examples.ts', 'src/readme.examples.ts is a readme.* file'],
    ['Readme.txt', 'Readme.txt is a readme.* file'],
    ['tsconfig.build.json', 'tsconfig.build.json is a build or test config'],
    ['vitest.config.ts', 'vitest.config.ts is a build or test config'],
  ])('rejects %s', (path, message) => {
    expect(problems([...good(), file(path)]).join('\n')).toContain(message);
  });

  it('ships sources once: no sourcesContent, no TypeScript outside src/, no copy of src/ in dist/', () => {
    const embedded = replace(
      'dist/index.js.map',
      file('dist/index.js.map', map(['../src/index.ts'], { sourcesContent: ['…'] })),
    );
    expect(problems(embedded)).toEqual([
      'dist/index.js.map: embeds sourcesContent (the sources would ship twice)',
    ]);
    const nulls = replace(
      'dist/index.js.map',
      file('dist/index.js.map', map(['../src/index.ts'], { sourcesContent: [null] })),
    );
    expect(problems(nulls)).toEqual([]);
    expect(problems([...good(), file('dist/index.ts')]).sort()).toEqual([
      'dist/index.ts: TypeScript source outside src/ (sources ship once, in src/)',
      'src/index.ts ships twice (also as dist/index.ts)',
    ]);
  });

  it('every map source is in the tarball (the maps resolve), and maps are JSON', () => {
    const dangling = replace('dist/index.js.map', file('dist/index.js.map', map(['../src/missing.ts'])));
    expect(problems(dangling)).toEqual(['dist/index.js.map: source ../src/missing.ts is not in the tarball']);
    const withoutSrc = good().filter((e) => e.path !== 'src/index.ts');
    expect(problems(withoutSrc)).toHaveLength(2);
    expect(problems(replace('dist/index.js.map', file('dist/index.js.map', '{')))).toEqual([
      'dist/index.js.map: not a JSON source map',
    ]);
  });

  it('needs the root LICENSE, unchanged, and a README.md', () => {
    expect(problems(good().filter((e) => e.path !== 'LICENSE'))).toEqual(['no LICENSE']);
    expect(problems(replace('LICENSE', file('LICENSE', 'ISC')))).toEqual([
      'LICENSE differs from the root LICENSE',
    ]);
    expect(problems(good().filter((e) => e.path !== 'README.md'))).toEqual(['no README.md']);
  });

  it('leaves no workspace: or catalog: version', () => {
    const entries = replace(
      'package.json',
      manifest({ dependencies: { a: 'workspace:^' }, peerDependencies: { zod: 'catalog:' } }),
    );
    expect(problems(entries)).toEqual([
      'dependencies.a is still workspace:^',
      'peerDependencies.zod is still catalog:',
    ]);
  });

  it('bins point at committed files outside dist/, in the tarball', () => {
    const withBin = (bin: unknown, extra: TarballEntry[] = []) => [
      ...replace('package.json', manifest({ bin })),
      ...extra,
    ];
    expect(
      problems(withBin({ widget: './bin/widget.js' }, [file('bin/widget.js')]), [`${dir}/bin/widget.js`]),
    ).toEqual([]);
    expect(problems(withBin({ widget: './bin/widget.js' }, [file('bin/widget.js')]))).toEqual([
      'bin widget → ./bin/widget.js is not a committed file',
    ]);
    expect(problems(withBin('./dist/cli.js', [file('dist/cli.js')]), [`${dir}/dist/cli.js`])).toEqual([
      'bin @boomerang/widget → ./dist/cli.js is a build output (links fail before a build)',
    ]);
    expect(problems(withBin({ widget: './bin/gone.js' }), [`${dir}/bin/gone.js`])).toEqual([
      'bin widget → ./bin/gone.js is not in the tarball',
    ]);
  });
});

describe('manifestProblems', () => {
  it('passes the links derived from the repository URL, in any key order', () => {
    const links = expectedLinks(dir);
    expect(links.repository).toEqual({
      type: 'git',
      url: 'git+https://github.com/boomerang-mcp/boomerang.git',
      directory: 'packages/widget',
    });
    expect(links.homepage).toBe(
      'https://github.com/boomerang-mcp/boomerang/tree/main/packages/widget#readme',
    );
    expect(manifestProblems({ ...links }, dir)).toEqual([]);
    const reordered = { ...links, repository: { directory: dir, url: links.repository.url, type: 'git' } };
    expect(manifestProblems(reordered, dir)).toEqual([]);
    expect(expectedLinks('').repository).toEqual({
      type: 'git',
      url: 'git+https://github.com/boomerang-mcp/boomerang.git',
    });
  });

  it('names each field that drifts or is missing', () => {
    const drifted = {
      ...expectedLinks(dir),
      repository: { type: 'git', url: 'git+https://github.com/someone/else.git', directory: dir },
      license: 'ISC',
    };
    const found = manifestProblems(drifted, dir);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^"repository" should be .*boomerang-mcp\/boomerang.*, is .*someone\/else/);
    expect(found[1]).toBe('"license" should be "MIT", is "ISC"');
    expect(manifestProblems({}, dir).map((p) => p.split(' ')[0])).toEqual([
      '"repository"',
      '"homepage"',
      '"bugs"',
      '"license"',
    ]);
  });
});
