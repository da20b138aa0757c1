/**
 * RFC 6570 URI templates, as far as a resource server needs them: parse a template (levels 1–4: every operator,
 * `*` explode and `:n` prefix modifiers), match a concrete URI against it (the inverse of expansion, which the
 * RFC leaves undefined, so the rules below are ours), and expand it (for tests and for listing).
 *
 * Matching rules (per expression, by operator):
 * - `{x}` and `{+x}` are required: their span is non-empty and holds exactly one value per variable (an exploded
 *   variable takes the remaining values, at least one). `{x}` stops at `/`, `?` and `#`; `{+x}` stops at `?` and
 *   `#` (it may span path segments).
 * - `{#x}`, `{.x}`, `{/x}`, `{;x}`, `{?x}` and `{&x}` are optional: the whole expression may be absent. `{/x}`
 *   is one path segment per variable unless exploded. `{?x,y}` and `{&x}` match the query's `name=value` pairs
 *   in any order (across all query expressions) and ignore pairs for names the template does not declare.
 * - Values are percent-decoded (a malformed escape is no match). Exploded values are arrays of strings.
 */
import { argumentError } from '@boomerang/protocol';

/** One variable of an expression. */
export interface TemplateVariable {
  readonly name: string;
  readonly explode: boolean;
  /** The `:n` prefix length, if any. */
  readonly prefix: number | undefined;
}

type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

interface Expression {
  readonly operator: Operator;
  readonly variables: readonly TemplateVariable[];
}

/** A parsed template: literal text and expressions, alternating. */
export interface UriTemplate {
  readonly template: string;
  /** Every variable name, in order of appearance (each once). */
  readonly variableNames: readonly string[];
  /** The variables of `uri` when it matches, else `undefined`. */
  match(uri: string): Record<string, string | string[]> | undefined;
  /** Expands the template with `values` (RFC 6570 §3). */
  expand(values: Readonly<Record<string, string | readonly string[] | undefined>>): string;
}

const OPERATORS: ReadonlySet<string> = new Set(['+', '#', '.', '/', ';', '?', '&']);
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

/** Per operator: what starts the expansion, what separates values, whether values are named, allowed chars. */
const SPEC: Record<
  Operator,
  { first: string; sep: string; named: boolean; ifEmpty: string; reserved: boolean }
> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', reserved: false },
};

