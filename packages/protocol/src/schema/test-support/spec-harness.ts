// Test support: reads the MCP spec checkout (../shared/spec, a sibling of the repo) and derives test cases
// from its JSON Schema: example fixtures, minimal valid values, and "break one required field" mutations.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A JSON Schema node as schema.json writes it (only the keywords the harness reads). */
export interface JsonSchemaNode {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchemaNode[];
  allOf?: JsonSchemaNode[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  items?: JsonSchemaNode;
  format?: string;
  minimum?: number;
}

/** One spec revision: its `$defs` and, when the revision ships them, example fixtures per type. */
export interface SpecRevision {
  defs: Record<string, JsonSchemaNode>;
  /** Type name → [file name, parsed JSON] pairs, sorted by file name. */
  examples: Map<string, Array<[string, unknown]>>;
}

/** `<repo>/../shared/spec`: the repo is cloned into varying folders, `shared/` is always its sibling. */
export const specRoot = new URL('../../../../../../shared/spec/', import.meta.url);

/** Why the spec tests skip when {@link specRoot} is absent, and where it comes from (the root README says more). */
export const specMissing =
  '../shared/spec not found: a copy of the modelcontextprotocol/modelcontextprotocol repository (its schema/ and ' +
  'docs/, at the commit in shared/spec/SOURCE) beside this checkout; see "The MCP specification" in the README';

/** Loads one revision from {@link specRoot}, or `undefined` when the spec checkout is absent. */
export function loadSpec(revision: string): SpecRevision | undefined {
  const dir = new URL(`schema/${revision}/`, specRoot);
  const schemaFile = new URL('schema.json', dir);
  if (!existsSync(fileURLToPath(schemaFile))) return undefined;
  const defs = (JSON.parse(readFileSync(schemaFile, 'utf8')) as { $defs: Record<string, JsonSchemaNode> })
    .$defs;
  const examples = new Map<string, Array<[string, unknown]>>();
  const examplesDir = fileURLToPath(new URL('examples/', dir));
  if (existsSync(examplesDir)) {
    for (const type of readdirSync(examplesDir).sort()) {
      const files = readdirSync(`${examplesDir}/${type}`)
        .filter((f) => f.endsWith('.json'))
        .sort();
      examples.set(
        type,
        files.map((f) => [f, JSON.parse(readFileSync(`${examplesDir}/${type}/${f}`, 'utf8')) as unknown]),
      );
    }
  }
  return { defs, examples };
}

/**
 * Resolves `$ref` and merges `allOf` into one node (later members win per property; `required` is unioned).
 */
export function flatten(node: JsonSchemaNode, defs: Record<string, JsonSchemaNode>): JsonSchemaNode {
  if (node.$ref !== undefined) {
    const target = defs[node.$ref.replace('#/$defs/', '')];
    if (!target) throw new Error(`unresolved ${node.$ref}`);
    return flatten(target, defs);
  }
  if (node.allOf) {
    const parts = node.allOf.map((part) => flatten(part, defs));
    const merged: JsonSchemaNode = { properties: {}, required: [] };
    for (const part of parts) {
      if (merged.type === undefined && part.type !== undefined) merged.type = part.type;
      Object.assign(merged.properties as object, part.properties);
      merged.required = [...new Set([...(merged.required ?? []), ...(part.required ?? [])])];
    }
    return merged;
  }
  return node;
}

/** A minimal value valid against `node`: required members only, first `anyOf` branch, first enum value. */
export function synthesize(node: JsonSchemaNode, defs: Record<string, JsonSchemaNode>, key = ''): unknown {
  const n = flatten(node, defs);
  if ('const' in n) return n.const;
  if (n.enum) return n.enum[0];
  if (n.anyOf?.[0]) return synthesize(n.anyOf[0], defs, key);
  const type = Array.isArray(n.type) ? n.type[0] : n.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const name of n.required ?? []) {
        const prop = n.properties?.[name];
        value[name] = prop ? synthesize(prop, defs, name) : 'x';
      }
      return value;
    }
    case 'array':
      return [];
    case 'string':
      if (key === 'resultType') return 'complete';
      return n.format === 'uri' ? 'https://example.com/x' : 'x';
    case 'integer':
    case 'number':
      return n.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      return 'x'; // `{}`: any value
  }
}

