// The YAML frontmatter of a `SKILL.md`, read strictly. Real skills use a small part of YAML: a block mapping of
// plain, quoted or block (`|`, `>`) scalars, nested mappings (`metadata:`), lists, one-line `[a, b]` lists and
// comments. That part is read with YAML 1.2 core-schema typing (`true`, `42`, `null`); everything else (anchors,
// aliases, tags, multi-line quotes, flow mappings, `? ` keys, tabs in indentation, duplicate keys) is a
// `FrontmatterError` naming the line, never a value read differently from what a full YAML parser would read.
// Servers publish what this reads; clients compare what it reads with the published entry.

/** The frontmatter is not in the YAML subset a `SKILL.md` may use, or the file has no frontmatter. */
export class FrontmatterError extends Error {
  override readonly name = 'FrontmatterError';
  /** The 1-based line of the `SKILL.md` at fault, when there is one. */
  readonly line: number | undefined;

  constructor(message: string, line?: number) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.line = line;
  }
}

/** A `SKILL.md` split and read: its frontmatter as JSON and the markdown after it. */
export interface SkillMarkdown {
  readonly frontmatter: Record<string, unknown>;
  readonly body: string;
}

/** How deep mappings and lists may nest. */
const MAX_DEPTH = 8;

/**
 * Reads a `SKILL.md`: it must begin with a `---` line (after an optional byte order mark), and the frontmatter
 * ends at the next `---` line. CRLF line ends are read as LF. Throws {@link FrontmatterError}.
 */
export function parseSkillMarkdown(markdown: string): SkillMarkdown {
  let text = markdown.replaceAll('\r\n', '\n');
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  if (!text.startsWith('---\n')) throw new FrontmatterError('SKILL.md must begin with a "---" line', 1);
  const rest = text.slice(4);
  const close = /^---[ \t]*$/m.exec(rest);
  if (close === null) throw new FrontmatterError('the frontmatter has no closing "---" line');
  const body = rest.slice(close.index + close[0].length).replace(/^\n/, '');
  return { frontmatter: parseFrontmatter(rest.slice(0, close.index), 2), body };
}

/** Reads frontmatter YAML (without its `---` lines) into a JSON object; `firstLine` numbers lines in errors. */
export function parseFrontmatter(yaml: string, firstLine = 1): Record<string, unknown> {
  const raws = yaml.split('\n');
  if (raws.at(-1) === '') raws.pop();
  const lines = raws.map((raw, index): Line => {
    const indent = /^ */.exec(raw)?.[0].length ?? 0;
    return { no: firstLine + index, indent, text: raw.slice(indent).replace(/^[ \t]+/, ''), raw };
  });
  return new Reader(lines).document();
}

interface Line {
  readonly no: number;
  /** Leading spaces (a tab never indents). */
  readonly indent: number;
  /** The line without its leading white space. */
  readonly text: string;
  readonly raw: string;
}

const isItem = (text: string): boolean => text === '-' || text.startsWith('- ') || text.startsWith('-\t');
const isSkippable = (line: Line): boolean => line.text === '' || line.text.startsWith('#');

class Reader {
  #at = 0;
  readonly #lines: readonly Line[];

  constructor(lines: readonly Line[]) {
    this.#lines = lines;
  }

  document(): Record<string, unknown> {
    const first = this.#peek();
    if (first === undefined) return {};
    if (first.indent !== 0 || isItem(first.text) || keyOf(first) === undefined) {
      throw new FrontmatterError('the frontmatter must be a mapping of "key: value" lines', first.no);
    }
    const map = this.#mapping(0, 1);
    const extra = this.#peek();
    if (extra !== undefined) throw new FrontmatterError('unexpected indentation', extra.no);
    return map;
  }

  /** The next line with content (blank and comment lines skipped). */
  #peek(): Line | undefined {
    while (this.#at < this.#lines.length && isSkippable(this.#lines[this.#at] as Line)) this.#at++;
    const line = this.#lines[this.#at];
    if (line !== undefined && line.raw[line.indent] === '\t') {
      throw new FrontmatterError('tabs cannot indent YAML', line.no);
    }
    if (line !== undefined && line.indent === 0 && /^(?:---|\.\.\.)(?:[ \t]|$)/.test(line.raw)) {
      throw new FrontmatterError('document markers are not supported in frontmatter', line.no);
    }
    return line;
  }

