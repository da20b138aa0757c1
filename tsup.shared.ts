import type { Options } from 'tsup';

/**
 * The one build every package uses: ESM only, sourcemaps, `target: node20`. Workspace packages stay external
 * (never bundled into each other). Declarations come from `tsc -p tsconfig.build.json` into `dist/types`
 * (each package's build script runs it after tsup): plain tsc against the dependencies' built declarations is
 * an order of magnitude faster than bundling declarations through the sources.
 *
 * No `keepNames`: it wraps every function and class the bundle creates, per call on hot paths (a closure made per
 * request pays a `__name` call each time). Exported names survive bundling on their own unless two modules of one
 * bundle declare the same name; `scripts/check-export-names.mjs` fails the build's checks when an export would
 * print under another name (an `McpError` must print as `McpError`, not `McpError2`). Source maps point at the
 * shipped `src/` files instead of embedding their text a second time.
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
      options.sourcesContent = false;
    },
    ...extra,
  };
}
