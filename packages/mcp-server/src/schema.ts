// What a registration's schema becomes: something that validates values (the schema itself when it is a Standard
// Schema; a compiled JSON Schema otherwise) and the JSON Schema published for it, each from the schema library's
// own converter. Tool inputs and outputs, prompt arguments, custom method params and elicitation forms all go
// through here.
import {
  describeType,
  ErrorCode,
  isPlainObject,
  isStandardSchemaV1,
  McpError,
  type StandardSchemaV1,
} from '@boomerang/protocol';
import { fromJsonSchema } from '@boomerang/protocol/json-schema';
import type { $ZodType } from 'zod/v4/core';
import { loadToJSONSchema } from '#zod-json-schema';

/** A JSON Schema object, as published in `inputSchema` / `outputSchema`. */
export type JsonSchema = { type: 'object'; [key: string]: unknown };

/** A schema ready to serve: what validates values, and the JSON Schema published for them. */
export interface ServedSchema {
  /** Validates a value; synchronous when the schema is (zod without async refinements, valibot, arktype, JSON Schema). */
  readonly standard: StandardSchemaV1;
  /** The published JSON Schema (2020-12 unless a raw schema's `$schema` says otherwise). */
  readonly json: Record<string, unknown>;
  /** The names of its `properties` (for an object schema: the arguments). */
  readonly keys: readonly string[];
}

/** `io` picks the side of a schema with transforms: what a client sends (`input`) or what a tool returns (`output`). */
export type SchemaSide = 'input' | 'output';

/**
 * The input of a registration that declares none: any object, read as `{}` (its members dropped, as zod's
 * `z.object({})` does), published as an object without properties.
 */
export const EMPTY_INPUT: ServedSchema = Object.freeze({
  standard: Object.freeze({
    '~standard': Object.freeze({
      version: 1 as const,
      vendor: 'boomerang',
      validate: (value: unknown): StandardSchemaV1.Result<Record<string, never>> =>
        isPlainObject(value)
          ? { value: {} }
          : {
              issues: [
                { message: `Invalid input: expected object, received ${describeType(value)}`, path: [] },
              ],
            },
    }),
  }),
  json: Object.freeze({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: Object.freeze({}),
  }),
  keys: Object.freeze([]),
});

/**
 * A registration's schema, ready to serve. `schema` is a Standard Schema whose library converts it to JSON Schema
 * (zod 4 or zod 3.25's `zod/v4` through `toJSONSchema`; any schema implementing Standard JSON Schema, such as
 * arktype or valibot wrapped by `toStandardJsonSchema` of `@valibot/to-json-schema`; arktype's
 * `toJsonSchema()`), or a raw JSON Schema object (validated by `fromJsonSchema` of
 * `@boomerang/protocol/json-schema`, published as written). With `object`, the JSON Schema must describe an
 * object (`type: "object"`). `where` names the member in errors (`tool 'x': "input"`).
 *
 * @throws TypeError naming `where`: not a schema, a zod 3 schema, a library with no converter, a schema its
 * converter cannot represent (dates, functions, …), an unusable JSON Schema, or a non-object where one is needed.
 */
export function serveSchema(schema: unknown, io: SchemaSide, where: string, object = true): ServedSchema {
  let standard: StandardSchemaV1;
  let json: Record<string, unknown>;
  if (isStandardSchemaV1(schema)) {
    standard = schema;
    json = jsonSchemaOf(schema, io, where);
  } else if (isPlainObject(schema)) {
    try {
      const compiled = fromJsonSchema(schema);
      standard = compiled;
      json = compiled.schema;
    } catch (error) {
      throw new TypeError(`${where} is not a usable JSON Schema: ${messageOf(error)}`);
    }
  } else {
    throw new TypeError(
      `${where} expected a Standard Schema (zod 4, valibot, arktype…) or a JSON Schema object, got ${describeType(schema)}`,
    );
  }
  if (object && json.type !== 'object') {
    const got = json.type === undefined ? 'no "type"' : `type ${JSON.stringify(json.type)}`;
    throw new TypeError(`${where} must describe an object (JSON Schema type "object"), got ${got}`);
  }
  const properties = isPlainObject(json.properties) ? Object.keys(json.properties) : [];
  return { standard, json, keys: properties };
}

/**
 * The JSON Schema of a Standard Schema, from its library's own converter (see {@link serveSchema}).
 *
 * @throws TypeError naming `where` for a zod 3 schema, a library without a converter, or a failed conversion.
 */
