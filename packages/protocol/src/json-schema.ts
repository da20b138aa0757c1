// A raw JSON Schema as a Standard Schema: the one JSON Schema validator of Boomerang, used for the raw JSON Schemas
// a server registers and for the `outputSchema` a client reads from a server. Its own subpath
// (`@boomerang/protocol/json-schema`), so a program that never validates with a JSON Schema never loads it.
//
// Validation is @cfworker/json-schema's (drafts 4, 7, 2019-09 and 2020-12; no code generation, so it runs where
// `eval` is forbidden). Around it, what the spec asks of an implementation facing a schema it did not write
// (basic/index, "Schema Dialect", "$ref Resolution", "Composition-Keyword Resource Use"): the dialect is read
// from `$schema` (2020-12 when absent) and an unknown one is refused by name; a `$ref` is never fetched, so a
// reference outside the document is refused when the schema is compiled; depth and size are bounded.
import { type Schema, type SchemaDraft, Validator } from '@cfworker/json-schema';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { argumentError } from './guards.js';
import { isPlainObject } from './jsonrpc.js';
import type { SchemaIssue } from './validation.js';

/** A JSON Schema dialect this validator speaks, as `$schema` names it (2020-12 when `$schema` is absent). */
export type JsonSchemaDialect = 'draft-2020-12' | 'draft-2019-09' | 'draft-07' | 'draft-04';

/** Bounds on a schema {@link fromJsonSchema} accepts (a server's schema is untrusted input for a client). */
export interface JsonSchemaLimits {
  /** Deepest nesting of objects and arrays in the schema document. Default 64. */
  readonly maxDepth?: number | undefined;
  /** Most objects and arrays in the schema document (its subschemas, roughly). Default 10,000. */
  readonly maxNodes?: number | undefined;
}

/**
 * A compiled JSON Schema: a Standard Schema (`~standard.validate`) whose output is the value itself, and a
 * Standard JSON Schema (`~standard.jsonSchema`) that hands back a copy of the schema for its own dialect.
 */
export interface JsonSchemaValidator
  extends StandardSchemaV1<unknown, unknown>,
    StandardJSONSchemaV1<unknown, unknown> {
  readonly '~standard': StandardSchemaV1.Props<unknown, unknown> &
    StandardJSONSchemaV1.Props<unknown, unknown>;
  /** The schema, as given (deeply frozen copy). */
  readonly schema: Readonly<Record<string, unknown>>;
  /** Its dialect, from `$schema`. */
  readonly dialect: JsonSchemaDialect;
}

/** `$schema` URIs (without a trailing `#`, either scheme) → the dialect and cfworker's name for it. */
const DIALECTS: ReadonlyMap<string, readonly [JsonSchemaDialect, SchemaDraft]> = new Map([
  ['json-schema.org/draft/2020-12/schema', ['draft-2020-12', '2020-12']],
  ['json-schema.org/draft/2019-09/schema', ['draft-2019-09', '2019-09']],
  ['json-schema.org/draft-07/schema', ['draft-07', '7']],
  ['json-schema.org/draft-04/schema', ['draft-04', '4']],
]);

const TYPES: ReadonlySet<unknown> = new Set([
  'array',
  'boolean',
  'integer',
  'null',
  'number',
  'object',
  'string',
]);

/**
 * Keywords whose failure only says "a subschema failed": their subschema's own error is the one worth reading,
 * so they are named only when nothing more precise was found.
 */
const WRAPPERS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'contains',
  'dependentSchemas',
  'allOf',
  '$ref',
  '$recursiveRef',
  '$dynamicRef',
  'if',
  'then',
  'else',
  'false',
]);

/** Keywords that wrap a subschema's failure when it has one, and say what is wrong themselves otherwise. */
const PROPERTY_WRAPPERS: ReadonlySet<string> = new Set(['additionalProperties', 'unevaluatedProperties']);

/** Which vendor `~standard` reports for a compiled JSON Schema. */
const VENDOR = 'boomerang/json-schema';

/**
 * Compiles a raw JSON Schema (a plain object, or `true` / `false`) into a {@link JsonSchemaValidator}. The
 * schema is copied, so the caller may keep and change its object; validation never throws for any value.
 *
 * Issues carry the instance path (array indexes as numbers) and the validator's message, the most precise
 * first: `validate(fromJsonSchema(s), value)` and `describeIssues` read them like any Standard Schema's.
 *
 * @throws TypeError naming the problem when the schema cannot be used: not an object, a `$schema` dialect other
 * than 2020-12, 2019-09, draft-07 or draft-04, a `type` that names no JSON type, a `pattern` that is no valid
 * regular expression, a `$ref` to a document outside the schema (never fetched) or to a local pointer that
 * resolves to nothing, or a schema deeper or larger than `limits` allow.
 */
