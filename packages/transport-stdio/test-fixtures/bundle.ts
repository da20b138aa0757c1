import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';

/** Fixture programs, each bundled with what it imports into one `.mjs` that plain Node runs. */
export interface FixtureBundle {
  /** The runnable path of a fixture, by its file name without extension (`relay` → `…/relay.mjs`). */
  path(name: string): string;
  /** Deletes the bundle directory. */
  remove(): Promise<void>;
}

/**
 * Bundles `test-fixtures/<name>.mjs` programs into a fresh temp directory. Workspace packages are read from
 * source through the `@boomerang/source` condition and bundled in, so child processes run the code under test
 * without anyone's `dist/` (no `pnpm build` of this or another package, no race with a concurrent build).
 * Test-only: published packages never bundle each other.
 */
export async function bundleFixtures(names: readonly string[]): Promise<FixtureBundle> {
  const outDir = await mkdtemp(join(tmpdir(), 'boomerang-stdio-fixtures-'));
  const here = fileURLToPath(new URL('.', import.meta.url));
  await build({
    config: false,
    entry: Object.fromEntries(names.map((name) => [name, join(here, `${name}.mjs`)])),
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
