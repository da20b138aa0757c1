// Where the templates' files come from. In the repository they are plain files under templates/ (linted, and the
// scaffolder's tests compile and run what they generate); the published package carries them as one JSON file,
// dist/templates.json, written by the build from the same folder (a tarball may not hold a second copy of
// TypeScript sources, tsconfig files or test files outside src/).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Files of a template layer: path (POSIX, relative to the project's root) → text. */
export type TemplateFiles = Readonly<Record<string, string>>;

/** Every template layer: folder name under templates/ → its files. */
export type TemplateLayers = Readonly<Record<string, TemplateFiles>>;

/** The package's templates/ folder (present in the repository, absent from the published package). */
export const templatesDir = fileURLToPath(new URL('../templates/', import.meta.url));

/** The built copy of every layer (present once built; the published package has only this one). */
export const templatesJson = fileURLToPath(new URL('../dist/templates.json', import.meta.url));

/** Reads every layer under `dir` (each subfolder is one layer), files as UTF-8 text. */
export function readTemplateDir(dir: string): TemplateLayers {
  const layers: Record<string, TemplateFiles> = {};
  for (const layer of readdirSync(dir).sort()) {
    const root = join(dir, layer);
    if (!statSync(root).isDirectory()) continue;
    const files: Record<string, string> = {};
    const walk = (folder: string): void => {
      for (const entry of readdirSync(folder).sort()) {
        const full = join(folder, entry);
        if (statSync(full).isDirectory()) walk(full);
        else files[relative(root, full).split(sep).join('/')] = readFileSync(full, 'utf8');
      }
    };
    walk(root);
    layers[layer] = files;
  }
  return layers;
}

/**
 * The template layers this copy of the package has: the templates/ folder when it exists (a checkout of the
 * repository, so edits show at once), else dist/templates.json. Throws when neither is there (an unbuilt package).
 */
export function loadTemplateLayers(): TemplateLayers {
  if (existsSync(templatesDir)) return readTemplateDir(templatesDir);
  if (existsSync(templatesJson)) return JSON.parse(readFileSync(templatesJson, 'utf8')) as TemplateLayers;
  throw new Error(`create-boomerang has no templates: neither ${templatesDir} nor ${templatesJson} exists`);
}