  #mapping(indent: number, depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH)
      throw new FrontmatterError(`nesting deeper than ${MAX_DEPTH} levels`, this.#peek()?.no);
    const map: Record<string, unknown> = {};
    for (let line = this.#peek(); line !== undefined && line.indent >= indent; line = this.#peek()) {
      if (line.indent > indent) throw new FrontmatterError('unexpected indentation', line.no);
      if (isItem(line.text))
        throw new FrontmatterError('a list item where a "key: value" line was expected', line.no);
      const match = keyOf(line);
      if (match === undefined) throw new FrontmatterError('expected a "key: value" line', line.no);
      if (Object.hasOwn(map, match.key)) throw new FrontmatterError(`duplicate key "${match.key}"`, line.no);
      this.#at++;
      map[match.key] = this.#value(match.rest, line, indent, depth);
    }
    return map;
  }

  #sequence(indent: number, depth: number): unknown[] {
    if (depth > MAX_DEPTH)
      throw new FrontmatterError(`nesting deeper than ${MAX_DEPTH} levels`, this.#peek()?.no);
    const items: unknown[] = [];
    for (
      let line = this.#peek();
      line !== undefined && line.indent === indent && isItem(line.text);
      line = this.#peek()
    ) {
      const rest = line.text.slice(1).replace(/^[ \t]+/, '');
      if (keyOf({ ...line, text: rest }) !== undefined) {
        throw new FrontmatterError('mappings inside list items are not supported', line.no);
      }
      this.#at++;
      items.push(this.#value(rest, line, indent, depth));
    }
    return items;
  }

  /** The value after `key:` (or `-`) on `line`, whose key sits at `indent`. */
  #value(rest: string, line: Line, indent: number, depth: number): unknown {
    if (rest === '' || rest.startsWith('#')) {
      const next = this.#peek();
      if (next === undefined || next.indent <= indent) return null;
      if (isItem(next.text)) return this.#sequence(next.indent, depth + 1);
      if (keyOf(next) !== undefined) return this.#mapping(next.indent, depth + 1);
      throw new FrontmatterError('write a scalar on the line of its key', next.no);
    }
    const first = rest[0] as string;
    if (first === '|' || first === '>') return this.#block(rest, line, indent);
    if (first === '"' || first === "'") {
      const quoted = readQuoted(rest, line.no);
      onlyComment(rest.slice(quoted.end), line.no);
      return quoted.value;
    }
    if (first === '[') return readFlowList(rest, line.no);
    if (first === '{') {
      if (!/^\{[ \t]*\}(?:[ \t]+#.*)?[ \t]*$/.test(rest)) {
        throw new FrontmatterError('flow mappings are not supported; use an indented block', line.no);
      }
      return {};
    }
    if ('&*!'.includes(first))
      throw new FrontmatterError('anchors, aliases and tags are not supported', line.no);
    if ('%@`,]}'.includes(first))
      throw new FrontmatterError(`a value cannot start with "${first}"; quote it`, line.no);
    if (isItem(rest) || /^\?(?:[ \t]|$)/.test(rest)) {
      throw new FrontmatterError('a nested collection must start on its own line', line.no);
    }
    return this.#plain(rest, line, indent);
  }

  /** A plain scalar, continued on more-indented lines (folded: a line break is a space, a blank line a `\n`). */
  #plain(first: string, line: Line, indent: number): unknown {
    let value = plainPart(first, line.no);
    let commented = /[ \t]#/.test(first);
    let blanks = 0;
    let continued = false;
    for (let next = this.#lines[this.#at]; next !== undefined; next = this.#lines[this.#at]) {
      if (next.text === '') {
        blanks++;
        this.#at++;
        continue;
      }
      if (next.indent <= indent || next.text.startsWith('#')) break;
      if (next.raw[next.indent] === '\t') throw new FrontmatterError('tabs cannot indent YAML', next.no);
      if (commented)
        throw new FrontmatterError('a comment cannot end a value that continues; quote it', next.no);
      value += (blanks > 0 ? '\n'.repeat(blanks) : ' ') + plainPart(next.text, next.no);
      commented = /[ \t]#/.test(next.text);
      blanks = 0;
      continued = true;
      this.#at++;
    }
    return continued ? value : typed(value, line.no);
  }

