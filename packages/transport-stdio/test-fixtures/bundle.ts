import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';

/** Programs bundled by {@link bundleFixtures}, each into one `.mjs` that plain Node runs. */
export interface FixtureBundle {
  /** The runnable path of a program, by its file name up to the first dot (`test-fixtures/relay.mjs` → `relay`). */
  path(name: string): string;
  /** Deletes the bundle directory. */
  remove(): Promise<void>;
}

/**
 * Bundles programs (paths relative to the package root: `test-fixtures/*.mjs`, `src/*.examples.ts`) into a fresh
 * temp directory. Workspace packages are read from source through the `@boomerang/source` condition and bundled
 * in, so child processes run the code under test without anyone's `dist/` (no `pnpm build` of this or another
 * package, no race with a concurrent build). Test-only: published packages never bundle each other.
 */
export async function bundleFixtures(programs: readonly string[]): Promise<FixtureBundle> {
  const outDir = await mkdtemp(join(tmpdir(), 'boomerang-stdio-fixtures-'));
  const root = fileURLToPath(new URL('..', import.meta.url));
  const nameOf = (program: string) => basename(program).split('.')[0] as string;
  await build({
    config: false,
    entry: Object.fromEntries(programs.map((program) => [nameOf(program), join(root, program)])),
    outDir,
    format: ['esm'],
    outExtension: () => ({ js: '.mjs' }),
    platform: 'node',
    target: 'node20',
    noExternal: [/.*/],
    splitting: false,
    sourcemap: false,
    dts: false,
    silent: true,
    removeNodeProtocol: false,
    esbuildOptions(options) {
      options.conditions = ['@boomerang/source', 'import', 'node'];
    },
  });
  return {
    path: (name) => join(outDir, `${name}.mjs`),
    remove: () => rm(outDir, { recursive: true, force: true }),
  };
}
