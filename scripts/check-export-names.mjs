#!/usr/bin/env node
// Every class and function a package exports keeps its own name once bundled: the build does not use esbuild's
// `keepNames` (it costs a `__name` call per closure on hot paths), so a name two modules of one bundle share would
// come out renamed (`McpError2`), and stack traces, `error.name` defaults and logs would print the wrong thing.
// This imports every entry point of every workspace package from its built `dist` and compares each exported
// function's `name` with the name it is exported under.
//   node scripts/check-export-names.mjs        (after `pnpm build`)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;

/** The `import` target of one `exports` entry, or undefined for a types-only or data entry. */
function importTarget(entry) {
  if (typeof entry === 'string') return entry.endsWith('.js') ? entry : undefined;
  if (entry && typeof entry === 'object') return importTarget(entry.import ?? entry.default);
  return undefined;
}

const problems = [];
const missing = [];
let checked = 0;
for (const group of ['packages', 'apps']) {
  for (const dir of readdirSync(join(root, group)).sort()) {
    const manifestPath = join(root, group, dir, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    for (const [subpath, entry] of Object.entries(manifest.exports ?? {})) {
      const target = importTarget(entry);
      if (target === undefined) continue;
      const file = join(root, group, dir, target);
      if (!existsSync(file)) {
        missing.push(`${manifest.name}${subpath.slice(1)} (${target})`);
        continue;
      }
      const module = await import(pathToFileURL(file).href);
      for (const [name, value] of Object.entries(module)) {
        if (typeof value !== 'function' || name === 'default') continue;
        checked++;
        if (value.name !== name) {
          problems.push(
            `${manifest.name}${subpath.slice(1)} exports ${name}, which the bundle named ${value.name}`,
          );
        }
      }
    }
  }
}
if (missing.length > 0) {
  console.error(`check-export-names: not built (run pnpm build first):\n  ${missing.join('\n  ')}`);
  process.exit(1);
}
if (problems.length > 0) {
  console.error(
    `check-export-names: ${problems.length} export(s) renamed by bundling (rename the clashing module-level ` +
      `declaration so that each name is unique within its package):\n  ${problems.join('\n  ')}`,
  );
  process.exit(1);
}
console.log(`check-export-names: ${checked} exported functions and classes keep their names`);
