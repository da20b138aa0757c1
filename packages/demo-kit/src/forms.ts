// A form elicitation's `requestedSchema`, read as a list of fields a person fills in, and the checks an answer
// must pass: what the terminal forms of apps/bookshop and the web forms of apps/inbox both render and enforce.
// The schema is untrusted server input: anything outside the spec's primitive subset is read as plain text, never
// thrown on. Answers are checked against the field the person saw (spec: client/elicitation, "Requested Schema").
import type { ElicitRequestFormParams, PrimitiveSchemaDefinition } from '@boomerang/protocol';

/** One option of a choice field: the wire value and what the person sees. */
export interface Choice {
  readonly value: string;
  readonly label: string;
}

/**
 * What a field asks for: `text` (a string, maybe with a `format`), `number`, `integer`, `boolean`, `choice` (one
 * of a list: `enum`, titled `oneOf`, legacy `enumNames`) or `choices` (a multi-select: `items.enum` or titled
 * `items.anyOf`).
 */
export type FieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';

/** The string formats the spec allows in a form. */
export type TextFormat = 'email' | 'uri' | 'date' | 'date-time';

/** One field of a form, in schema order, with everything a renderer or a checker needs. */
export interface FormField {
  /** The property name: the answer's key in `content`. */
  readonly name: string;
  readonly kind: FieldKind;
  /** The `title`, or the name when there is none. */
  readonly label: string;
  readonly description?: string;
  /** Listed in the schema's `required`. */
  readonly required: boolean;
  /** The options of a `choice` or `choices` field, in order. */
  readonly choices?: readonly Choice[];
  /** A `text` field's format, when it is one the spec allows. */
  readonly format?: TextFormat;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  /** The schema's `default`, as given (check it with {@link valueProblem} before trusting it). */
  readonly default?: unknown;
  /** The property's schema, as the server sent it. */
  readonly schema: PrimitiveSchemaDefinition;
}

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
const number = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const FORMATS: ReadonlySet<unknown> = new Set(['email', 'uri', 'date', 'date-time']);

/** The options of a single-select field (`enum`, titled `oneOf`, legacy `enumNames`), or undefined. */
export function choicesOf(field: PrimitiveSchemaDefinition): Choice[] | undefined {
  const f = field as Obj;
  if (f.type !== 'string') return undefined;
  if (Array.isArray(f.oneOf)) {
    return f.oneOf.filter(isObj).map((o) => ({ value: String(o.const), label: String(o.title ?? o.const) }));
  }
  const values = strings(f.enum);
  if (values === undefined) return undefined;
  const names = strings(f.enumNames);
  return values.map((value, i) => ({ value, label: names?.[i] ?? value }));
}

/** The options of a multi-select field (`items.enum` or titled `items.anyOf`), or undefined. */
export function multiChoicesOf(field: PrimitiveSchemaDefinition): Choice[] | undefined {
  const f = field as Obj;
  if (f.type !== 'array' || !isObj(f.items)) return undefined;
  if (Array.isArray(f.items.anyOf)) {
    return f.items.anyOf
      .filter(isObj)
      .map((o) => ({ value: String(o.const), label: String(o.title ?? o.const) }));
  }
  return strings(f.items.enum)?.map((value) => ({ value, label: value }));
}

/** One field read from its schema. */
export function formField(name: string, schema: PrimitiveSchemaDefinition, required: boolean): FormField {
  const f = schema as Obj;
  const field: { -readonly [K in keyof FormField]: FormField[K] } = {
    name,
    kind: 'text',
    label: typeof f.title === 'string' && f.title !== '' ? f.title : name,
    required,
    schema,
  };
  if (typeof f.description === 'string' && f.description !== '') field.description = f.description;
  if (f.default !== undefined) field.default = f.default;
  const multi = multiChoicesOf(schema);
  const single = choicesOf(schema);
  if (multi !== undefined) {
    field.kind = 'choices';
    field.choices = multi;
    const min = number(f.minItems);
    const max = number(f.maxItems);
    if (min !== undefined) field.minItems = min;
    if (max !== undefined) field.maxItems = max;
  } else if (single !== undefined) {
    field.kind = 'choice';
    field.choices = single;
  } else if (f.type === 'boolean') {
    field.kind = 'boolean';
  } else if (f.type === 'number' || f.type === 'integer') {
    field.kind = f.type;
    const min = number(f.minimum);
    const max = number(f.maximum);
    if (min !== undefined) field.minimum = min;
    if (max !== undefined) field.maximum = max;
  } else {
    if (FORMATS.has(f.format)) field.format = f.format as TextFormat;
    const min = number(f.minLength);
    const max = number(f.maxLength);
    if (min !== undefined) field.minLength = min;
    if (max !== undefined) field.maxLength = max;
  }
  return field;
}

