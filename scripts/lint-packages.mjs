// Packs every publishable package with `pnpm pack` (so workspace: and catalog: versions are rewritten, as when
// publishing), checks the tarball with publint and attw (profile esm-only), and checks what is in it:
// - the manifest: MIT, the LICENSE of the repository root, and `repository` (with `directory`), `homepage` and
//   `bugs` all derived from REPOSITORY_URL (scripts/workspace.mjs; the root package.json carries it too), so relative
//   README links resolve on the registry and no package drifts;
// - the files: no test, example, test-support or fixture file, no `readme.*` but the package's README.md (npm packs
//   those whatever `files` says), TypeScript sources only under src/ (shipped once: source maps point at them and
//   embed no `sourcesContent`, and every map source is in the tarball), no workspace: or catalog: version left;
// - bins: each points at a committed file outside dist/ (so a fresh `pnpm install` links it before any build).
// Then prints the tarball sizes (packed and unpacked).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packAll, sizeTable } from './pack.mjs';
import { manifestProblems, tarballProblems } from './package-checks.mjs';
import { root } from './workspace.mjs';

const bin = (name) => join(root, 'node_modules/.bin', name);
const license = readFileSync(join(root, 'LICENSE'), 'utf8');
const tracked = new Set(
  execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean),
);

let failed = 0;
const fail = (name, check, problems) => {
  failed++;
  console.error(`FAIL ${check.padEnd(7)} ${name}\n${problems.map((p) => `  - ${p}`).join('\n')}`);
};

const rootProblems = manifestProblems(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')), '');
if (rootProblems.length > 0) fail('package.json (root)', 'links', rootProblems);

const out = mkdtempSync(join(tmpdir(), 'boomerang-pack-'));
let packs = [];
try {
  packs = packAll(out);
  for (const pack of packs) {
    const manifest = JSON.parse(readFileSync(join(root, pack.dir, 'package.json'), 'utf8'));
    const problems = [
      ...manifestProblems(manifest, pack.dir),
      ...tarballProblems(pack, { license, tracked }),
    ];
    if (problems.length > 0) fail(pack.name, 'files', problems);
    else console.log(`ok   files   ${pack.name}`);
    for (const [tool, args] of [
      ['publint', [pack.tarball, '--strict']],
      ['attw', [pack.tarball, '--profile', 'esm-only', '--format', 'table-flipped']],
    ]) {
      try {
        execFileSync(bin(tool), args, { stdio: 'pipe' });
        console.log(`ok   ${tool.padEnd(7)} ${pack.name}`);
      } catch (error) {
        fail(pack.name, tool, [`${error.stdout ?? ''}${error.stderr ?? ''}`]);
      }
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
console.log(`\n${sizeTable(packs)}\n`);
if (failed > 0) process.exit(1);
console.log(`Package lint OK (${packs.length} packages).`);
