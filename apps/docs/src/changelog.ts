// The changelog page, from the same files `changeset version` turns into each package's CHANGELOG.md: the
// pending `.changeset/*.md` entries (unreleased) and, once versions are cut, those CHANGELOG.md files.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One pending changeset: the packages it bumps and its text. */
export interface Changeset {
  /** The file name without `.md`. */
  readonly id: string;
  readonly releases: ReadonlyArray<{ readonly name: string; readonly type: BumpType }>;
  readonly summary: string;
}

export type BumpType = 'major' | 'minor' | 'patch';
const BUMPS: readonly BumpType[] = ['major', 'minor', 'patch'];

/**
 * Parses one changeset file: YAML front matter of `"<package>": <bump>` lines, then the summary. Throws
 * `SyntaxError` naming the file for anything else, so a malformed changeset fails the docs build (it would fail
 * `changeset version` too).
 */
export function parseChangeset(id: string, text: string): Changeset {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (match === null) throw new SyntaxError(`.changeset/${id}.md: no front matter`);
  const releases = [];
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const release = /^\s*["']?([^"':]+)["']?\s*:\s*(major|minor|patch)\s*$/.exec(line);
    if (release === null) throw new SyntaxError(`.changeset/${id}.md: cannot read "${line}"`);
    releases.push({ name: release[1] as string, type: release[2] as BumpType });
  }
  return { id, releases, summary: (match[2] ?? '').trim() };
}

/** Every changeset in `dir` (not its README), sorted by file name. */
export function readChangesets(dir: string): Changeset[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.md') && file !== 'README.md')
    .sort()
    .map((file) => parseChangeset(file.slice(0, -3), readFileSync(join(dir, file), 'utf8')));
}

/**
 * The changelog page. "Unreleased" lists each package's pending changes grouped by bump, as `changeset version`
 * will write them into its CHANGELOG.md; then each package's released history, when it has a CHANGELOG.md
 * (its headings moved two levels down, under the package's).
 */
export function renderChangelog(
  changesets: readonly Changeset[],
  released: ReadonlyMap<string, string>,
): string {
  const out = [
    '# Changelog',
    '',
    'Every user-visible change is recorded as a changeset when it lands; releases collect them into each ' +
      "package's `CHANGELOG.md`. The MCP packages share one version; `@boomerang/seal` is versioned on its own.",
    '',
  ];
  const packages = [...new Set(changesets.flatMap((c) => c.releases.map((r) => r.name)))].sort();
  if (packages.length > 0) {
    out.push('## Unreleased', '');
    for (const name of packages) {
      out.push(`### ${name}`, '');
      for (const type of BUMPS) {
        const entries = changesets.filter((c) => c.releases.some((r) => r.name === name && r.type === type));
        if (entries.length === 0) continue;
        out.push(`#### ${capitalise(type)} changes`, '');
        for (const entry of entries) out.push(bullet(entry.summary), '');
      }
    }
  }
  if (released.size > 0) {
    out.push('## Released', '');
    for (const [name, text] of [...released].sort(([a], [b]) => a.localeCompare(b))) {
      out.push(`### ${name}`, '', demote(text.replace(/^# .*\r?\n/, '').trim()), '');
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** Each published package's `CHANGELOG.md`, by package name. */
export function readReleased(packagesDir: string): Map<string, string> {
  const released = new Map<string, string>();
  for (const dir of readdirSync(packagesDir)) {
    const file = join(packagesDir, dir, 'CHANGELOG.md');
    const manifest = join(packagesDir, dir, 'package.json');
    if (!existsSync(file) || !existsSync(manifest)) continue;
    const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string };
    released.set(name, readFileSync(file, 'utf8'));
  }
  return released;
}

/** A summary as one list item: the first line after `- `, the rest indented under it. */
function bullet(summary: string): string {
  return summary
    .split('\n')
    .map((line, i) => (i === 0 ? `- ${line}` : line === '' ? '' : `  ${line}`))
    .join('\n');
}

/** Moves every ATX heading two levels down (`## 1.0.0` → `#### 1.0.0`), outside code fences. */
function demote(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      return !fenced && /^#{1,4} /.test(line) ? `##${line}` : line;
    })
    .join('\n');
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
