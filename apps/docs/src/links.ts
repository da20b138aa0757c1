// The link check of the built site: every internal link and image of every page points at a file that exists,
// and every `#anchor` at an element id of the target page. Run on the HTML, so it sees the anchors VitePress and
// typedoc actually generated.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { filesBelow } from './files.js';

/** A broken link: the page it is on, what it points at, and why it fails. */
export interface BrokenLink {
  readonly page: string;
  readonly href: string;
  readonly reason: string;
}

/** The result of {@link checkLinks}. */
export interface LinkReport {
  readonly pages: number;
  readonly links: number;
  readonly broken: readonly BrokenLink[];
}

const idRe = /\sid="([^"]+)"/g;
const hrefRe = /<a\b[^>]*?\shref="([^"]*)"/g;
const srcRe = /<img\b[^>]*?\ssrc="([^"]*)"/g;

/** Checks every `.html` file below `distDir` (see the file comment). */
export function checkLinks(distDir: string): LinkReport {
  const pages = filesBelow(distDir, (file) => file.endsWith('.html'));
  const ids = new Map<string, Set<string>>();
  const idsOf = (file: string) => {
    let set = ids.get(file);
    if (set === undefined) {
      set = new Set(
        [...readFileSync(file, 'utf8').matchAll(idRe)].map((m) => decodeEntities(m[1] as string)),
      );
      ids.set(file, set);
    }
    return set;
  };
  const broken: BrokenLink[] = [];
  let links = 0;
  for (const page of pages) {
    const html = readFileSync(page, 'utf8');
    const pageUrl = new URL(`http://site/${relative(distDir, page).split('\\').join('/')}`);
    const targets = [...html.matchAll(hrefRe), ...html.matchAll(srcRe)].map((m) =>
      decodeEntities(m[1] as string),
    );
    for (const href of targets) {
      if (href === '' || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) continue;
      links++;
      const url = new URL(href, pageUrl);
      const file = targetFile(distDir, decodeURIComponent(url.pathname));
      const where = relative(distDir, page);
      if (file === undefined) {
        broken.push({ page: where, href, reason: 'no such page or file' });
        continue;
      }
      const anchor = decodeURIComponent(url.hash.slice(1));
      if (anchor !== '' && file.endsWith('.html') && !idsOf(file).has(anchor)) {
        broken.push({
          page: where,
          href,
          reason: `no element with id "${anchor}" on ${relative(distDir, file)}`,
        });
      }
    }
  }
  return { pages: pages.length, links, broken };
}

/** The file a site path names: itself, `<path>.html`, or `<path>/index.html`. */
function targetFile(distDir: string, pathname: string): string | undefined {
  const base = join(distDir, pathname);
  const candidates = pathname.endsWith('/')
    ? [join(base, 'index.html')]
    : [base, `${base}.html`, join(base, 'index.html')];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
