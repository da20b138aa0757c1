// The hand-written pages, and the checks that hold for all of them.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkPage } from './code-blocks.js';
import { filesBelow } from './files.js';
import { apiDir, repoRoot, siteDir } from './paths.js';
import { guidePages } from './sidebar.js';

/** The hand-written pages: every `.md` of the site but the generated reference and changelog. */
export function handWrittenPages(): string[] {
  return filesBelow(siteDir, (file) => file.endsWith('.md'))
    .filter((file) => !file.startsWith(apiDir) && file !== join(siteDir, 'changelog.md'))
    .sort();
}

/**
 * The code-block rule over every hand-written page (see `code-blocks.ts`), and the table of contents: each
 * page but the landing page is in the sidebar, and each sidebar entry has its page.
 */
export function checkPages(): string[] {
  const problems = handWrittenPages().flatMap((file) => checkPage(file, siteDir, repoRoot));
  const listed = new Set(guidePages().map((page) => join(siteDir, `${page.link}.md`)));
  for (const file of handWrittenPages()) {
    if (file !== join(siteDir, 'index.md') && !listed.has(file)) {
      problems.push(`${relative(repoRoot, file)}: not in the sidebar (src/sidebar.ts)`);
    }
  }
  for (const file of listed) {
    if (!existsSync(file))
      problems.push(`src/sidebar.ts: lists ${relative(siteDir, file)}, which does not exist`);
  }
  return problems;
}
