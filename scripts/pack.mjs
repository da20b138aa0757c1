// Packs the publishable packages as `pnpm publish` would (`pnpm pack`: workspace: and catalog: versions rewritten)
// and reads the tarballs back. Shared by lint-packages.mjs (what is in each tarball) and the tarball install test
// of apps/quickstart, which runs `node scripts/pack.mjs <dir>` and reads the JSON it prints.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { root, workspacePackages } from './workspace.mjs';

/** The packages a release publishes: every package under packages/ that is not private. */
export function publishablePackages() {
  return workspacePackages().filter((p) => p.group === 'packages' && p.manifest.private !== true);
}

/**
 * Runs pnpm with `args` in `cwd`: the pnpm that started this script (`pnpm exec`, `pnpm test` set
 * npm_execpath), else one on PATH, else the version of the root `packageManager` through npx.
 */
export function runPnpm(args, cwd) {
  const execPath = process.env.npm_execpath;
  const options = { cwd, stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 };
  if (execPath && /pnpm/.test(execPath)) return execFileSync(process.execPath, [execPath, ...args], options);
  try {
    return execFileSync('pnpm', args, options);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
    const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    return execFileSync('npx', ['-y', packageManager, ...args], options);
  }
}

/**
 * The entries of a `.tgz` (ustar, as npm and pnpm write it, with pax long names): `{ path, size, data }` for each
 * regular file, `path` without the leading `package/`.
 */
export function readTarball(file) {
  const tar = gunzipSync(readFileSync(file));
  const entries = [];
  let paxPath;
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (start, length) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1) || '0';
    const data = tar.subarray(offset + 512, offset + 512 + size);
    const prefix = field(345, 155);
    let path = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    if (type === 'x') {
      paxPath = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'))?.[1];
    } else {
      if (paxPath !== undefined) path = paxPath;
      paxPath = undefined;
      if (type === '0' || type === '7') entries.push({ path: path.replace(/^package\//, ''), size, data });
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

/** The file name `pnpm pack` gives a package's tarball: `@boomerang/client` 1.2.3 → `boomerang-client-1.2.3.tgz`. */
function tarballName(manifest) {
  return `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`;
}

/**
 * Packs every publishable package into `outDir` (one recursive `pnpm pack`) and returns, per package, its name,
 * folder, tarball path, packed size (the tarball), unpacked size (its files) and entries.
 */
export function packAll(outDir) {
  mkdirSync(outDir, { recursive: true });
  const packages = publishablePackages();
  for (const pkg of packages) rmSync(join(outDir, tarballName(pkg.manifest)), { force: true });
  runPnpm(
    [
      '-r',
      ...packages.flatMap((pkg) => ['--filter', pkg.manifest.name]),
      'pack',
      '--pack-destination',
      outDir,
    ],
    root,
  );
  return packages.map((pkg) => {
    const tarball = join(outDir, tarballName(pkg.manifest));
    if (!existsSync(tarball)) throw new Error(`pnpm pack made no ${tarball} for ${pkg.manifest.name}`);
    const entries = readTarball(tarball);
    return {
      name: pkg.manifest.name,
      dir: relative(root, pkg.dir),
      tarball,
      packed: statSync(tarball).size,
      unpacked: entries.reduce((sum, entry) => sum + entry.size, 0),
      entries,
    };
  });
}

/** `12.3 kB`: sizes as npm prints them (1 kB = 1000 B). */
export function formatBytes(bytes) {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(2)} MB`;
}

/** The size table: one line per package, then the total. */
export function sizeTable(packs) {
  const lines = [
    `${'package'.padEnd(30)} ${'files'.padStart(5)} ${'packed'.padStart(10)} ${'unpacked'.padStart(10)}`,
  ];
  for (const p of packs) {
    lines.push(
      `${p.name.padEnd(30)} ${String(p.entries.length).padStart(5)} ${formatBytes(p.packed).padStart(10)} ${formatBytes(p.unpacked).padStart(10)}`,
    );
  }
  const total = (key) => packs.reduce((sum, p) => sum + p[key], 0);
  const files = packs.reduce((sum, p) => sum + p.entries.length, 0);
  lines.push(
    `${'total'.padEnd(30)} ${String(files).padStart(5)} ${formatBytes(total('packed')).padStart(10)} ${formatBytes(total('unpacked')).padStart(10)}`,
  );
  return lines.join('\n');
}

// `node scripts/pack.mjs <dir>`: pack into <dir>, print the size table on stderr and
// [{ name, dir, tarball, packed, unpacked, files }] as JSON on stdout.
if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const outDir = process.argv[2];
  if (!outDir) {
    console.error('usage: node scripts/pack.mjs <output-dir>');
    process.exit(2);
  }
  const packs = packAll(resolve(outDir));
  console.error(sizeTable(packs));
  const summary = packs.map(({ entries, ...p }) => ({ ...p, files: entries.length }));
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}