  /** A block scalar (`|` literal or `>` folded, chomping `-`/`+`), its content more indented than its key. */
  #block(header: string, line: Line, indent: number): string {
    const match = /^([|>])([+-]?)[ \t]*(?:#.*)?$/.exec(header);
    if (match === null) {
      throw new FrontmatterError('block scalar headers take only "|" or ">" and "-" or "+"', line.no);
    }
    const contents: string[] = [];
    let width = -1;
    let leading = 0;
    for (let next = this.#lines[this.#at]; next !== undefined; next = this.#lines[this.#at]) {
      const blank = next.indent === next.raw.length;
      if (width === -1 && !blank && next.indent > indent) {
        width = next.indent;
        if (leading > width)
          throw new FrontmatterError('a leading blank line is indented past the text', next.no);
      }
      if (width !== -1 && next.indent >= width) contents.push(next.raw.slice(width));
      else if (blank) {
        if (width === -1) leading = Math.max(leading, next.indent);
        contents.push('');
      } else break;
      this.#at++;
    }
    return foldBlock(contents, match[1] === '>', match[2] as string);
  }
}

/** The key and what follows `key:` on a mapping line, or `undefined` when the line is not `key: value`. */
function keyOf(line: Line): { key: string; rest: string } | undefined {
  const { text, no } = line;
  const first = text[0];
  if (first === undefined) return undefined;
  if (first === '"' || first === "'") {
    const quoted = readQuoted(text, no);
    const after = text.slice(quoted.end);
    if (!/^:(?:[ \t]|$)/.test(after)) return undefined;
    return { key: checkKey(quoted.value, no), rest: after.slice(1).replace(/^[ \t]+/, '') };
  }
  if ('[]{}&*!|>%@`#,?'.includes(first) || isItem(text)) return undefined;
  const colon = /:(?:[ \t]|$)/.exec(text);
  if (colon === null) return undefined;
  const raw = text.slice(0, colon.index).replace(/[ \t]+$/, '');
  if (raw === '' || /[ \t]#/.test(raw)) return undefined;
  if (typeof typed(raw, no) !== 'string')
    throw new FrontmatterError(`the key "${raw}" must be a string; quote it`, no);
  return { key: checkKey(raw, no), rest: text.slice(colon.index + 1).replace(/^[ \t]+/, '') };
}

function checkKey(key: string, no: number): string {
  if (key === '__proto__') throw new FrontmatterError('the key "__proto__" is not allowed', no);
  return key;
}

/** One line's part of a plain scalar: its comment cut, and no `: ` inside (that would be a mapping). */
function plainPart(text: string, no: number): string {
  const comment = /[ \t]#/.exec(text);
  const value = (comment === null ? text : text.slice(0, comment.index)).replace(/[ \t]+$/, '');
  if (/:(?:[ \t]|$)/.test(value)) throw new FrontmatterError('a plain value cannot hold ": "; quote it', no);
  return value;
}

function onlyComment(after: string, no: number): void {
  if (!/^(?:[ \t]+#.*)?[ \t]*$/.test(after))
    throw new FrontmatterError('unexpected text after the value', no);
}

const INTEGER = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

/** YAML 1.2 core-schema typing of a one-line plain scalar. */
function typed(text: string, no: number): unknown {
  if (text === '' || /^(?:~|null|Null|NULL)$/.test(text)) return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  let number: number | undefined;
  if (INTEGER.test(text)) number = Number(text);
  else if (/^0o[0-7]+$/.test(text)) number = Number.parseInt(text.slice(2), 8);
  else if (/^0x[0-9a-fA-F]+$/.test(text)) number = Number.parseInt(text.slice(2), 16);
  else if (FLOAT.test(text)) number = Number(text);
  else if (/^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/.test(text)) number = Number.NaN;
  if (number === undefined) return text;
  const exact = !INTEGER.test(text) || Number.isSafeInteger(number);
  if (!Number.isFinite(number) || !exact)
    throw new FrontmatterError(`"${text}" is no exact JSON number; quote it`, no);
  return number;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};
const HEX_WIDTH: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };
const UNCLOSED = 'a quoted value must end on its own line';

/** A `"…"` or `'…'` scalar at `start` of `text`, and the index after its closing quote. */
function readQuoted(text: string, no: number, start = 0): { value: string; end: number } {
  const quote = text[start];
  let value = '';
  for (let at = start + 1; at < text.length; ) {
    const char = text[at] as string;
    if (char === quote) {
      if (quote === "'" && text[at + 1] === "'") {
        value += "'";
        at += 2;
        continue;
      }
      return { value, end: at + 1 };
    }
    if (quote === '"' && char === '\\') {
      const code = text[at + 1] ?? '';
      const width = HEX_WIDTH[code];
      const simple = ESCAPES[code];
      if (simple !== undefined) {
        value += simple;
        at += 2;
        continue;
      }
      const hex = width === undefined ? '' : text.slice(at + 2, at + 2 + width);
      if (
        width === undefined ||
        !new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex) ||
        Number.parseInt(hex, 16) > 0x10ffff
      ) {
        throw new FrontmatterError(`unknown escape "\\${code}${hex}"`, no);
      }
      value += String.fromCodePoint(Number.parseInt(hex, 16));
      at += 2 + width;
      continue;
    }
    value += char;
    at++;
  }
  throw new FrontmatterError(UNCLOSED, no);
}

const FLOW_ITEM_END = /[,\]]|[ \t]#/g;

