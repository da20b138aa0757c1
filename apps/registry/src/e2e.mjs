#!/usr/bin/env node
// The end-to-end check of a release a user can install: `pnpm release:local` (in process: version, build,
// publish into a throwaway Verdaccio on 127.0.0.1), then, in a fresh folder outside the workspace and for each
// template, `npm create boomerang@latest app --registry <url> -- --template <t>` (which runs `npm install`
// against that registry: the @boomerang packages from it, third-party ones proxied from npm), then the project's
// `npm test` (tsc with TypeScript 5.9, strict, no skipLibCheck; then its tests) and `npm run dev`. Stops the
// registry and removes every folder it made, also on failure. Prints each step's duration and ends with
// `N passed, N failed`.
//   node apps/registry/src/e2e.mjs      (a few minutes: see apps/registry/README.md)
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { releaseLocal } from './release-local.mjs';

const exec = promisify(execFile);
const TEMPLATES = ['server', 'server-http'];

/** Runs a program in `cwd`; when it fails, the error carries what it printed. */
async function run(file, args, cwd, env = {}) {
  try {
    return await exec(file, args, {
      cwd,
      env: { ...process.env, ...env },
      timeout: 300_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    error.message += `\n${error.stdout ?? ''}${error.stderr ?? ''}`.slice(-6_000);
    throw error;
  }
}

/** Scaffolds `template` from the registry at `url` into `parent`, then runs its tests and its dev script. */
async function checkTemplate(url, parent, template, log) {
  let started = Date.now();
  const lap = (what) => {
    log(`  ${template}: ${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    started = Date.now();
  };
  const dir = join(parent, `app-${template}`);
  // npm consumes --registry (and hands it on to create-boomerang as npm_config_registry); the options after
  // `--` are create-boomerang's. Its own `npm install` runs against the same registry.
  await run(
    'npm',
    ['create', 'boomerang@latest', `app-${template}`, '--registry', url, '--', '--template', template],
    parent,
    { npm_config_yes: 'true' }, // npm asks before fetching create-boomerang unless told yes (no terminal here)
  );
  lap('npm create boomerang@latest + npm install');
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const installed = JSON.parse(
    readFileSync(join(dir, 'node_modules/@boomerang/mcp-server/package.json'), 'utf8'),
  );
  if (manifest.dependencies['@boomerang/mcp-server'] !== `^${installed.version}`) {
    throw new Error(
      `the project asks for ${manifest.dependencies['@boomerang/mcp-server']}, got ${installed.version}`,
    );
  }
  const typescript = JSON.parse(
    readFileSync(join(dir, 'node_modules/typescript/package.json'), 'utf8'),
  ).version;
  if (!typescript.startsWith('5.9.'))
    throw new Error(`expected TypeScript 5.9, the project has ${typescript}`);
  const tests = await run('npm', ['test'], dir);
  if (!/# fail 0/.test(tests.stdout) || !/# pass [1-9]/.test(tests.stdout)) {
    throw new Error(`npm test did not pass:\n${tests.stdout}`);
  }
  lap(`npm test (tsc ${typescript}, then node --test)`);
  const dev = await run('npm', ['run', 'dev'], dir);
  if (!dev.stdout.includes("[ { type: 'text', text: 'Hello, Ada!' } ]")) {
    throw new Error(`npm run dev printed no greeting:\n${dev.stdout}`);
  }
  lap('npm run dev');
}

async function main() {
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'boomerang-e2e-'));
  const log = (line) => console.log(line);
  let registry;
  let passed = 0;
  let failed = 0;
  try {
    const release = await releaseLocal({ work, log });
    registry = release.registry;
    log(`published ${release.published.length} packages to ${release.url}`);
    const parent = join(work, 'projects');
    mkdirSync(parent);
    for (const template of TEMPLATES) {
      try {
        await checkTemplate(release.url, parent, template, log);
        log(`ok ${template}`);
        passed++;
      } catch (error) {
        console.error(`FAIL ${template}: ${error.message}`);
        failed++;
      }
    }
  } catch (error) {
    console.error(`FAIL release:local: ${error.stack ?? error}`);
    failed++;
  } finally {
    await registry?.stop();
    rmSync(work, { recursive: true, force: true });
  }
  log(`e2e took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130)); // stops the registry
await main();
