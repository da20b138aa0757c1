// The rules a project name must meet to be an npm package name (the rules npm applies to new packages), so the
// generated package.json installs and could be published as is.
import { builtinModules } from 'node:module';

/** The longest name npm accepts. */
const MAX_LENGTH = 214;

/**
 * What is wrong with `name` as the name of a new npm package: one sentence per broken rule, `[]` when it is valid.
 * A scoped name (`@scope/name`) is checked part by part. Node's built-in module names (`http`, `fs`) are refused
 * because `import 'http'` would never reach the package.
 */
export function projectNameProblems(name: string): string[] {
  if (name.length === 0) return ['a name cannot be empty'];
  const problems: string[] = [];
  if (name.length > MAX_LENGTH) problems.push(`a name can have at most ${MAX_LENGTH} characters`);
  if (name.trim() !== name) problems.push('a name cannot start or end with spaces');
  if (name.toLowerCase() !== name) problems.push('a name cannot contain capital letters');
  if (/^[._]/.test(name)) problems.push('a name cannot start with a period or an underscore');
  if (/[~'!()*]/.test(name)) problems.push("a name cannot contain any of ~'!()*");
  if (name === 'node_modules' || name === 'favicon.ico') problems.push(`"${name}" is a reserved name`);
  if (builtinModules.includes(name)) problems.push(`"${name}" is the name of a Node.js built-in module`);
  const scoped = /^@([^/]+)\/([^/]+)$/.exec(name);
  const parts = scoped === null ? [name] : [scoped[1] ?? '', scoped[2] ?? ''];
  if (name.startsWith('@') && scoped === null) problems.push('a scoped name is written @scope/name');
  else if (parts.some((part) => encodeURIComponent(part) !== part)) {
    problems.push('a name can contain only URL-safe characters (letters, digits, - . _ ~)');
  }
  return problems;
}

/**
 * The folder name a package name gets when no folder is given: its last part (`@acme/tools` → `tools`).
 */
export function folderForName(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}
