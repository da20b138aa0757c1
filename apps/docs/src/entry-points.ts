// The public surface the API reference documents: every export subpath of every published package.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** One documented module: `@boomerang/auth/jwt` and the source file its `@boomerang/source` condition names. */
export interface EntryPoint {
  /** The import specifier, e.g. `@boomerang/transport-http/node`. */
  readonly specifier: string;
  /** Absolute path of the source file. */
  readonly file: string;
}

interface Manifest {
  readonly name: string;
  readonly private?: boolean;
  readonly exports?: Record<string, string | Record<string, unknown>>;
}

/**
 * Reads `packages/*\/package.json` and returns one entry per export subpath of each non-private package (other
 * than `./package.json` and `./internal`), pointing at the file of its `@boomerang/source` condition. Two subpaths of one package
 * that name the same file (`@boomerang/seal` and `@boomerang/seal/portable`) are documented once, under the
 * shorter. Sorted by specifier, so the reference's order does not depend on the file system.
 */
export function publicEntryPoints(packagesDir: string): EntryPoint[] {
  const entries: EntryPoint[] = [];
  for (const dir of readdirSync(packagesDir).sort()) {
    let manifest: Manifest;
    try {
      manifest = JSON.parse(readFileSync(join(packagesDir, dir, 'package.json'), 'utf8')) as Manifest;
    } catch {
      continue;
    }
    if (manifest.private === true) continue;
    const seen = new Set<string>();
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      // `./internal` is shared by Boomerang's own packages, not public API: never documented.
      if (subpath === './package.json' || subpath === './internal' || typeof target !== 'object') continue;
      const source = target['@boomerang/source'];
      if (typeof source !== 'string') continue;
      const file = resolve(packagesDir, dir, source);
      if (seen.has(file)) continue;
      seen.add(file);
      entries.push({ specifier: manifest.name + subpath.slice(1), file });
    }
  }
  return entries.sort((a, b) => a.specifier.localeCompare(b.specifier));
}
