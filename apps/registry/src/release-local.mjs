#!/usr/bin/env node
// `pnpm release:local [--keep] [--port <n>]`: the real release path (changesets `version`, then `changeset
// publish` of every public package) into a throwaway Verdaccio registry on 127.0.0.1, so the packages can be
// installed before they are on npm. It runs in a copy of the working tree (tracked and untracked files that git
// does not ignore) in a temporary folder, because `changeset version` rewrites versions and changelogs and
// deletes the changesets: the checkout is never touched. Prints the registry URL and what it published, then
// stops the registry, unless --keep (then it prints how to stop it).
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createUser, startRegistry } from './verdaccio.mjs';

const root = resolve(import.meta.dirname, '../../..');

/** Runs a program in `cwd` with `env` added; its output goes to the log, and into the error when it fails. */
function run(file, args, cwd, env = {}) {
  try {
    return execFileSync(file, args, {
      cwd,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    error.message += `\n${error.stdout ?? ''}${error.stderr ?? ''}`.slice(-6_000);
    throw error;
  }
}

/**
 * Copies the working tree of `from` into `to`: every file git tracks or would track (ignored files left out), as
 * it is on disk now. Dependencies are not copied: `node_modules` links to the checkout's, and each workspace
 * package's own `node_modules` (pnpm's links, relative) is copied as links.
 */
export function copyWorkingTree(from, to) {
  const files = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], from)
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(from, file)));
  for (const file of files) {
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(from, file), join(to, file), { verbatimSymlinks: true });
  }
  symlinkSync(join(from, 'node_modules'), join(to, 'node_modules'), 'dir');
  for (const group of ['packages', 'apps']) {
    for (const manifest of files.filter((f) => new RegExp(`^${group}/[^/]+/package\\.json$`).test(f))) {
      const modules = join(from, dirname(manifest), 'node_modules');
      if (existsSync(modules)) {
        cpSync(modules, join(to, dirname(manifest), 'node_modules'), {
          recursive: true,
          verbatimSymlinks: true,
          filter: (source) => !/[/\\]\.(vite|vite-temp|cache)$/.test(source),
        });
      }
    }
  }
  return files.length;
}

/** The packages a release publishes: under packages/, not private; `{ name, version }` as versioned in `tree`. */
export function publicPackages(tree) {
  const out = [];
  for (const manifest of run('git', ['ls-files', 'packages/*/package.json'], tree)
    .split('\n')
    .filter(Boolean)) {
    const { name, version, private: isPrivate } = JSON.parse(readFileSync(join(tree, manifest), 'utf8'));
    if (isPrivate !== true) out.push({ name, version });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The versions of `name` the registry at `url` has (empty when it has none). Tried up to three times: a pooled
 * connection that Verdaccio closed while the publish ran fails with "other side closed" on its first reuse.
 */
async function publishedVersions(url, name) {
  const where = new URL(name.replace('/', '%2f'), url);
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(where);
      if (!response.ok) return [];
      return Object.keys((await response.json()).versions ?? {});
    } catch (error) {
      if (attempt === 3) throw new Error(`GET ${where} failed: ${error.cause?.message ?? error.message}`);
    }
  }
}

/**
 * The release: copy the tree into `work`, build the public packages (turbo, sharing the checkout's cache), run
 * `changeset version`, start the registry, sign in, `changeset publish`, check every public package is there.
 * Resolves with `{ url, published, registry }`; the caller stops `registry` (and removes `work`).
 */
export async function releaseLocal({ work, port, keep = false, log = console.log }) {
  const tree = join(work, 'tree');
  let started = Date.now();
  const step = (what) => {
    log(`release:local: ${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    started = Date.now();
  };
  const count = copyWorkingTree(root, tree);
  run('git', ['init', '-q', '-b', 'main'], tree);
  run('git', ['add', '-A'], tree);
  const who = { GIT_AUTHOR_NAME: 'release', GIT_AUTHOR_EMAIL: 'release@localhost' };
  run('git', ['commit', '-q', '--no-verify', '-m', 'release:local'], tree, {
    ...who,
    GIT_COMMITTER_NAME: who.GIT_AUTHOR_NAME,
    GIT_COMMITTER_EMAIL: who.GIT_AUTHOR_EMAIL,
  });
  step(`copied ${count} files into ${tree}`);
  const bin = (name) => join(root, 'node_modules/.bin', name);
  run(
    bin('turbo'),
    ['run', 'build', '--filter=./packages/*', `--cache-dir=${join(root, '.turbo/cache')}`],
    tree,
  );
  step('built the packages');
  log(run(bin('changeset'), ['status'], tree).trim());
  run(bin('changeset'), ['version'], tree);
  step('changeset version');
  const registry = await startRegistry(join(work, 'registry'), { port, detached: keep });
  try {
    step(`Verdaccio up on ${registry.url}`);
    const token = await createUser(registry.url);
    const npmrc = join(work, 'npmrc');
    const host = registry.url.replace(/^http:/, '');
    writeFileSync(npmrc, `registry=${registry.url}\n${host}:_authToken=${token}\n`);
    const env = {
      npm_config_registry: registry.url,
      npm_config_userconfig: npmrc,
      NPM_CONFIG_USERCONFIG: npmrc,
      CI: 'true',
    };
    log(run(bin('changeset'), ['publish'], tree, env).trim());
    step('changeset publish');
    const published = [];
    const missing = [];
    for (const pkg of publicPackages(tree)) {
      if ((await publishedVersions(registry.url, pkg.name)).includes(pkg.version)) published.push(pkg);
      else missing.push(`${pkg.name}@${pkg.version}`);
    }
    if (missing.length > 0) throw new Error(`not on the registry after publishing: ${missing.join(', ')}`);
    return { url: registry.url, published, registry };
  } catch (error) {
    await registry.stop();
    const tail = readFileSync(registry.log, 'utf8').split('\n').slice(-15).join('\n');
    error.message += `\n(the registry's last log lines, ${registry.log}:)\n${tail}`;
    throw error;
  }
}

/** The command line: release, print, stop (or keep). */
async function main() {
  const { values } = parseArgs({
    options: { keep: { type: 'boolean' }, port: { type: 'string' } },
    strict: true,
  });
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) {
    throw new RangeError(`--port expected an integer from 1 to 65535, got ${values.port}`);
  }
  const keep = values.keep === true;
  const work = mkdtempSync(join(tmpdir(), 'boomerang-release-'));
  const started = Date.now();
  let result;
  try {
    result = await releaseLocal({ work, port, keep });
  } finally {
    rmSync(join(work, 'tree'), { recursive: true, force: true });
    if (result === undefined || !keep) rmSync(work, { recursive: true, force: true });
  }
  const { url, published, registry } = result;
  console.log(`\nPublished ${published.length} packages to ${url}:`);
  for (const pkg of published) console.log(`  ${pkg.name}@${pkg.version}`);
  console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
  if (keep) {
    console.log(`\nThe registry keeps running (pid ${registry.pid}, storage in ${work}). Try it:`);
    console.log(`  npm create boomerang@latest my-app --registry ${url}`);
    console.log(`Stop it with: kill ${registry.pid}`);
  } else {
    await registry.stop();
    console.log('Registry stopped (run with --keep to keep it, e.g. pnpm release:local --keep --port 4873).');
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename) {
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130)); // stops the registry
  main().catch((error) => {
    console.error(`release:local failed: ${error.stack ?? error}`);
    process.exit(1);
  });
}
