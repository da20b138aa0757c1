// The compile-time side of schemas: what a registration accepts as a schema (any Standard Schema, or a raw JSON
// Schema object) and the types it gives arguments, results and form answers. A raw JSON Schema written inline (or
// `as const`) is typed from its keywords: `type`, `properties`, `required`, `enum`, `const`, `items`, `anyOf`,
// `oneOf`; anything it cannot read is `unknown`.
import type { StandardSchemaV1 } from '@boomerang/protocol';

/** A raw JSON Schema object (2020-12 unless `$schema` says otherwise), as a registration accepts it. */
export interface JsonSchemaObject {
  readonly [keyword: string]: unknown;
}

/** A raw JSON Schema of an object: `{ type: 'object', properties?, required?, … }`. */
export interface JsonObjectSchema extends JsonSchemaObject {
  readonly type: 'object';
}

/**
 * Any schema of an object, for tool inputs, prompt inputs and method params: a Standard Schema whose output is
 * an object (zod 4 or zod 3.25's `zod/v4`, valibot, arktype…), or a raw JSON Schema object.
 */
export type AnyObjectSchema = StandardSchemaV1<unknown, object> | JsonObjectSchema;

/** Any schema, for tool outputs (`structuredContent` may be any JSON value): a Standard Schema or raw JSON Schema. */
export type AnySchema = StandardSchemaV1 | JsonSchemaObject;

/**
 * A form's schema (`elicit`, `elicitResult`): a Standard Schema of an object, or a raw JSON Schema object. Its
 * fields must stay within the elicitation subset (checked when the question is built).
 */
export type FormSchema = StandardSchemaV1<unknown, Record<string, unknown>> | JsonObjectSchema;

/** What a schema accepts: a Standard Schema's input type, the value a raw JSON Schema describes. */
export type InputOf<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferInput<S> : JsonSchemaValue<S>;

/** What a schema produces: a Standard Schema's output type, the value a raw JSON Schema describes. */
export type OutputOf<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : JsonSchemaValue<S>;

/** The answers of a form: the schema's output, as `elicit` hands them to the resolver's consumers. */
export type FormValues<S> =
  OutputOf<S> extends Record<string, unknown> ? OutputOf<S> : Record<string, unknown>;

/** The type a JSON Schema `type` name stands for (`S` for `array` items and `object` properties). */
type FromTypeName<T, S> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { readonly items: infer I }
            ? JsonSchemaValue<I>[]
            : unknown[]
          : T extends 'object'
            ? JsonObjectValue<S>
            : unknown;

/** The members a JSON Schema marks `required`. */
type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

/** Flattens an intersection for readable hovers. */
type Simplify<T> = { [K in keyof T]: T[K] };

/** An object schema's value: its `properties`, required ones as required members (no `properties`: any object). */
type JsonObjectValue<S> = S extends { readonly properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P & RequiredOf<S>]: JsonSchemaValue<P[K]> } & {
        -readonly [K in Exclude<keyof P, RequiredOf<S>>]?: JsonSchemaValue<P[K]>;
      }
    >
  : Record<string, unknown>;

/**
 * The value a raw JSON Schema describes, read from its keywords when they are literal types (a schema written
 * inline where a registration takes it, or declared `as const`): `const`, `enum`, `anyOf` / `oneOf` (a union of
 * the members), `type` (one name or several), `items`, `properties` and `required`. `unknown` when nothing can be
 * read; a schema typed as a plain `object` of unknown members gives `unknown`.
 */
export type JsonSchemaValue<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly anyOf: readonly (infer A)[] }
      ? JsonSchemaValue<A>
      : S extends { readonly oneOf: readonly (infer O)[] }
        ? JsonSchemaValue<O>
        : S extends { readonly type: infer T }
          ? T extends readonly (infer U)[]
            ? FromTypeName<U, S>
            : FromTypeName<T, S>
          : unknown;