export function fromJsonSchema(schema: unknown, limits: JsonSchemaLimits = {}): JsonSchemaValidator {
  if (typeof schema === 'boolean') schema = schema ? {} : { not: {} };
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw argumentError('schema', 'a JSON Schema object', schema);
  }
  const copy = copyJson(schema, limits);
  const [dialect, draft] = dialectOf(copy.$schema);
  checkSchema(copy);
  const frozen = deepFreeze(structuredClone(copy));
  const validator = new Validator(copy as Schema, draft, true);
  const standard = {
    version: 1 as const,
    vendor: VENDOR,
    validate: (value: unknown): StandardSchemaV1.Result<unknown> => {
      let result: ReturnType<Validator['validate']>;
      try {
        result = validator.validate(value);
      } catch (error) {
        const message = `the schema could not be evaluated (${error instanceof Error ? error.message : String(error)})`;
        return { issues: [{ message, path: [] }] };
      }
      return result.valid ? { value } : { issues: issuesOf(result.errors, value) };
    },
    jsonSchema: {
      input: (options: StandardJSONSchemaV1.Options) => schemaFor(frozen, dialect, options),
      output: (options: StandardJSONSchemaV1.Options) => schemaFor(frozen, dialect, options),
    },
  };
  return Object.freeze({ '~standard': Object.freeze(standard), schema: frozen, dialect });
}

/** A fresh copy of the schema for `options.target`, which must be its own dialect. */
function schemaFor(
  schema: Readonly<Record<string, unknown>>,
  dialect: JsonSchemaDialect,
  options: StandardJSONSchemaV1.Options,
): Record<string, unknown> {
  if (options?.target !== dialect) {
    throw new TypeError(`a ${dialect} JSON Schema cannot be converted to ${String(options?.target)}`);
  }
  return structuredClone(schema);
}

