import type { Options } from 'tsup';

/**
 * The one build every package uses: ESM only, `.d.ts`, sourcemaps, `target: node20`.
 * Workspace packages stay external (never bundled into each other).
 */
export function packageBuild(entry: Record<string, string>, extra: Partial<Options> = {}): Options {
  return {
    entry,
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    platform: 'neutral',
    treeshake: true,
    splitting: true,
    outDir: 'dist',
    ...extra,
  };
}
