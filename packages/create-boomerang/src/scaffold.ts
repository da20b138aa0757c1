// Writes a project: refuses a target that already has files, then writes the rendered template.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTemplateLayers, type TemplateLayers } from './template-files.js';
import { renderTemplate, type Template } from './templates.js';

/** What {@link scaffold} writes. */
export interface ScaffoldOptions {
  /** The project's folder (absolute, or relative to the working directory): missing or empty. */
  readonly dir: string;
  /** The project's package name (check it with `projectNameProblems` first). */
  readonly name: string;
  readonly template: Template;
  /** The version of the Boomerang packages the project depends on (default: this package's own version). */
  readonly version?: string | undefined;
  /**
   * A registry the `@boomerang` packages come from (a local Verdaccio before they are on npm): written to the
   * project's `.npmrc` as `@boomerang:registry=…`, so a later `npm install` there finds them too.
   */
  readonly registry?: string | undefined;
  /** The template layers (default: this package's own, see `loadTemplateLayers`). */
  readonly layers?: TemplateLayers | undefined;
}

/** The version of this package, which the Boomerang packages share (one fixed changesets group). */
export function ownVersion(): string {
  const manifest = fileURLToPath(new URL('../package.json', import.meta.url));
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/**
 * Why `dir` cannot receive a new project (it is a file, or a folder with anything but `.git` in it), or
 * `undefined` when it can (missing or empty).
 */
export function targetProblem(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  if (!statSync(dir).isDirectory()) return `${dir} exists and is not a folder`;
  const entries = readdirSync(dir).filter((entry) => entry !== '.git');
  if (entries.length > 0) {
    const shown = entries.slice(0, 3).join(', ') + (entries.length > 3 ? ', …' : '');
    return `${dir} is not empty (${shown}); choose a new folder, or empty this one`;
  }
  return undefined;
}

/**
 * Writes the project into `options.dir` and returns the paths written (POSIX, relative to it). Throws when
 * {@link targetProblem} names a problem, so nothing of the user's is ever overwritten.
 */
export function scaffold(options: ScaffoldOptions): string[] {
  const problem = targetProblem(options.dir);
  if (problem !== undefined) throw new Error(problem);
  const files: Record<string, string> = {
    ...renderTemplate(options.template, options.layers ?? loadTemplateLayers(), {
      name: options.name,
      version: options.version ?? ownVersion(),
    }),
  };
  if (options.registry !== undefined) files['.npmrc'] = `@boomerang:registry=${options.registry}\n`;
  for (const [path, text] of Object.entries(files)) {
    const target = join(options.dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  return Object.keys(files).sort();
}
