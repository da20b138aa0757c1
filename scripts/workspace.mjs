// Small helpers the repo scripts share: list workspace packages and their source files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;

/**
 * The canonical repository of the project, the one place it is written: every publishable package.json derives
 * `repository`, `homepage` and `bugs` from it (lint-packages.mjs checks them, new-package.mjs fills them in).
 */
export const REPOSITORY_URL = 'https://github.com/boomerang-mcp/boomerang';

/** Every workspace package under packages/ and apps/, with its parsed package.json. */
export function workspacePackages() {
  const out = [];
  for (const group of ['packages', 'apps']) {
    let names = [];
    try {
      names = readdirSync(join(root, group));
    } catch {
      continue;
    }
    for (const name of names) {
      const dir = join(root, group, name);
      try {
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
        out.push({ dir, group, manifest });
      } catch {
        // not a package folder
      }
    }
  }
  return out;
}

/** Every file below dir whose name passes the filter, skipping node_modules and dist. */
export function filesBelow(dir, filter) {
  const out = [];
  const walk = (d) => {
    for (const entry of readdirSync(d)) {
      if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
      const full = join(d, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (filter(full)) out.push(full);
    }
  };
  walk(dir);
  return out;
}