/** The regular-expression fragment for the span of one expression (one capturing group). */
function spanPattern(expression: Expression): string {
  const { operator, variables } = expression;
  const exploded = variables.some((v) => v.explode);
  switch (operator) {
    case '':
      return '([^/?#]+)';
    case '+':
      return '([^?#]+)';
    case '#':
      return '(#.*)?';
    case '/': {
      if (exploded) return '((?:/[^/?#]*)+)?';
      return `((?:/[^/?#]*){1,${variables.length}})?`;
    }
    case '.':
      return '(\\.[^/?#]*)?';
    case ';':
      return '(;[^/?#]*)?';
    case '?':
      return '(\\?[^#]*)?';
    case '&':
      return '(&[^#]*)?';
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Assigns the values of one matched span to its variables; `false` when the span does not fit. */
function assign(
  expression: Expression,
  span: string,
  out: Record<string, string | string[]>,
  queryVariables: ReadonlyMap<string, TemplateVariable>,
): boolean {
  const { operator, variables } = expression;
  const spec = SPEC[operator];
  const body = span.slice(spec.first.length);
  const only = variables.length === 1 ? variables[0] : undefined;
  if (!spec.named && only !== undefined && !only.explode) {
    // One plain variable takes the whole span: "a,b" in `{id}` is the value "a,b".
    const value = decode(body);
    if (value === undefined) return false;
    out[only.name] = value;
    return true;
  }
  const items = body.split(spec.sep).map(decode);
  if (items.some((item) => item === undefined)) return false;
  const values = items as string[];
  if (spec.named) {
    // `{?a}{&b}`: the `?` span holds every pair of the query, so query pairs are read by name across both.
    const declared =
      operator === '?' || operator === '&' ? queryVariables : new Map(variables.map((v) => [v.name, v]));
    for (const item of values) {
      if (item === '' && operator !== ';') continue;
      const eq = item.indexOf('=');
      const name = eq === -1 ? item : item.slice(0, eq);
      const value = eq === -1 ? '' : item.slice(eq + 1);
      const variable = declared.get(name);
      if (variable === undefined) continue;
      if (variable.explode) {
        const list = out[name];
        out[name] = Array.isArray(list) ? [...list, value] : [value];
      } else if (out[name] === undefined) out[name] = value;
    }
    return true;
  }
  const required = operator === '' || operator === '+';
  let index = 0;
  for (const variable of variables) {
    if (variable.explode) {
      const rest = values.slice(index);
      if (required && rest.length === 0) return false;
      if (rest.length > 0) out[variable.name] = rest;
      index = values.length;
      continue;
    }
    const value = values[index++];
    if (value === undefined) return !required;
    out[variable.name] = value;
  }
  return index >= values.length;
}

/**
 * Parses an RFC 6570 template. Throws `TypeError` for an unclosed or empty expression, an invalid variable
 * name, or a variable named twice.
 */
export function parseUriTemplate(template: string): UriTemplate {
  if (typeof template !== 'string') throw argumentError('uriTemplate', 'string', template);
  const parts: (string | Expression)[] = [];
  const names: string[] = [];
  let rest = template;
  while (rest.length > 0) {
    const open = rest.indexOf('{');
    if (open === -1) {
      if (rest.includes('}')) throw new TypeError(`"uriTemplate" has an unmatched "}": ${template}`);
      parts.push(rest);
      break;
    }
    const close = rest.indexOf('}', open);
    if (close === -1) throw new TypeError(`"uriTemplate" has an unclosed expression: ${template}`);
    if (open > 0) parts.push(rest.slice(0, open));
    parts.push(parseExpression(rest.slice(open + 1, close), template, names));
    rest = rest.slice(close + 1);
  }
  const pattern = new RegExp(
    `^${parts.map((p) => (typeof p === 'string' ? escapeRegExp(p) : spanPattern(p))).join('')}$`,
  );
  const expressions = parts.filter((p): p is Expression => typeof p !== 'string');
  const queryVariables = new Map(
    expressions
      .filter((e) => e.operator === '?' || e.operator === '&')
      .flatMap((e) => e.variables.map((v) => [v.name, v] as const)),
  );
  return {
    template,
    variableNames: names,
    match(uri) {
      if (typeof uri !== 'string') return undefined;
      const found = pattern.exec(uri);
      if (found === null) return undefined;
      const out: Record<string, string | string[]> = {};
      for (const [i, expression] of expressions.entries()) {
        const span = found[i + 1];
        if (span === undefined || span === '') continue;
        if (!assign(expression, span, out, queryVariables)) return undefined;
      }
      return out;
    },
    expand(values) {
      return parts.map((p) => (typeof p === 'string' ? p : expandExpression(p, values))).join('');
    },
  };
}

function parseExpression(text: string, template: string, names: string[]): Expression {
  const operator = (OPERATORS.has(text[0] ?? '') ? text[0] : '') as Operator;
  const list = text.slice(operator.length);
  if (list === '') throw new TypeError(`"uriTemplate" has an empty expression: ${template}`);
  const variables = list.split(',').map((spec): TemplateVariable => {
    const explode = spec.endsWith('*');
    const [name = '', length] = (explode ? spec.slice(0, -1) : spec).split(':');
    if (!VARNAME.test(name))
      throw new TypeError(`"uriTemplate" has an invalid variable "${spec}": ${template}`);
    const prefix = length === undefined ? undefined : Number(length);
    if (prefix !== undefined && !(Number.isInteger(prefix) && prefix > 0 && prefix < 10_000)) {
      throw new TypeError(`"uriTemplate" has an invalid prefix "${spec}": ${template}`);
    }
    if (names.includes(name)) throw new TypeError(`"uriTemplate" names "${name}" twice: ${template}`);
    names.push(name);
    return { name, explode, prefix };
  });
  return { operator, variables };
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

function encode(value: string, reserved: boolean): string {
  let out = '';
  for (const char of value) {
    if (UNRESERVED.test(char) || (reserved && RESERVED.test(char))) out += char;
    else
      out += encodeURIComponent(char).replace(
        /[!'()*]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      );
  }
  return out;
}

function expandExpression(
  expression: Expression,
  values: Readonly<Record<string, string | readonly string[] | undefined>>,
): string {
  const spec = SPEC[expression.operator];
  const pieces: string[] = [];
  for (const variable of expression.variables) {
    const value = values[variable.name];
    if (value === undefined) continue;
    const named = (text: string) =>
      spec.named ? `${variable.name}${text === '' ? spec.ifEmpty : `=${text}`}` : text;
    if (typeof value === 'string') {
      const cut = variable.prefix === undefined ? value : [...value].slice(0, variable.prefix).join('');
      pieces.push(named(encode(cut, spec.reserved)));
    } else if (value.length > 0) {
      const items = value.map((item) => encode(item, spec.reserved));
      pieces.push(variable.explode ? items.map(named).join(spec.sep) : named(items.join(',')));
    }
  }
  return pieces.length === 0 ? '' : spec.first + pieces.join(spec.sep);
}

// --- types: the variables of a template literal, for typed handlers

type Trim<S extends string> = S extends `${infer N}*` ? N : S extends `${infer N}:${string}` ? N : S;
type Required_<Op extends string> = Op extends '' | '+' ? true : false;
type VarEntry<S extends string, Op extends string> = S extends `${string}*`
  ? Required_<Op> extends true
    ? { [K in Trim<S>]: string[] }
    : { [K in Trim<S>]?: string[] }
  : Required_<Op> extends true
    ? { [K in Trim<S>]: string }
    : { [K in Trim<S>]?: string };
type ListVars<L extends string, Op extends string> = L extends `${infer V},${infer R}`
  ? VarEntry<V, Op> & ListVars<R, Op>
  : VarEntry<L, Op>;
type ExprVars<E extends string> =
  E extends `${infer Op extends '+' | '#' | '.' | '/' | ';' | '?' | '&'}${infer L}`
    ? ListVars<L, Op>
    : ListVars<E, ''>;
type AllVars<T extends string> = T extends `${string}{${infer E}}${infer Rest}`
  ? ExprVars<E> & AllVars<Rest>
  : unknown;

/**
 * The variables a handler receives for the URI template `T`: `{id}` and `{+path}` are `string`; the optional
 * operators (`{?q}`, `{/seg}`, `{.ext}`, `{;p}`, `{&x}`, `{#f}`) are optional `string`s; `*` makes a `string[]`.
 * For a template that is not a literal type, any string-keyed record.
 */
export type TemplateVariables<T extends string> = string extends T
  ? Record<string, string | string[] | undefined>
  : { [K in keyof AllVars<T>]: AllVars<T>[K] };
