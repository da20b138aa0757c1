// Packs every publishable package with `pnpm pack` (so workspace: and catalog: versions are rewritten, as
// when publishing) and checks the tarball with publint and attw (profile esm-only).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, workspacePackages } from './workspace.mjs';

const pnpm = process.env.npm_execpath;
const runPnpm = (args, cwd) =>
  pnpm && /pnpm/.test(pnpm)
    ? execFileSync(process.execPath, [pnpm, ...args], { cwd, stdio: 'pipe' })
    : execFileSync('pnpm', args, { cwd, stdio: 'pipe' });
const bin = (name) => join(root, 'node_modules/.bin', name);

const publishable = workspacePackages().filter((p) => p.manifest.private !== true);
const out = mkdtempSync(join(tmpdir(), 'boomerang-pack-'));
let failed = 0;
try {
  for (const pkg of publishable) {
    const name = pkg.manifest.name;
    runPnpm(['pack', '--pack-destination', out], pkg.dir);
    const tarball = readdirSync(out).find((f) => f.startsWith(name.replace('@', '').replace('/', '-')));
    if (!tarball) throw new Error(`pnpm pack produced no tarball for ${name}`);
    const path = join(out, tarball);
    for (const [tool, args] of [
      ['publint', [path, '--strict']],
      ['attw', [path, '--profile', 'esm-only', '--format', 'table-flipped']],
    ]) {
      try {
        execFileSync(bin(tool), args, { stdio: 'pipe' });
        console.log(`ok   ${tool.padEnd(7)} ${name}`);
      } catch (error) {
        failed++;
        console.error(`FAIL ${tool.padEnd(7)} ${name}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
      }
    }
    rmSync(path);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
if (failed > 0) process.exit(1);
console.log(`Package lint OK (${publishable.length} packages).`);
