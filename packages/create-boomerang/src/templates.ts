// The templates a project can start from, in one table, and how a template becomes the files of a project.
import type { TemplateFiles, TemplateLayers } from './template-files.js';

/** One template: the layers it is made of, in order (a later layer's file replaces an earlier one's). */
export interface Template {
  /** The name given to `--template`. */
  readonly name: string;
  /** Other names `--template` accepts for it. */
  readonly aliases: readonly string[];
  /** One line for `--help` and the prompt. */
  readonly description: string;
  /** Folders under templates/ whose files make the project. */
  readonly layers: readonly string[];
}

/** Every template; the first is the default. */
export const TEMPLATES: readonly Template[] = [
  {
    name: 'server',
    aliases: ['stdio'],
    description: 'an MCP server over stdio, a tool that asks the user mid-call, a client and tests',
    layers: ['base', 'server'],
  },
  {
    name: 'server-http',
    aliases: ['http'],
    description: 'the same server over Streamable HTTP on 127.0.0.1, its client and tests (also over HTTP)',
    layers: ['base', 'server-http'],
  },
];

/** The template called `name` (or one of its aliases), or `undefined`. */
export function findTemplate(name: string): Template | undefined {
  return TEMPLATES.find((template) => template.name === name || template.aliases.includes(name));
}

/** What the placeholders of a template stand for. */
export interface TemplateValues {
  /** `{{name}}`: the project's package name. */
  readonly name: string;
  /** `{{version}}`: the version of the Boomerang packages the project depends on (`^{{version}}`). */
  readonly version: string;
}

/**
 * Names that a file may not carry inside a published tarball (npm drops or renames a `.gitignore`): stored as the
 * key, written as the value.
 */
const RENAMED: Readonly<Record<string, string>> = { _gitignore: '.gitignore', _npmrc: '.npmrc' };

/**
 * The files of a project made from `template`: its layers merged in order, the placeholders `{{name}}` and
 * `{{version}}` replaced, stored names (`_gitignore`) given their real names. Throws when a layer is missing.
 */
export function renderTemplate(
  template: Template,
  layers: TemplateLayers,
  values: TemplateValues,
): TemplateFiles {
  const merged: Record<string, string> = {};
  for (const layer of template.layers) {
    const files = layers[layer];
    if (files === undefined) throw new Error(`template ${template.name}: layer "${layer}" is missing`);
    Object.assign(merged, files);
  }
  const out: Record<string, string> = {};
  for (const [path, text] of Object.entries(merged)) {
    const slash = path.lastIndexOf('/');
    const base = path.slice(slash + 1);
    const target = path.slice(0, slash + 1) + (RENAMED[base] ?? base);
    out[target] = text.replaceAll('{{name}}', values.name).replaceAll('{{version}}', values.version);
  }
  return out;
}