/** A one-line `[a, "b", 3]` list of scalars. */
function readFlowList(text: string, no: number): unknown[] {
  const items: unknown[] = [];
  let at = skipBlank(text, 1);
  while (text[at] !== ']') {
    const char = text[at];
    if (char === undefined) throw new FrontmatterError('a "[" list must close on its own line', no);
    if (char === '"' || char === "'") {
      const quoted = readQuoted(text, no, at);
      items.push(quoted.value);
      at = skipBlank(text, quoted.end);
    } else {
      if ('[{&*!|>%@`#,:?-'.includes(char) && !(char === '-' && /[0-9.]/.test(text[at + 1] ?? ''))) {
        throw new FrontmatterError(`"${char}" cannot start a list item; quote it`, no);
      }
      // Scanned in place (no slice per item), so a long one-line list costs linear time.
      FLOW_ITEM_END.lastIndex = at;
      const end = FLOW_ITEM_END.exec(text)?.index ?? text.length;
      const raw = text.slice(at, end).replace(/[ \t]+$/, '');
      if (/:(?:[ \t]|$)/.test(raw))
        throw new FrontmatterError('mappings inside "[" lists are not supported', no);
      items.push(typed(raw, no));
      at = skipBlank(text, at + raw.length);
    }
    if (text[at] === ',') at = skipBlank(text, at + 1);
    else if (text[at] !== ']') throw new FrontmatterError('expected "," or "]" in a "[" list', no);
  }
  onlyComment(text.slice(at + 1), no);
  return items;
}

function skipBlank(text: string, at: number): number {
  let index = at;
  while (text[index] === ' ' || text[index] === '\t') index++;
  return index;
}

/** Joins block scalar lines as YAML does: literal keeps line breaks, folded turns single ones into spaces. */
function foldBlock(contents: readonly string[], folded: boolean, chomping: string): string {
  let result = '';
  let empty = 0;
  let started = false;
  let moreIndented = false;
  for (const content of contents) {
    if (content === '') {
      empty++;
      continue;
    }
    const indented = content.startsWith(' ') || content.startsWith('\t');
    if (!folded || indented) {
      result += '\n'.repeat(started ? empty + 1 : empty);
      moreIndented = indented;
    } else if (moreIndented) {
      result += '\n'.repeat(empty + 1);
      moreIndented = false;
    } else if (empty === 0) {
      if (started) result += ' ';
    } else result += '\n'.repeat(empty);
    result += content;
    started = true;
    empty = 0;
  }
  if (chomping === '+') result += '\n'.repeat(started ? empty + 1 : empty);
  else if (chomping === '' && started) result += '\n';
  return result;
}
