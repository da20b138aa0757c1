// VitePress code includes (`<<< @/path/file.ts#region{lang}`), read the way VitePress reads them, so the checks
// and llms-full.txt see exactly the code a page shows.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';

/** One `<<<` line of a page. */
export interface Include {
  /** 1-based line of the page. */
  readonly line: number;
  /** The path as written (`@/../src/examples/x.examples.ts`). */
  readonly path: string;
  /** The absolute file. */
  readonly file: string;
  /** `#name`, without the `#`. */
  readonly region: string | undefined;
  /** The code language: `{ts}` when given, else the file's extension. */
  readonly lang: string;
}

// `<<< path#region {lines lang} [title]`, VitePress 1.x's snippet syntax.
const includeRe = /^(\s*)<<<\s+(\S+?)(?:#([\w-]+))?(?:\s*\{(?:[\d,-]+)?\s*(\S+)?\})?(?:\s*\[[^\]]*\])?\s*$/;

/** Every include of a page, with `@/` resolved against `siteDir` and other paths against the page's folder. */
export function findIncludes(markdown: string, pageFile: string, siteDir: string): Include[] {
  const includes: Include[] = [];
  markdown.split('\n').forEach((text, index) => {
    const match = includeRe.exec(text);
    if (match === null) return;
    const path = match[2] as string;
    const file = path.startsWith('@/') ? join(siteDir, path.slice(2)) : resolve(dirname(pageFile), path);
    includes.push({
      line: index + 1,
      path,
      file,
      region: match[3],
      lang: match[4] ?? extname(file).slice(1),
    });
  });
  return includes;
}

/** Whether a line is a region marker (`// #region x`, `// #endregion`, `<!-- #region -->`, `# region`…). */
function isMarker(line: string): boolean {
  return /^\s*(?:\/\/|#|<!--|\/\*)\s*#?(?:end)?region\b/.test(line);
}

/**
 * The code an include shows: the whole file, or the lines between `#region name` and its `#endregion`, without
 * any region marker lines and with the common indentation removed (as VitePress does). `undefined` when the
 * file or the region does not exist.
 */
export function includedCode(include: Pick<Include, 'file' | 'region'>): string | undefined {
  if (!existsSync(include.file)) return undefined;
  const lines = readFileSync(include.file, 'utf8').split(/\r?\n/);
  let body = lines;
  if (include.region !== undefined) {
    const name = include.region.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const start = lines.findIndex((line) => new RegExp(`#region\\s+${name}\\b`).test(line) && isMarker(line));
    if (start < 0) return undefined;
    const end = lines.findIndex(
      (line, i) => i > start && new RegExp(`#endregion(\\s+${name}\\b|\\s*$)`).test(line) && isMarker(line),
    );
    if (end < 0) return undefined;
    body = lines.slice(start + 1, end);
  }
  const code = body.filter((line) => !isMarker(line));
  while (code.length > 0 && code[code.length - 1]?.trim() === '') code.pop();
  while (code.length > 0 && code[0]?.trim() === '') code.shift();
  const indent = Math.min(
    ...code.filter((line) => line.trim() !== '').map((line) => /^\s*/.exec(line)?.[0].length ?? 0),
  );
  return code.map((line) => line.slice(Number.isFinite(indent) ? indent : 0)).join('\n');
}