/**
 * The JSON types `node` admits (`integer` counted as `number` too), or `undefined` when it admits anything.
 */
function admittedTypes(node: JsonSchemaNode, defs: Record<string, JsonSchemaNode>): Set<string> | undefined {
  const n = flatten(node, defs);
  if ('const' in n) return new Set([jsonType(n.const)]);
  if (n.enum) return new Set(n.enum.map(jsonType));
  if (n.anyOf) {
    const all = new Set<string>();
    for (const branch of n.anyOf) {
      const types = admittedTypes(branch, defs);
      if (!types) return undefined;
      for (const t of types) all.add(t);
    }
    return all;
  }
  if (n.type === undefined) return n.properties ? new Set(['object']) : undefined;
  const types = new Set(Array.isArray(n.type) ? n.type : [n.type]);
  if (types.has('integer')) types.add('number');
  return types;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** A value whose JSON type `node` does not admit, or `undefined` when `node` admits every type. */
export function wrongTypeValue(node: JsonSchemaNode, defs: Record<string, JsonSchemaNode>): unknown {
  const admitted = admittedTypes(node, defs);
  if (!admitted) return undefined;
  const candidates: unknown[] = [true, 'wrong-type', 42, { wrong: 'type' }, ['wrong-type']];
  return candidates.find((c) => !admitted.has(jsonType(c)));
}

/** One way to break a valid value: delete a required member, or replace it with a value it must not take. */
export interface Mutation {
  /** Human-readable `path: change`, stable enough to name a test and a skip. */
  name: string;
  path: readonly (string | number)[];
  /** `undefined` with `remove` set means delete the member. */
  value?: unknown;
  remove?: true;
}

/**
 * Every mutation of `value` that must make it invalid against `node`: for each required member, removal, a
 * wrong JSON type and (for string constants) a wrong constant. Recurses into inline object members (and the
 * first item of inline object arrays) present in `value`; `$ref` members are covered by their own type's
 * tests.
 */
export function requiredFieldMutations(
  node: JsonSchemaNode,
  value: unknown,
  defs: Record<string, JsonSchemaNode>,
  path: readonly (string | number)[] = [],
): Mutation[] {
  const n = flatten(node, defs);
  if (!isPlainObject(value) || !n.properties) return [];
  const out: Mutation[] = [];
  const at = (key: string | number) => [...path, key].join('.');
  for (const key of n.required ?? []) {
    const prop = n.properties[key];
    out.push({ name: `${at(key)}: removed`, path: [...path, key], remove: true });
    if (!prop) continue;
    const wrong = wrongTypeValue(prop, defs);
    if (wrong !== undefined) {
      out.push({ name: `${at(key)}: ${JSON.stringify(wrong)}`, path: [...path, key], value: wrong });
    }
    const flat = flatten(prop, defs);
    if (typeof flat.const === 'string') {
      const other = `${flat.const}-other`;
      out.push({ name: `${at(key)}: ${JSON.stringify(other)}`, path: [...path, key], value: other });
    }
  }
  for (const [key, prop] of Object.entries(n.properties)) {
    if (prop.$ref !== undefined) continue;
    const member = value[key];
    if (isPlainObject(member)) out.push(...requiredFieldMutations(prop, member, defs, [...path, key]));
    const items = flatten(prop, defs).items;
    if (Array.isArray(member) && items && items.$ref === undefined && isPlainObject(member[0])) {
      out.push(...requiredFieldMutations(items, member[0], defs, [...path, key, 0]));
    }
  }
  return out;
}

/** A deep copy of `value` with `mutation` applied. */
export function applyMutation(value: unknown, mutation: Mutation): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let target: Record<string | number, unknown> = copy;
  for (const step of mutation.path.slice(0, -1)) target = target[step] as Record<string | number, unknown>;
  const last = mutation.path[mutation.path.length - 1] as string | number;
  if (mutation.remove) delete target[last];
  else target[last] = mutation.value;
  return copy;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
