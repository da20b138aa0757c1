// The child processes run the BUILT workspace packages (their `exports` point at dist/), as plain Node does:
// `ensureBuilt()` builds them once per test file when a dist is missing or stale (see @boomerang/test-kit/built).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt as ensureBuiltFor } from '@boomerang/test-kit/built';

const appDir = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** Absolute path of a fixture program in src/fixtures. */
export function fixture(name: string): string {
  return join(appDir, 'src/fixtures', name);
}

let outcome: Promise<string | undefined> | undefined;

/**
 * Resolves to `undefined` when every `@boomerang/*` package the fixtures run on has a fresh dist (building them
 * if needed), or to the reason the child processes cannot run. Builds at most once per test file.
 */
export function ensureBuilt(): Promise<string | undefined> {
  outcome ??= Promise.resolve().then(() => ensureBuiltFor({ appDir }));
  return outcome;
}
