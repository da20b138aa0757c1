// The docs build, step by step: API reference, changelog, the code-block rule, VitePress, llms.txt, link check.
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'vitepress';
import { generateApi } from './api.js';
import { readChangesets, readReleased, renderChangelog } from './changelog.js';
import { filesBelow } from './files.js';
import { checkLinks } from './links.js';
import { type LlmsPage, readLlmsPage, renderLlmsFull, renderLlmsIndex, writeMarkdownCopies } from './llms.js';
import { checkPages } from './pages.js';
import { apiDir, distDir, repoRoot, siteDir } from './paths.js';
import { guide, reference } from './sidebar.js';

/** A failed check of the docs: every problem found, one per line. */
export class DocsCheckError extends Error {
  override readonly name = 'DocsCheckError';
  constructor(
    readonly step: string,
    readonly problems: readonly string[],
  ) {
    super(`${step}: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

export const SUMMARY =
  'Boomerang is a TypeScript SDK for the Model Context Protocol (MCP) revision 2026-07-28, built around ' +
  'multi-round-trip requests: a server that needs input mid-call returns an InputRequiredResult, and the client ' +
  'answers and retries with inputResponses and the opaque, sealed requestState.';

/** Writes `site/changelog.md` from `.changeset/` and the packages' CHANGELOG.md files. */
export function writeChangelog(): void {
  const text = renderChangelog(
    readChangesets(join(repoRoot, '.changeset')),
    readReleased(join(repoRoot, 'packages')),
  );
  writeFileSync(join(siteDir, 'changelog.md'), text);
}

/** Generates what the pages need (reference, changelog) and checks the hand-written pages. */
export async function prepareSite(options: { force?: boolean } = {}): Promise<void> {
  await generateApi(options);
  writeChangelog();
  const problems = checkPages();
  if (problems.length > 0) throw new DocsCheckError('code blocks', problems);
}

/** Every page in llms.txt order: the guide, then the API reference, then the changelog. */
function llmsPages(): {
  groups: Array<{ text: string; pages: LlmsPage[] }>;
  api: LlmsPage[];
  changelog: LlmsPage;
} {
  const read = (file: string, link: string, title: string) => readLlmsPage(file, link, siteDir, title);
  const groups = guide.map((group) => ({
    text: group.text,
    pages: group.items.map((page) => read(join(siteDir, `${page.link}.md`), page.link, page.text)),
  }));
  const api = filesBelow(apiDir, (file) => file.endsWith('.md'))
    .sort()
    .map((file) => {
      const link = `/${relative(siteDir, file).split('\\').join('/').replace(/\.md$/, '')}`;
      return read(file, link, link);
    });
  const changelogLink = reference.find((page) => page.link === '/changelog')?.link ?? '/changelog';
  return { groups, api, changelog: read(join(siteDir, 'changelog.md'), changelogLink, 'Changelog') };
}

/** Writes llms.txt, llms-full.txt and a `.md` copy of every page into the built site. */
export function writeLlms(): void {
  const { groups, api, changelog } = llmsPages();
  const details =
    'Every code sample on the site is included from a file that is typechecked and run by the test suite. ' +
    'Packages: @boomerang/mcp-server (high-level server with resolvers), @boomerang/server (low-level server), ' +
    '@boomerang/client, @boomerang/protocol, @boomerang/seal, @boomerang/auth, and the memory, stdio and ' +
    'Streamable HTTP transports.';
  const all = [...groups.flatMap((group) => group.pages), ...api, changelog];
  writeMarkdownCopies(distDir, all);
  writeFileSync(
    join(distDir, 'llms.txt'),
    renderLlmsIndex({
      title: 'Boomerang',
      summary: SUMMARY,
      details,
      groups: [...groups, { text: 'API reference', pages: api }],
      optional: [changelog],
    }),
  );
  writeFileSync(join(distDir, 'llms-full.txt'), renderLlmsFull('Boomerang', SUMMARY, all));
}

/** Step timings of a build, in milliseconds. */
export type Timings = Record<string, number>;

/**
 * The whole build: prepare (reference, changelog, code-block rule), VitePress, llms.txt, then the link check of
 * the result. Throws {@link DocsCheckError} when a check fails; the built site stays for inspection.
 */
export async function buildSite(
  options: { force?: boolean; log?: (line: string) => void } = {},
): Promise<Timings> {
  const log = options.log ?? (() => {});
  const timings: Timings = {};
  const step = async (name: string, run: () => unknown) => {
    const start = Date.now();
    await run();
    timings[name] = Date.now() - start;
    log(`docs: ${name} ${timings[name]} ms`);
  };
  await step('reference and checks', () => prepareSite(options));
  await step('vitepress', () => build(siteDir));
  await step('llms.txt', writeLlms);
  await step('links', () => {
    const report = checkLinks(distDir);
    if (report.broken.length > 0) {
      throw new DocsCheckError(
        'links',
        report.broken.map((link) => `${link.page}: ${link.href} (${link.reason})`),
      );
    }
    log(`docs: ${report.links} internal links on ${report.pages} pages, none broken`);
  });
  return timings;
}
