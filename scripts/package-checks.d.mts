// Types of package-checks.mjs, for the TypeScript tests that call it (apps/quickstart).
import type { Buffer } from 'node:buffer';

/** One file of a tarball, its path without the leading `package/`. */
export interface TarballEntry {
  readonly path: string;
  readonly size: number;
  readonly data: Buffer;
}

/** The manifest fields every publishable package.json must carry, for the package in `dir`. */
export function expectedLinks(dir: string): {
  repository: { type: 'git'; url: string; directory?: string };
  homepage: string;
  bugs: { url: string };
  license: 'MIT';
};

/** What is wrong with `manifest` (of the package in `dir`, '' for the root): one line per problem. */
export function manifestProblems(manifest: Record<string, unknown>, dir: string): string[];

/** What is wrong with a packed package: one line per problem. */
export function tarballProblems(
  pack: { readonly dir: string; readonly entries: readonly TarballEntry[] },
  context: { readonly license: string; readonly tracked: ReadonlySet<string> },
): string[];
