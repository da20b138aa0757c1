// A form's schema → the `requestedSchema` of a form elicitation: the flat, primitive-only JSON Schema subset a client
// can render as a form (spec: ElicitRequestFormParams.requestedSchema, PrimitiveSchemaDefinition), and what
// validates the answer.
import {
  type ElicitRequestFormParams,
  isPlainObject,
  type PrimitiveSchemaDefinition,
  type StandardSchemaV1,
} from '@boomerang/protocol';
import { PrimitiveSchemaDefinitionSchema } from '@boomerang/protocol/schemas';
import { serveSchema } from '../schema.js';

/** A form's requested schema, as published to the client. */
export type RequestedSchema = ElicitRequestFormParams['requestedSchema'];

/** A form, ready to ask: the requested schema published, and what validates an accepted answer. */
export interface Form {
  readonly requestedSchema: RequestedSchema;
  readonly validator: StandardSchemaV1;
  /**
   * The questions built from this form, by message: `[0]` for `elicit`, `[1]` for `elicitResult` (they read
   * answers differently). Filled by questions.ts, so a resolver that asks the same thing each round reuses one.
   */
  readonly questions: readonly [Map<string, unknown>, Map<string, unknown>];
}

const cache = new WeakMap<object, Form>();

const STRING_FORMATS: ReadonlySet<unknown> = new Set(['email', 'uri', 'date', 'date-time']);

/**
 * The form for a schema: a Standard Schema (zod 4, valibot, arktype… converted by its library, as tool schemas
 * are) or a raw JSON Schema object. Its JSON Schema (input side) is trimmed to `{ type: 'object', properties,
 * required? }`, each property to the members its kind allows (zod's `pattern`s, `$schema`,
 * `additionalProperties` and the ±2^53 bounds of `.int()` are dropped from what the client sees; the answer is
 * still validated with the full schema, the raw JSON Schema included). Results are cached per schema object,
 * and the requested schema is deeply frozen.
 *
 * @throws TypeError when `schema` is no schema, has no JSON Schema converter, does not describe an object with
 * `properties`, or has a field outside the elicitation subset (nested objects, unions of types, nullable fields,
 * arrays other than multi-select enums, dates, …): the elicitation subset is what every client can render.
 */
export function formOf(schema: unknown, where: string): Form {
  const cached = typeof schema === 'object' && schema !== null ? cache.get(schema) : undefined;
  if (cached !== undefined) return cached;
  const served = serveSchema(schema, 'input', `${where} schema`, false);
  const json = served.json;
  if (json.type !== 'object' || !isPlainObject(json.properties)) {
    throw new TypeError(`${where}: the schema must be a flat object of primitives and enums`);
  }
  const properties: Record<string, PrimitiveSchemaDefinition> = {};
  for (const [name, property] of Object.entries(json.properties)) {
    Object.defineProperty(properties, name, {
      value: fieldOf(property, `${where}: field '${name}'`),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const required = Array.isArray(json.required)
    ? json.required.filter(
        (name): name is string => typeof name === 'string' && Object.hasOwn(properties, name),
      )
    : [];
  const requestedSchema: RequestedSchema =
    required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
  deepFreeze(requestedSchema);
  const form: Form = Object.freeze({
    requestedSchema,
    validator: served.standard,
    questions: [new Map(), new Map()] as const,
  });
  cache.set(schema as object, form);
  return form;
}

/**
 * Freezes a JSON value at every depth. The cached requested schema is shared by every question built from one
 * zod schema, and form question digests are memoised per requested schema: it must never change.
 */
function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const member of Object.values(value)) deepFreeze(member);
}

/** Copies the members of `from` named in `keys` whose value passes `ok`. */
function pick(from: Record<string, unknown>, keys: readonly string[], ok: (value: unknown) => boolean) {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (ok(from[key])) out[key] = from[key];
  return out;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

/** `[{ const, title? }, …]` from an `anyOf` of string constants (zod unions of literals), else undefined. */
function stringOptions(anyOf: unknown): { const: string; title?: string }[] | undefined {
  if (!Array.isArray(anyOf) || anyOf.length === 0) return undefined;
  const options: { const: string; title?: string }[] = [];
  for (const member of anyOf) {
    if (!isPlainObject(member)) return undefined;
    const values = typeof member.const === 'string' ? [member.const] : member.enum;
    if (!isStringArray(values)) return undefined;
    const [value, ...more] = values;
    if (value === undefined || more.length > 0) return undefined;
    options.push(typeof member.title === 'string' ? { const: value, title: member.title } : { const: value });
  }
  return options;
}

/** An enum field from options: titled (`oneOf`) when every option has a title, plain `enum` otherwise. */
function choice(options: { const: string; title?: string }[]): Record<string, unknown> {
  return options.every((o) => o.title !== undefined)
    ? { oneOf: options }
    : { enum: options.map((o) => o.const) };
}

/** One property trimmed to the elicitation subset, or a `TypeError` naming it. */
function fieldOf(property: unknown, where: string): PrimitiveSchemaDefinition {
  if (!isPlainObject(property)) throw new TypeError(`${where} is not a JSON Schema object`);
  const label = pick(property, ['title', 'description'], isString);
  let field: Record<string, unknown> | undefined;
  const options = stringOptions(property.anyOf);
  if (options !== undefined) {
    field = { type: 'string', ...label, ...choice(options), ...pick(property, ['default'], isString) };
  } else if (property.type === 'string') {
    field = { type: 'string', ...label };
    if (typeof property.const === 'string') field.enum = [property.const];
    else if (isStringArray(property.enum)) field.enum = property.enum;
    else if (property.enum !== undefined) field = undefined;
    if (field !== undefined) {
      Object.assign(
        field,
        pick(property, ['minLength', 'maxLength'], isInt),
        pick(property, ['default'], isString),
      );
      if (STRING_FORMATS.has(property.format)) field.format = property.format;
    }
  } else if (property.type === 'number' || property.type === 'integer') {
    const bound = (v: unknown) => isNumber(v) && Math.abs(v) !== Number.MAX_SAFE_INTEGER;
    field = { type: property.type, ...label, ...pick(property, ['minimum', 'maximum', 'default'], bound) };
  } else if (property.type === 'boolean') {
    field = { type: 'boolean', ...label, ...pick(property, ['default'], (v) => typeof v === 'boolean') };
  } else if (property.type === 'array' && isPlainObject(property.items)) {
    const items = property.items;
    const itemOptions = stringOptions(items.anyOf);
    const itemsField =
      items.type === 'string' && isStringArray(items.enum)
        ? { type: 'string', enum: items.enum }
        : itemOptions?.every((o) => o.title !== undefined)
          ? { anyOf: itemOptions }
          : itemOptions !== undefined
            ? { type: 'string', enum: itemOptions.map((o) => o.const) }
            : undefined;
    if (itemsField !== undefined) {
      field = {
        type: 'array',
        ...label,
        ...pick(property, ['minItems', 'maxItems'], isInt),
        items: itemsField,
      };
      Object.assign(field, pick(property, ['default'], isStringArray));
    }
  }
  if (field === undefined || !PrimitiveSchemaDefinitionSchema.safeParse(field).success) {
    throw new TypeError(
      `${where} must be a string, number, integer, boolean, enum or multi-select enum (the elicitation ` +
        `subset); got JSON Schema ${JSON.stringify(property)}`,
    );
  }
  return field as PrimitiveSchemaDefinition;
}