/** Every field of a form's `requestedSchema`, in schema order. */
export function formFields(schema: ElicitRequestFormParams['requestedSchema']): FormField[] {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const properties = isObj(schema.properties) ? schema.properties : {};
  return Object.entries(properties).map(([name, property]) =>
    formField(name, isObj(property) ? property : ({ type: 'string' } as never), required.has(name)),
  );
}

/** True for a calendar date written `YYYY-MM-DD` (February 30th is not one). */
function isDate(raw: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) return false;
  const parsed = new Date(`${raw}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === raw;
}

/** True for an RFC 3339 date-time: a calendar date, a time, and `Z` or an offset. */
function isDateTime(raw: string): boolean {
  const match =
    /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|[+-]\d{2}:\d{2})$/.exec(raw);
  if (match === null || !isDate(match[1] as string)) return false;
  return Number(match[2]) < 24 && Number(match[3]) < 60 && Number(match[4] ?? 0) < 60;
}

function textProblem(field: FormField, value: unknown): string | undefined {
  if (typeof value !== 'string') return 'text, please';
  if (field.minLength !== undefined && value.length < field.minLength) {
    return `at least ${field.minLength} characters, please`;
  }
  if (field.maxLength !== undefined && value.length > field.maxLength) {
    return `at most ${field.maxLength} characters, please (got ${value.length})`;
  }
  switch (field.format) {
    case 'email':
      return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value) ? undefined : 'an email address, please';
    case 'uri':
      return URL.canParse(value) ? undefined : 'an absolute URI, please';
    case 'date':
      return isDate(value) ? undefined : 'a date like 2026-07-28, please';
    case 'date-time':
      return isDateTime(value) ? undefined : 'a date and time like 2026-07-28T09:30:00Z, please';
    default:
      return undefined;
  }
}

function numberProblem(field: FormField, value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'a number, please';
  if (field.kind === 'integer' && !Number.isInteger(value)) return 'a whole number, please';
  if (field.minimum !== undefined && value < field.minimum) return `at least ${field.minimum}`;
  if (field.maximum !== undefined && value > field.maximum) return `at most ${field.maximum}`;
  return undefined;
}

function choicesProblem(field: FormField, value: unknown): string | undefined {
  if (!Array.isArray(value)) return 'a list of options, please';
  const options = new Set(field.choices?.map((c) => c.value));
  for (const item of value) {
    if (typeof item !== 'string' || !options.has(item)) return `"${String(item)}" is not one of the options`;
  }
  if (new Set(value).size !== value.length) return 'each option once, please';
  if (field.minItems !== undefined && value.length < field.minItems) return `pick at least ${field.minItems}`;
  if (field.maxItems !== undefined && value.length > field.maxItems) return `pick at most ${field.maxItems}`;
  return undefined;
}

/**
 * What is wrong with `value` as the answer to `field`, in words for the person who typed it, or `undefined` when
 * it fits: the type, a text's length and format, a number's bounds (and wholeness for an integer), membership of
 * the options, a multi-select's count. Whether a missing answer is allowed is {@link contentProblems}'s business.
 */
export function valueProblem(field: FormField, value: unknown): string | undefined {
  switch (field.kind) {
    case 'text':
      return textProblem(field, value);
    case 'number':
    case 'integer':
      return numberProblem(field, value);
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'yes or no, please';
    case 'choice':
      return typeof value === 'string' && field.choices?.some((c) => c.value === value)
        ? undefined
        : `"${String(value)}" is not one of the options`;
    case 'choices':
      return choicesProblem(field, value);
  }
}

/**
 * The problems of an accepted form's `content` against its fields, by field name (empty when it fits): a required
 * field left out (`this field is required`), a value that does not fit its field ({@link valueProblem}), a member
 * the form does not have (`not a field of this form`).
 */
export function contentProblems(
  fields: readonly FormField[],
  content: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const problems: Record<string, string> = {};
  const names = new Set(fields.map((field) => field.name));
  for (const field of fields) {
    if (!Object.hasOwn(content, field.name) || content[field.name] === undefined) {
      if (field.required) problems[field.name] = 'this field is required';
      continue;
    }
    const problem = valueProblem(field, content[field.name]);
    if (problem !== undefined) problems[field.name] = problem;
  }
  for (const name of Object.keys(content)) if (!names.has(name)) problems[name] = 'not a field of this form';
  return problems;
}
