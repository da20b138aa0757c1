// HTML by tagged template: every interpolated value is escaped unless it is already `Html` (made by `html` or
// `raw`), so text from servers, stores and people can never become markup. Arrays are joined.

/** Markup that is safe to insert as is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `value` as text that is safe in element content and in quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/** Marks trusted markup (only for strings this app wrote itself). */
export function raw(text: string): Html {
  return new Html(text);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(value);
}

/** The template with its values escaped (`undefined`, `null` and `false` render as nothing). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] as string;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] as string);
  return new Html(out);
}

/** A boolean attribute: ` name` when `on`, else nothing. */
export function flag(name: string, on: boolean | undefined): Html {
  return raw(on === true ? ` ${name}` : '');
}

/** An optional attribute: ` name="value"` (escaped) when `value` is defined, else nothing. */
export function attr(name: string, value: unknown): Html {
  return value === undefined || value === null ? raw('') : raw(` ${name}="${escapeHtml(value)}"`);
}
