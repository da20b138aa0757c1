// Tests that spawn real programs run the BUILT workspace packages (their `exports` point at dist/, as plain Node
// needs). `ensureBuilt` makes sure those builds exist before such a test runs: when a dist a program needs is
// missing or older than its sources, it builds the app's dependency graph once; when that fails it warns and
// tests the existing dist, or says why the tests must skip. Vitest suites of other packages may be reading dist
// files at the same moment, so fresh packages are never rebuilt.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What {@link ensureBuilt} checks. */
export interface BuiltCheck {
  /** The app's (or package's) directory: its `package.json` names the workspace packages it runs on. */
  readonly appDir: string;
  /** Also build the app itself every time (its programs live in its own dist), not only stale dependencies. */
  readonly buildApp?: boolean;
  /** Files that must exist for the tests to run at all, besides the dependencies' dist (the app's programs). */
  readonly needs?: readonly string[];
  /**
   * Workspace packages the programs import beyond the `dependencies` of `appDir` (its devDependencies, or the
   * package itself when `appDir` is a package whose test fixtures import it): checked and built like those.
   */
  readonly runs?: readonly string[];
}

/**
 * Builds what `check.appDir` runs on when needed (see the file comment) and returns `undefined` when the programs
 * can run, or the reason they cannot (a needed file is missing even after trying to build). Synchronous: call it
 * from a `beforeAll` with a long timeout.
 */
export function ensureBuilt(check: BuiltCheck): string | undefined {
  const { appDir } = check;
  const repoRoot = dirname(dirname(appDir));
  const name = (JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as { name: string }).name;
  const runs = check.runs ?? [];
  const stale = staleWorkspaceDependencies(appDir, runs);
  const filters =
    stale.length > 0
      ? [`${name}...`, ...runs.map((dep) => `${dep}...`)]
      : check.buildApp === true
        ? [name]
        : [];
  if (filters.length === 0) return undefined;
  const filter = filters.join(' ');
  try {
    runPnpm(repoRoot, [...filters.flatMap((f) => ['--filter', f]), 'build']);
    return undefined;
  } catch (error) {
    const output = String((error as { stderr?: unknown }).stderr ?? error).slice(-2000);
    const needed = [...(check.needs ?? []), ...stale.map((dep) => distEntry(repoRoot, dep))];
    const missing = needed.filter((file) => !existsSync(file));
    if (missing.length > 0) return `could not build ${filter} (missing ${missing.join(', ')}): ${output}`;
    console.warn(`${name}: could not build ${filter}; testing the existing dist\n${output}`);
    return undefined;
  }
}

/**
 * The workspace packages `appDir` runs on (its `@boomerang/*` dependencies, and theirs; plus `runs` and theirs)
 * whose built entry (`exports["."]`, else `dist/index.js`) is missing or older than one of their source files.
 * A dependency may be an app (`apps/<name>`) that exports what other apps import.
 */
export function staleWorkspaceDependencies(appDir: string, runs: readonly string[] = []): string[] {
  const repoRoot = dirname(dirname(appDir));
  return workspaceDependencies(appDir, runs).filter((dep) => {
    const built = distEntry(repoRoot, dep);
    return (
      !existsSync(built) || newestSource(join(packageDir(repoRoot, dep), 'src')) > statSync(built).mtimeMs
    );
  });
}

/**
 * pnpm as the running script was started (`pnpm test` sets npm_execpath), else the one on PATH, else the root
 * `packageManager` version through npx (a bare `npx vitest` where pnpm is not installed).
 */
function runPnpm(cwd: string, args: string[]): void {
  const execPath = process.env.npm_execpath;
  const options = { cwd, stdio: 'pipe', timeout: 280_000 } as const;
  if (execPath !== undefined && /pnpm/.test(execPath)) {
    execFileSync(process.execPath, [execPath, ...args], options);
    return;
  }
  try {
    execFileSync('pnpm', args, options);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
    const { packageManager } = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as {
      packageManager: string;
    };
    execFileSync('npx', ['-y', packageManager, ...args], options);
  }
}

/** Where a workspace package lives: `packages/<name>`, or `apps/<name>` for an app other apps import. */
function packageDir(repoRoot: string, name: string): string {
  // `@boomerang/x` lives in packages/x (or apps/x); an unscoped package (create-boomerang) under its own name.
  const short = name.startsWith('@boomerang/') ? name.slice('@boomerang/'.length) : name;
  const inPackages = join(repoRoot, 'packages', short);
  return existsSync(inPackages) || !existsSync(join(repoRoot, 'apps', short))
    ? inPackages
    : join(repoRoot, 'apps', short);
}

/** The built file its `exports["."]` points at (`dist/index.js` for a package without one). */
function distEntry(repoRoot: string, name: string): string {
  const dir = packageDir(repoRoot, name);
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      exports?: Record<string, unknown>;
    };
    const main = manifest.exports?.['.'] as { default?: unknown } | undefined;
    if (typeof main?.default === 'string') return join(dir, main.default);
  } catch {
    // No manifest to read: the default below, which the callers then find missing.
  }
  return join(dir, 'dist/index.js');
}

function workspaceDependencies(appDir: string, runs: readonly string[]): string[] {
  const repoRoot = dirname(dirname(appDir));
  const seen = new Set<string>();
  const visit = (manifestPath: string) => {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      if (!name.startsWith('@boomerang/') || seen.has(name)) continue;
      seen.add(name);
      visit(join(packageDir(repoRoot, name), 'package.json'));
    }
  };
  visit(join(appDir, 'package.json'));
  for (const name of runs) {
    if (seen.has(name)) continue;
    seen.add(name);
    visit(join(packageDir(repoRoot, name), 'package.json'));
  }
  return [...seen].sort();
}

function newestSource(path: string): number {
  let newest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
      newest = Math.max(newest, statSync(full).mtimeMs);
    }
  }
  return newest;
}
