// Starts a new package from templates/package: `pnpm new-package <name> "<description>"`.
// Then: add its row to scripts/package-graph.json (and DESIGN.md's table), and to the changesets `fixed` group
// if it is an MCP package.
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesBelow, REPOSITORY_URL, root } from './workspace.mjs';

const [name, description = ''] = process.argv.slice(2);
if (!name || !/^[a-z][a-z0-9-]*$/.test(name)) {
  console.error('usage: pnpm new-package <kebab-name> "<one-line description>"');
  process.exit(2);
}
const target = join(root, 'packages', name);
if (existsSync(target)) {
  console.error(`packages/${name} already exists`);
  process.exit(1);
}
cpSync(join(root, 'templates/package'), target, { recursive: true });
for (const file of filesBelow(target, () => true)) {
  const text = readFileSync(file, 'utf8');
  writeFileSync(
    file,
    text
      .replaceAll('__NAME__', name)
      .replaceAll('__DESCRIPTION__', description)
      .replaceAll('__REPOSITORY__', REPOSITORY_URL),
  );
}
cpSync(join(root, 'LICENSE'), join(target, 'LICENSE'));
console.log(
  `Created packages/${name}. Next: add "@boomerang/${name}" to scripts/package-graph.json, then pnpm install.`,
);
