// typedoc-plugin-markdown numbers some anchors (`#clientsession-1`) for headings VitePress slugs without a
// number, and keeps underscores (`#task_statuses`) that VitePress's slug turns into dashes; this rewrites such
// links to the anchors VitePress will generate. The link check of the built site verifies the result.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { filesBelow } from './files.js';

/** VitePress's heading slug (`@mdit-vue/shared`'s `slugify`), applied to a heading's visible text. */
export function slugify(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036F]/g, '')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: VitePress's slugify drops control characters too.
      .replace(/[\u0000-\u001f]/g, '')
      .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^-+|-+$/g, '')
      .replace(/^(\d)/, '_$1')
      .toLowerCase()
  );
}

/** The anchors VitePress gives the headings of a markdown page, duplicates numbered in order. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const visible = (heading[1] as string).replace(/\\(.)/g, '$1').replace(/[`*]/g, '');
    const base = slugify(visible);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/**
 * Rewrites, in every `.md` file below `dir`, links `(page.md#name-N)` / `(#name-N)` whose anchor the target page
 * will not have but whose `#name` it will, and links whose anchor the page will have only once slugged as
 * VitePress does (`#task_statuses` → `#task-statuses`). Returns how many links changed.
 */
export function repairAnchors(dir: string): number {
  const files = filesBelow(dir, (file) => file.endsWith('.md'));
  const texts = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));
  const anchors = new Map([...texts].map(([file, text]) => [file, headingAnchors(text)]));
  let changed = 0;
  for (const [file, text] of texts) {
    const repaired = text.replace(/\]\(([^()\s#]*)#([^()\s]+)\)/g, (link, target: string, anchor: string) => {
      const page = target === '' ? file : resolve(dirname(file), target);
      const known = anchors.get(page);
      if (known === undefined || known.has(anchor)) return link;
      const base = /^(.*)-\d+$/.exec(anchor)?.[1];
      const repair = [base, slugify(anchor)].find(
        (candidate) => candidate !== undefined && known.has(candidate),
      );
      if (repair === undefined) return link;
      changed++;
      return `](${target}#${repair})`;
    });
    if (repaired !== text) writeFileSync(file, repaired);
  }
  return changed;
}
