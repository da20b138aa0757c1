// Every entry point of every installed @boomerang package loads, and every exported class keeps its name once
// bundled (an `McpError` prints as `McpError`, never `_McpError`; scripts/check-export-names.mjs checks the same
// on the workspace's builds).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const scope = join(process.cwd(), 'node_modules/@boomerang'); // run from the project's folder
const problems: string[] = [];
const checked: string[] = [];
for (const dir of readdirSync(scope)) {
  const manifest = JSON.parse(readFileSync(join(scope, dir, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, unknown>;
  };
  for (const subpath of Object.keys(manifest.exports)) {
    if (subpath === './package.json') continue;
    const specifier = manifest.name + subpath.slice(1);
    const module = (await import(specifier)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (typeof value !== 'function' || !/^class\b/.test(Function.prototype.toString.call(value))) continue;
      checked.push(`${specifier}:${name}`);
      if (value.name !== name) problems.push(`${specifier} exports class ${name} named ${value.name}`);
    }
  }
}
const { McpError } = await import('@boomerang/protocol');
const printed = String(new McpError(-32602, 'Invalid params'));
if (!printed.startsWith('McpError')) problems.push(`an McpError prints as ${printed}`);
if (problems.length > 0) throw new Error(problems.join('\n'));
console.log(JSON.stringify({ classes: checked, printed }));
