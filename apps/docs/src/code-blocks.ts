// The rule that keeps every code sample honest: a page shows code only through includes of files that tests
// run, never as a block pasted into the markdown.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import MarkdownIt from 'markdown-it';
import { findIncludes, includedCode } from './includes.js';

/** Languages a page may write inline: shell commands (install, run), which no test can own. */
export const INLINE_LANGUAGES: ReadonlySet<string> = new Set(['sh']);

const markdown = new MarkdownIt({ html: true });

/**
 * The problems of one page, each as `file:line: message`:
 * - a fenced block in any language but `sh`, or an indented code block;
 * - an include whose file or `#region` does not exist;
 * - an include of a file that is not an example (`*.examples.ts`, `*.examples.mjs`) or a fixture (`.json`);
 * - an included file that no test beside it names (`foo.examples.ts` needs a `*.test.ts` in its folder that
 *   mentions `foo.examples`), so every shown sample is one some test imports and runs.
 */
export function checkPage(pageFile: string, siteDir: string, repoRoot: string): string[] {
  const text = readFileSync(pageFile, 'utf8');
  const where = (line: number) => `${relative(repoRoot, pageFile)}:${line}`;
  const problems: string[] = [];
  for (const token of markdown.parse(stripFrontMatter(text), {})) {
    const line = (token.map?.[0] ?? 0) + 1 + frontMatterLines(text);
    if (token.type === 'fence') {
      const lang = token.info.trim().split(/\s+/)[0] ?? '';
      if (!INLINE_LANGUAGES.has(lang)) {
        problems.push(
          `${where(line)}: a \`${lang || 'plain'}\` code block written in the page; include it from a tested file (<<< @/../src/examples/….examples.ts#region)`,
        );
      }
    } else if (token.type === 'code_block') {
      problems.push(`${where(line)}: an indented code block; include code from a tested file instead`);
    }
  }
  for (const include of findIncludes(text, pageFile, siteDir)) {
    const shown = relative(repoRoot, include.file);
    if (!/\.examples\.m?[jt]s$/.test(include.file) && extname(include.file) !== '.json') {
      problems.push(
        `${where(include.line)}: ${shown} is neither an example (*.examples.ts, .mjs) nor a fixture (.json)`,
      );
      continue;
    }
    if (includedCode(include) === undefined) {
      problems.push(
        existsSync(include.file)
          ? `${where(include.line)}: ${shown} has no region #${include.region}`
          : `${where(include.line)}: ${shown} does not exist`,
      );
      continue;
    }
    if (!namedByTest(include.file)) {
      const stem = basename(include.file).replace(/\.(ts|json)$/, '');
      problems.push(
        `${where(include.line)}: no *.test.ts beside ${shown} mentions "${stem}", so nothing runs it`,
      );
    }
  }
  return problems;
}

/** Whether a `*.test.ts` in the file's folder names it (`x.examples` for `x.examples.ts`, `x.json` for fixtures). */
function namedByTest(file: string): boolean {
  const dir = dirname(file);
  const stem = extname(file) === '.json' ? basename(file) : basename(file, '.ts');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.test.ts'))
    .some((name) => readFileSync(join(dir, name), 'utf8').includes(stem));
}

function stripFrontMatter(text: string): string {
  return text.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, '');
}

function frontMatterLines(text: string): number {
  const match = /^---\r?\n[\s\S]*?\r?\n---\r?\n/.exec(text);
  return match === null ? 0 : match[0].split('\n').length - 1;
}
