import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { staleWorkspaceDependencies } from './built.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A fake workspace: `packages/<name>` with a manifest, one source file and, when `built`, a newer dist. */
function workspace(packages: Record<string, { deps?: string[]; built?: boolean }>): string {
  const root = mkdtempSync(join(tmpdir(), 'boomerang-built-'));
  roots.push(root);
  for (const [name, { deps = [], built = false }] of Object.entries(packages)) {
    const dir = join(root, 'packages', name);
    mkdirSync(join(dir, 'src'), { recursive: true });
    const dependencies = Object.fromEntries(deps.map((dep) => [`@boomerang/${dep}`, 'workspace:^']));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `@boomerang/${name}`, dependencies }));
    writeFileSync(join(dir, 'src/index.ts'), 'export {};\n');
    utimesSync(join(dir, 'src/index.ts'), 1_000, 1_000);
    if (built) {
      mkdirSync(join(dir, 'dist'));
      writeFileSync(join(dir, 'dist/index.js'), 'export {};\n');
    }
  }
  return root;
}

describe('staleWorkspaceDependencies', () => {
  it('follows dependencies, and the packages of `runs` with theirs; fresh dists are not listed', () => {
    const root = workspace({
      app: { deps: ['lib'] },
      lib: { deps: ['core'], built: true },
      core: {},
      fixtureOnly: { deps: ['extra'], built: true },
      extra: {},
      unrelated: {},
    });
    const appDir = join(root, 'packages/app');
    expect(staleWorkspaceDependencies(appDir)).toEqual(['@boomerang/core']);
    expect(staleWorkspaceDependencies(appDir, ['@boomerang/fixtureOnly', '@boomerang/app'])).toEqual([
      '@boomerang/app',
      '@boomerang/core',
      '@boomerang/extra',
    ]);
  });

  it('finds an app that other apps import under apps/, and checks the file its exports name', () => {
    const root = workspace({ app: { deps: ['shop'] } });
    const shop = join(root, 'apps/shop');
    mkdirSync(join(shop, 'src'), { recursive: true });
    mkdirSync(join(shop, 'dist'));
    const manifest = { name: '@boomerang/shop', exports: { '.': { default: './dist/shop.js' } } };
    writeFileSync(join(shop, 'package.json'), JSON.stringify(manifest));
    writeFileSync(join(shop, 'src/shop.ts'), 'export {};\n');
    utimesSync(join(shop, 'src/shop.ts'), 1_000, 1_000);
    const appDir = join(root, 'packages/app');
    expect(staleWorkspaceDependencies(appDir)).toEqual(['@boomerang/shop']);
    writeFileSync(join(shop, 'dist/shop.js'), 'export {};\n');
    expect(staleWorkspaceDependencies(appDir)).toEqual([]);
  });
});
