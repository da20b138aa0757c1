import type { Options } from 'tsup';

/**
 * The one build every package uses: ESM only, sourcemaps, `target: node20`. Workspace packages stay external
 * (never bundled into each other). Declarations come from `tsc -p tsconfig.build.json` into `dist/types`
 * (each package's build script runs it after tsup): plain tsc against the dependencies' built declarations is
 * an order of magnitude faster than bundling declarations through the sources.
 *
 * Class and function names survive bundling (`keepNames`: an `McpError` prints as `McpError`, not `_McpError`),
 * and source maps point at the shipped `src/` files instead of embedding their text a second time.
 */
export function packageBuild(entry: Record<string, string>, extra: Partial<Options> = {}): Options {
  return {
    entry,
    format: ['esm'],
    dts: false,
    sourcemap: true,
    clean: true,
    target: 'node20',
    platform: 'neutral',
    treeshake: true,
    splitting: true,
    outDir: 'dist',
    esbuildOptions(options) {
      options.keepNames = true;
      options.sourcesContent = false;
    },
    ...extra,
  };
}
