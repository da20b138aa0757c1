// The child processes run the BUILT workspace packages (their `exports` point at dist/), as plain Node does.
// `ensureBuilt()` makes sure those builds exist: when a dist is missing or older than its sources it builds this
// package's dependency graph once; when that fails it warns and tests the existing dist, or says why the
// suites that need it must skip. Same policy as apps/provisioner/src/cli.test.ts.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const repoRoot = dirname(dirname(appDir));

/** Absolute path of a fixture program in src/fixtures. */
export function fixture(name: string): string {
  return join(appDir, 'src/fixtures', name);
}

let outcome: Promise<string | undefined> | undefined;

/**
 * Resolves to `undefined` when every `@boomerang/*` dependency of this package has a fresh dist (building
 * them if needed), or to the reason the child processes cannot run (no dist even after trying to build).
 * Builds at most once per test file.
 */
export function ensureBuilt(): Promise<string | undefined> {
  outcome ??= Promise.resolve().then(build);
  return outcome;
}

function build(): string | undefined {
  const stale = staleDependencies();
  if (stale.length === 0) return undefined;
  try {
    runPnpm(['--filter', '@boomerang/legacy-peers...', 'build']);
    return undefined;
  } catch (error) {
    const output = String((error as { stderr?: unknown }).stderr ?? error).slice(-2000);
    const missing = stale.filter((name) => !existsSync(distEntry(name)));
    if (missing.length > 0) return `no dist for ${missing.join(', ')} and the build failed: ${output}`;
    console.warn(`legacy-peers: could not rebuild ${stale.join(', ')}; testing the existing dist\n${output}`);
    return undefined;
  }
}

/** pnpm as the running script was started (`pnpm test` sets npm_execpath), else the one on PATH. */
function runPnpm(args: string[]): void {
  const execPath = process.env.npm_execpath;
  const options = { cwd: repoRoot, stdio: 'pipe', timeout: 280_000 } as const;
  if (execPath !== undefined && /pnpm/.test(execPath))
    execFileSync(process.execPath, [execPath, ...args], options);
  else execFileSync('pnpm', args, options);
}

function packageDir(name: string): string {
  return join(repoRoot, 'packages', name.slice('@boomerang/'.length));
}

function distEntry(name: string): string {
  return join(packageDir(name), 'dist/index.js');
}

/** The workspace packages the fixtures run on (this package's `@boomerang/*` dependencies and theirs). */
function workspaceDependencies(): string[] {
  const seen = new Set<string>();
  const visit = (manifestPath: string) => {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    for (const name of Object.keys((manifest.dependencies ?? {}) as Record<string, string>)) {
      if (!name.startsWith('@boomerang/') || seen.has(name)) continue;
      seen.add(name);
      visit(join(packageDir(name), 'package.json'));
    }
  };
  visit(join(appDir, 'package.json'));
  return [...seen].sort();
}

/** The workspace packages the fixtures run on whose dist/index.js is missing or older than a source file. */
function staleDependencies(): string[] {
  return workspaceDependencies().filter((name) => {
    const built = distEntry(name);
    return !existsSync(built) || newestSource(join(packageDir(name), 'src')) > statSync(built).mtimeMs;
  });
}

function newestSource(path: string): number {
  let newest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
      newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}