export function jsonSchemaOf(
  schema: StandardSchemaV1,
  io: SchemaSide,
  where: string,
): Record<string, unknown> {
  const { vendor } = schema['~standard'];
  const convert = converterOf(schema, io);
  if (convert === undefined) {
    if (vendor === 'zod') {
      throw new TypeError(
        `${where} is a zod 3 schema; zod 3 schemas are not supported: import from 'zod/v4' or upgrade to zod 4`,
      );
    }
    const valibot =
      vendor === 'valibot' ? ' (for valibot: toStandardJsonSchema(schema) from @valibot/to-json-schema)' : '';
    throw new TypeError(
      `${where} is a ${vendor} schema, and ${vendor} gives it no JSON Schema converter: wrap it with ` +
        `withJsonSchema(schema, toJsonSchema)${valibot}, or pass a raw JSON Schema`,
    );
  }
  let json: unknown;
  try {
    json = convert();
  } catch (error) {
    throw new TypeError(`${where}: the ${io} schema cannot be published as JSON Schema: ${messageOf(error)}`);
  }
  if (!isPlainObject(json)) {
    throw new TypeError(
      `${where}: the ${vendor} converter returned ${describeType(json)}, not a JSON Schema object`,
    );
  }
  return json;
}

/** How `schema` converts to JSON Schema, if its library says: zod 4, Standard JSON Schema, arktype. */
function converterOf(schema: StandardSchemaV1, io: SchemaSide): (() => unknown) | undefined {
  const props = schema['~standard'] as StandardSchemaV1.Props & {
    jsonSchema?: { input?: unknown; output?: unknown };
  };
  // zod 4 (and zod 3.25's `zod/v4`): the `_zod` internals. zod 3 classic schemas have `_def` and no `_zod`.
  if (props.vendor === 'zod' && '_zod' in schema && typeof schema._zod === 'object') {
    return () => zodToJSONSchema()(schema as unknown as $ZodType, { io, target: 'draft-2020-12' });
  }
  const side = props.jsonSchema?.[io];
  if (typeof side === 'function') return () => side.call(props.jsonSchema, { target: 'draft-2020-12' });
  const own = 'toJsonSchema' in schema ? schema.toJsonSchema : undefined;
  if (props.vendor === 'arktype' && typeof own === 'function') return () => own.call(schema);
  return undefined;
}

let zodConverter: ReturnType<typeof loadToJSONSchema> | undefined;

/** zod's converter, loaded when the first zod schema is published (on Node: never for a server without one). */
function zodToJSONSchema(): ReturnType<typeof loadToJSONSchema> {
  zodConverter ??= loadToJSONSchema();
  return zodConverter;
}

/** The message of anything thrown. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `-32602` with `message`. */
export function invalidParams(message: string, data?: unknown): McpError {
  return new McpError(ErrorCode.InvalidParams, message, data);
}

/** Checks a registration name: a non-empty string. */
export function checkName(kind: string, name: unknown): asserts name is string {
  if (typeof name !== 'string' || name === '') {
    throw new TypeError(`${kind} name expected a non-empty string, got ${JSON.stringify(name)}`);
  }
}

/**
 * A registered handler as the server calls it: a function, called with what the server validated for it (its
 * declared parameter types are the registration's business, checked where it is registered).
 */
export type CheckedHandler = (...args: unknown[]) => unknown;

/** Checks a handler: a function. */
export function checkHandler(owner: string, handler: unknown): asserts handler is CheckedHandler {
  if (typeof handler !== 'function')
    throw new TypeError(`${owner}: handler expected a function, got ${typeof handler}`);
}

/** Picks the metadata members of a config or patch (unknown members throw `TypeError`). */
export function pickMeta<K extends string>(
  owner: string,
  value: unknown,
  metaKeys: readonly K[],
  allowed: ReadonlySet<string>,
): Partial<Record<K, unknown>> {
  checkConfig(owner, value);
  const keys: readonly string[] = metaKeys;
  const isMetaKey = (key: string): key is K => keys.includes(key);
  const out: Partial<Record<K, unknown>> = {};
  for (const [key, member] of Object.entries(value)) {
    if (!allowed.has(key)) throw new TypeError(`${owner}: unknown config member "${key}"`);
    if (member !== undefined && isMetaKey(key)) out[key] = member;
  }
  return out;
}

/** Checks a config or patch: an object (not an array), whose members are then read by name. */
export function checkConfig(
  owner: string,
  value: unknown,
): asserts value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`${owner}: config expected an object`);
  }
}
