// Enforces the one-way package graph (scripts/package-graph.json, from DESIGN.md):
// - runtime code of a package imports only what its row allows (plus node: built-ins, relative files and its
//   own `#` subpath imports);
// - its package.json `dependencies` stay inside that row (a peer it imports must be in the row too);
// - nobody deep-imports another package (only the subpaths its `exports` map declares);
// - test files import only their own package, its dependencies and its devDependencies;
// - no two files of one package import each other, directly or around a circle (type-only imports and
//   re-exports count: a circle of types is still two ideas that cannot be read apart).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { filesBelow, root, workspacePackages } from './workspace.mjs';

const graph = JSON.parse(readFileSync(join(root, 'scripts/package-graph.json'), 'utf8'));
const packages = workspacePackages();
const byName = new Map(packages.map((p) => [p.manifest.name, p]));
const problems = [];

const specifierRe =
  /(?:^|[\s;}])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function checkDeepImport(file, specifier) {
  const name = packageOf(specifier);
  const target = byName.get(name);
  if (!target) return;
  const sub = `.${specifier.slice(name.length)}`;
  const exportsMap = target.manifest.exports ?? {};
  const keys = typeof exportsMap === 'string' ? ['.'] : Object.keys(exportsMap);
  if (!keys.includes(sub)) {
    problems.push(`${relative(root, file)}: deep import '${specifier}' (${name} exports ${keys.join(', ')})`);
  }
}

for (const pkg of packages) {
  const { name } = pkg.manifest;
  const isApp = pkg.group === 'apps' || pkg.manifest.private === true;
  const allowed = graph[name];
  if (!isApp && !allowed) {
    problems.push(`${name}: no row in scripts/package-graph.json; add one (and to DESIGN.md's table)`);
    continue;
  }
  const deps = Object.keys(pkg.manifest.dependencies ?? {});
  // What runtime code may import: its dependencies, and those of its peers that its row names (zod for
  // @boomerang/mcp-server: the user's own copy). Peers outside the row (drivers a user hands in) stay unimported.
  const peers = Object.keys(pkg.manifest.peerDependencies ?? {});
  const runtime = [...deps, ...peers.filter((peer) => allowed?.includes(peer))];
  const devDeps = Object.keys(pkg.manifest.devDependencies ?? {});
  if (!isApp) {
    for (const dep of deps) {
      if (!allowed.includes(dep))
        problems.push(`${name}: dependency '${dep}' is outside its row ${JSON.stringify(allowed)}`);
    }
  }
  const sources = filesBelow(
    join(pkg.dir, 'src'),
    (f) => /\.(m?ts|tsx|m?js)$/.test(f) && !f.endsWith('.d.ts'),
  );
  for (const file of sources) {
    const isTest = /\.(test|bench|examples)\.ts$/.test(file) || file.includes('/test-support/');
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(specifierRe)) {
      const specifier = m[1] ?? m[2] ?? m[3];
      // `#…`: the package's own subpath imports (package.json "imports"), as internal as a relative file.
      if (
        !specifier ||
        specifier.startsWith('.') ||
        specifier.startsWith('#') ||
        specifier.startsWith('node:')
      ) {
        continue;
      }
      checkDeepImport(file, specifier);
      const target = packageOf(specifier);
      if (target === name) continue;
      const ok =
        isTest || isApp
          ? deps.includes(target) || devDeps.includes(target)
          : allowed.includes(target) && runtime.includes(target);
      if (!ok) {
        const where = relative(root, file);
        problems.push(
          isTest || isApp
            ? `${where}: imports '${target}', not declared in ${name}'s package.json`
            : `${where}: imports '${target}'; ${name} may import only ${JSON.stringify(allowed)} (declared as dependencies)`,
        );
      }
    }
  }
}

/** The source file a relative specifier names (`./x.js` → `./x.ts`, a folder → its index), or undefined. */
function resolveRelative(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.(m?)js$/, '.$1ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((candidate) => existsSync(candidate) && /\.(m?ts|m?js)$/.test(candidate));
}

/** The circles (strongly connected components of more than one file, or a file importing itself). */
function importCircles(files) {
  const edges = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const m of readFileSync(file, 'utf8').matchAll(specifierRe)) {
      const specifier = m[1] ?? m[2] ?? m[3];
      if (!specifier?.startsWith('.')) continue;
      const target = resolveRelative(file, specifier);
      if (target !== undefined && files.includes(target)) targets.add(target);
    }
    edges.set(file, [...targets]);
  }
  // Tarjan's algorithm, iteratively deep enough for any package.
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  const visit = (file) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file)) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file), low.get(next)));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file), index.get(next)));
    }
    if (low.get(file) === index.get(file)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || edges.get(file).includes(file)) circles.push(component);
    }
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return circles;
}

for (const pkg of packages) {
  const files = filesBelow(join(pkg.dir, 'src'), (f) => /\.(m?ts|m?js)$/.test(f) && !f.endsWith('.d.ts'));
  for (const circle of importCircles(files)) {
    const names = circle.map((file) => relative(root, file)).sort();
    problems.push(`${pkg.manifest.name}: import cycle between ${names.join(', ')}`);
  }
}

if (problems.length > 0) {
  console.error(`Package graph check failed:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`Package graph OK (${packages.length} packages).`);
