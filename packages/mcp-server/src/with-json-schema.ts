// A Standard Schema paired with its JSON Schema: the converter of a schema library that has none of its own.
import {
  argumentError,
  isPlainObject,
  isStandardSchemaV1,
  type StandardJSONSchemaV1,
  type StandardSchemaV1,
} from '@boomerang/protocol';

/** A Standard Schema that also converts itself to JSON Schema (Standard JSON Schema), as `withJsonSchema` makes. */
export type WithJsonSchema<S extends StandardSchemaV1> = StandardSchemaV1<
  StandardSchemaV1.InferInput<S>,
  StandardSchemaV1.InferOutput<S>
> &
  StandardJSONSchemaV1<StandardSchemaV1.InferInput<S>, StandardSchemaV1.InferOutput<S>>;

/**
 * Gives a Standard Schema a JSON Schema, for a schema library without a converter of its own (or to publish
 * something other than what its converter writes): `jsonSchema` is the JSON Schema itself (both sides), or a
 * function `(schema, io)` that converts it, called once per registration and side. Values are still validated
 * by `schema`; the result is a new schema object (the original is untouched) that any registration, `elicit`
 * and `elicitResult` accept.
 *
 * ```ts
 * // toJsonSchema: @valibot/to-json-schema's converter (or any function of your own)
 * mcp.tool('greet', { input: withJsonSchema(v.object({ name: v.string() }), (s) => toJsonSchema(s)) }, …);
 * ```
 *
 * @throws TypeError when `schema` is not a Standard Schema, or `jsonSchema` is neither an object nor a function.
 */
export function withJsonSchema<S extends StandardSchemaV1>(
  schema: S,
  jsonSchema: object | ((schema: S, io: 'input' | 'output') => object),
): WithJsonSchema<S> {
  if (!isStandardSchemaV1(schema)) throw argumentError('schema', 'a Standard Schema', schema);
  if (typeof jsonSchema !== 'function' && !isPlainObject(jsonSchema)) {
    throw argumentError('jsonSchema', 'a JSON Schema object or a converter function', jsonSchema);
  }
  const convert = (io: 'input' | 'output') => () =>
    (typeof jsonSchema === 'function' ? jsonSchema(schema, io) : structuredClone(jsonSchema)) as Record<
      string,
      unknown
    >;
  const standard = schema['~standard'];
  return Object.freeze({
    '~standard': Object.freeze({
      version: 1 as const,
      vendor: standard.vendor,
      validate: (value: unknown, options?: StandardSchemaV1.Options) => standard.validate(value, options),
      jsonSchema: Object.freeze({ input: convert('input'), output: convert('output') }),
      ...(standard.types === undefined ? {} : { types: standard.types }),
    }),
  }) as WithJsonSchema<S>;
}
