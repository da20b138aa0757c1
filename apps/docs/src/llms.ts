// llms.txt (an index for coding assistants, per llmstxt.org) and llms-full.txt (everything in one file), from
// the same markdown the site is built from, with every code include replaced by the code it shows.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findIncludes, includedCode } from './includes.js';
import type { PageGroup, PageLink } from './sidebar.js';

/** A page as plain markdown: what it is called, what it is about, and its text with includes resolved. */
export interface LlmsPage {
  /** Site path without extension, e.g. `/guides/resolvers`, `/api/seal`. */
  readonly link: string;
  readonly title: string;
  readonly description: string | undefined;
  readonly markdown: string;
}

/**
 * Reads a page source and returns it for llms.txt: front matter dropped (its `description` kept), each
 * `<<<` include replaced by a fenced block of the code it shows. Throws when an include cannot be resolved (the
 * code-block check reports that first, with a better message).
 */
export function readLlmsPage(file: string, link: string, siteDir: string, fallbackTitle: string): LlmsPage {
  const source = readFileSync(file, 'utf8');
  const front = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(source);
  const description = front?.[1]
    ?.match(/^description:\s*(.+)$/m)?.[1]
    ?.trim()
    .replace(/^['"]|['"]$/g, '');
  let body = front === null ? source : source.slice(front[0].length);
  const includes = findIncludes(body, file, siteDir);
  const lines = body.split('\n');
  for (const include of includes) {
    const code = includedCode(include);
    if (code === undefined) throw new Error(`${file}:${include.line}: cannot resolve ${include.path}`);
    const indent = /^\s*/.exec(lines[include.line - 1] ?? '')?.[0] ?? '';
    lines[include.line - 1] = [`\`\`\`${include.lang}`, code, '```'].map((l) => indent + l).join('\n');
  }
  body = lines.join('\n').trim();
  const title = /^# (.+)$/m.exec(body)?.[1]?.trim() ?? fallbackTitle;
  return { link, title, description, markdown: body };
}

/** The llms.txt index: a title, a summary, then one list per sidebar group and the reference. */
export function renderLlmsIndex(options: {
  readonly title: string;
  readonly summary: string;
  readonly details: string;
  readonly groups: ReadonlyArray<{ readonly text: string; readonly pages: readonly LlmsPage[] }>;
  readonly optional: readonly LlmsPage[];
}): string {
  const item = (page: LlmsPage) =>
    `- [${page.title}](${page.link}.md)${page.description === undefined ? '' : `: ${page.description}`}`;
  const out = [`# ${options.title}`, '', `> ${options.summary}`, '', options.details, ''];
  for (const group of options.groups) {
    if (group.pages.length === 0) continue;
    out.push(`## ${group.text}`, '', ...group.pages.map(item), '');
  }
  out.push(
    '## Optional',
    '',
    ...options.optional.map(item),
    '- [Everything in one file](/llms-full.txt)',
    '',
  );
  return out.join('\n');
}

/** llms-full.txt: every page, in order, each under its own source line. */
export function renderLlmsFull(title: string, summary: string, pages: readonly LlmsPage[]): string {
  const out = [`# ${title}`, '', `> ${summary}`, ''];
  for (const page of pages) out.push('---', '', `Source: ${page.link}.md`, '', page.markdown, '');
  return out.join('\n');
}

/** Writes each page as `<link>.md` beside the HTML, so the links of llms.txt resolve on the deployed site. */
export function writeMarkdownCopies(distDir: string, pages: readonly LlmsPage[]): void {
  for (const page of pages) {
    const file = join(distDir, `${page.link.endsWith('/') ? `${page.link}index` : page.link}.md`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${page.markdown}\n`);
  }
}

/** The guide's groups as llms.txt groups, given a way to read one page. */
export function groupsOf(
  guide: readonly PageGroup[],
  read: (page: PageLink) => LlmsPage,
): Array<{ text: string; pages: LlmsPage[] }> {
  return guide.map((group) => ({ text: group.text, pages: group.items.map(read) }));
}
