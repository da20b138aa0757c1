// The checks lint-packages.mjs runs on each publishable package: its manifest (licence and the links derived from
// REPOSITORY_URL) and the files of its `pnpm pack` tarball. Pure functions of what they are given, so
// apps/quickstart/src/package-checks.test.ts shows each one failing on a tarball made to break it.
import { posix } from 'node:path';
import { REPOSITORY_URL } from './workspace.mjs';

/** What the manifest of the package in `dir` (relative to the root, or '' for the root) must say. */
export function expectedLinks(dir) {
  return {
    repository:
      dir === ''
        ? { type: 'git', url: `git+${REPOSITORY_URL}.git` }
        : { type: 'git', url: `git+${REPOSITORY_URL}.git`, directory: dir },
    homepage: dir === '' ? `${REPOSITORY_URL}#readme` : `${REPOSITORY_URL}/tree/main/${dir}#readme`,
    bugs: { url: `${REPOSITORY_URL}/issues` },
    license: 'MIT',
  };
}

/** Deep equality of JSON values, key order ignored. */
function sameJson(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b) || Object.keys(a).length !== Object.keys(b).length) return false;
  return Object.keys(a).every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
}

/** What is wrong with `manifest` (of the package in `dir`, '' for the root): one line per problem. */
export function manifestProblems(manifest, dir) {
  const problems = [];
  for (const [field, want] of Object.entries(expectedLinks(dir))) {
    if (!sameJson(manifest[field], want)) {
      problems.push(`"${field}" should be ${JSON.stringify(want)}, is ${JSON.stringify(manifest[field])}`);
    }
  }
  return problems;
}

const forbidden = [
  [/(^|\/)[^/]+\.test\.[^/]+$/, 'a test file'],
  [/(^|\/)[^/]+\.examples\.[^/]+$/, 'an example file'],
  [/(^|\/)test-(support|fixtures)\//, 'a test helper or fixture'],
  [/(^|\/)readme\.(?!md$)[^/]*$/i, 'a readme.* file (npm packs these whatever `files` says)'],
  [/(^|\/)(tsconfig[^/]*\.json|tsup\.config\.ts|vitest\.config\.ts)$/, 'a build or test config'],
];

/**
 * What is wrong with a packed package: `pack` is `{ dir, entries }` (see pack.mjs), `license` the root LICENSE text,
 * `tracked` the set of committed files (paths from the repository root). One line per problem.
 */
export function tarballProblems(pack, { license, tracked }) {
  const problems = [];
  const paths = new Set(pack.entries.map((entry) => entry.path));
  for (const { path, data } of pack.entries) {
    for (const [pattern, what] of forbidden) {
      if (pattern.test(path) && !(what.startsWith('a readme') && path === 'README.md')) {
        problems.push(`${path} is ${what}`);
      }
    }
    if (/\.(m|c)?ts$/.test(path) && !/\.d\.(m|c)?ts$/.test(path) && !path.startsWith('src/')) {
      problems.push(`${path}: TypeScript source outside src/ (sources ship once, in src/)`);
    }
    if (path.endsWith('.map')) {
      let map;
      try {
        map = JSON.parse(data.toString('utf8'));
      } catch {
        problems.push(`${path}: not a JSON source map`);
        continue;
      }
      if (Array.isArray(map.sourcesContent) && map.sourcesContent.some((s) => s != null)) {
        problems.push(`${path}: embeds sourcesContent (the sources would ship twice)`);
      }
      for (const source of map.sources ?? []) {
        const target = posix.normalize(posix.join(posix.dirname(path), map.sourceRoot ?? '', source));
        if (!paths.has(target)) problems.push(`${path}: source ${source} is not in the tarball`);
      }
    }
    if (path.startsWith('src/') && /\.(m|c)?ts$/.test(path) && paths.has(path.replace(/^src\//, 'dist/'))) {
      problems.push(`${path} ships twice (also as dist/${path.slice(4)})`);
    }
  }
  const licenseEntry = pack.entries.find((entry) => entry.path === 'LICENSE');
  if (licenseEntry === undefined) problems.push('no LICENSE');
  else if (licenseEntry.data.toString('utf8') !== license)
    problems.push('LICENSE differs from the root LICENSE');
  if (!paths.has('README.md')) problems.push('no README.md');
  const manifestEntry = pack.entries.find((entry) => entry.path === 'package.json');
  const manifest = JSON.parse(manifestEntry.data.toString('utf8'));
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [dep, range] of Object.entries(manifest[field] ?? {})) {
      if (/^(workspace|catalog):/.test(range)) problems.push(`${field}.${dep} is still ${range}`);
    }
  }
  for (const [name, target] of Object.entries(
    typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {}),
  )) {
    const file = posix.normalize(target);
    if (!paths.has(file)) problems.push(`bin ${name} → ${target} is not in the tarball`);
    if (file.startsWith('dist/'))
      problems.push(`bin ${name} → ${target} is a build output (links fail before a build)`);
    if (!tracked.has(posix.join(pack.dir, file)))
      problems.push(`bin ${name} → ${target} is not a committed file`);
  }
  return problems;
}