/** The dialect `$schema` names (2020-12 when absent), or a `TypeError` for one this validator does not speak. */
function dialectOf($schema: unknown): readonly [JsonSchemaDialect, SchemaDraft] {
  if ($schema === undefined) return ['draft-2020-12', '2020-12'];
  const key = typeof $schema === 'string' ? $schema.replace(/^https?:\/\//, '').replace(/#$/, '') : '';
  const found = DIALECTS.get(key);
  if (found === undefined) {
    throw new TypeError(
      `unsupported JSON Schema dialect ${JSON.stringify($schema)} (supported: draft 2020-12, 2019-09, 07 and 04)`,
    );
  }
  return found;
}

/** A JSON copy of `value` within `limits`, or a `TypeError` (too deep, too large, not JSON). */
function copyJson(value: object, limits: JsonSchemaLimits): Record<string, unknown> {
  const maxDepth = limits.maxDepth ?? 64;
  const maxNodes = limits.maxNodes ?? 10_000;
  let nodes = 0;
  const copy = (node: unknown, depth: number): unknown => {
    if (typeof node !== 'object' || node === null) {
      if (typeof node === 'number' && !Number.isFinite(node))
        throw new TypeError('the schema holds a non-finite number');
      if (
        typeof node === 'function' ||
        typeof node === 'symbol' ||
        typeof node === 'bigint' ||
        node === undefined
      ) {
        throw new TypeError(`the schema holds a ${typeof node}, which JSON cannot carry`);
      }
      return node;
    }
    if (Array.isArray(node)) {
      count(depth);
      return node.map((item) => copy(item, depth + 1));
    }
    return copyObject(node, depth);
  };
  const count = (depth: number): void => {
    if (depth > maxDepth) throw new TypeError(`the schema is nested deeper than ${maxDepth} levels`);
    if (++nodes > maxNodes) throw new TypeError(`the schema has more than ${maxNodes} objects and arrays`);
  };
  const copyObject = (node: object, depth: number): Record<string, unknown> => {
    count(depth);
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(node)) {
      if (member === undefined) continue;
      Object.defineProperty(out, key, {
        value: copy(member, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  return copyObject(value, 0);
}

/** Keywords whose value is one subschema, an array of them, or a map of them (the rest is data or ignored). */
const ONE_SCHEMA: ReadonlySet<string> = new Set([
  'not',
  'if',
  'then',
  'else',
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
]);
const SCHEMA_ARRAYS: ReadonlySet<string> = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
const SCHEMA_MAPS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);

/**
 * Walks every subschema: `type` names JSON types, `pattern` compiles (as the validator compiles it: `u` flag),
 * and every `$ref` resolves inside the document (a local JSON pointer, an `$anchor`, or a schema `$id` of the
 * document); a reference to anything else would need a fetch, which the spec forbids by default.
 */
function checkSchema(root: Record<string, unknown>): void {
  const ids = new Set<string>();
  const anchors = new Set<string>();
  const refs: string[] = [];
  const visit = (schema: unknown, where: string): void => {
    if (typeof schema === 'boolean') return;
    // Every object of the copy is plain (copyJson builds them), so this refuses exactly null, arrays and primitives.
    if (!isPlainObject(schema)) {
      throw new TypeError(`${where} is not a schema (an object or a boolean), got ${JSON.stringify(schema)}`);
    }
    const node = schema;
    checkType(node.type);
    if (node.pattern !== undefined) checkPattern(node.pattern);
    for (const key of ['$id', 'id'] as const) {
      const id = node[key];
      if (typeof id === 'string') ids.add(id.replace(/#$/, ''));
    }
    if (typeof node.$anchor === 'string') anchors.add(node.$anchor);
    for (const key of ['$ref', '$dynamicRef', '$recursiveRef'] as const) {
      const ref = node[key];
      if (typeof ref === 'string') refs.push(ref);
    }
    for (const [key, member] of Object.entries(node)) {
      if (Array.isArray(member)) {
        if (SCHEMA_ARRAYS.has(key))
          for (const [i, item] of member.entries()) visit(item, `${where}.${key}[${i}]`);
      } else if (SCHEMA_MAPS.has(key) && typeof member === 'object' && member !== null) {
        for (const [name, item] of Object.entries(member)) {
          // draft-07 `dependencies` also maps to arrays of property names, which are no schemas.
          if (!(key === 'dependencies' && Array.isArray(item)))
            visit(item, `${where}.${key}[${JSON.stringify(name)}]`);
        }
      } else if (ONE_SCHEMA.has(key)) visit(member, `${where}.${key}`);
    }
  };
  visit(root, 'the schema');
  for (const ref of refs) {
    if (ref === '#') continue;
    if (ref.startsWith('#/')) {
      if (resolvePointer(root, ref.slice(1)) === undefined) {
        throw new TypeError(`$ref ${JSON.stringify(ref)} points at nothing in the schema`);
      }
    } else if (ref.startsWith('#')) {
      if (!anchors.has(ref.slice(1))) {
        throw new TypeError(`$ref ${JSON.stringify(ref)} names no $anchor of the schema`);
      }
    } else if (!ids.has(ref.replace(/#.*$/, ''))) {
      throw new TypeError(
        `$ref ${JSON.stringify(ref)} points outside the schema; external references are never fetched`,
      );
    }
  }
}

function checkType(type: unknown): void {
  if (type === undefined) return;
  const types = Array.isArray(type) ? type : [type];
  for (const name of types) {
    if (!TYPES.has(name)) throw new TypeError(`"type" ${JSON.stringify(name)} is not a JSON Schema type`);
  }
}

function checkPattern(pattern: unknown): void {
  if (typeof pattern !== 'string') throw argumentError('pattern', 'a string', pattern);
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    throw new TypeError(
      `"pattern" ${JSON.stringify(pattern)} is not a valid regular expression (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/** The value at a JSON pointer (`/a/0/b`, percent-encoded as in a URI fragment), or undefined. */
function resolvePointer(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const segment of pointerSegments(pointer)) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/** `/a~1b/0` (URI-encoded, as the validator writes instance locations) → `['a/b', '0']`. */
function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // Not percent-encoded after all: read it as written.
      }
      return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

/** The validator's errors as issues: the precise ones (not "a subschema failed"), each with its instance path. */
function issuesOf(
  errors: readonly { instanceLocation: string; keyword: string; error: string }[],
  value: unknown,
): SchemaIssue[] {
  const deeper = (error: { instanceLocation: string }) =>
    errors.some(
      (other) =>
        !WRAPPERS.has(other.keyword) && other.instanceLocation.startsWith(`${error.instanceLocation}/`),
    );
  const precise = errors.filter(
    (error) => !WRAPPERS.has(error.keyword) && !(PROPERTY_WRAPPERS.has(error.keyword) && deeper(error)),
  );
  return (precise.length > 0 ? precise : errors).map((error) => ({
    message: error.error,
    path: instancePath(error.instanceLocation, value),
  }));
}

/** `#/items/0/name` → `['items', 0, 'name']`: array indexes become numbers, as in other libraries' issues. */
function instancePath(location: string, value: unknown): PropertyKey[] {
  const path: PropertyKey[] = [];
  let node = value;
  for (const segment of pointerSegments(location.replace(/^#/, ''))) {
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(segment)) {
      path.push(Number(segment));
      node = node[Number(segment)];
    } else {
      path.push(segment);
      node =
        typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[segment] : undefined;
    }
  }
  return path;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
