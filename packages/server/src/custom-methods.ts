// Methods beyond the protocol's and the extensions that bring them: checked once at construction into the
// tables the dispatcher reads.
import {
  argumentError,
  isPlainObject,
  isStandardSchemaV1,
  type StandardSchemaV1,
  validate,
} from '@boomerang/protocol';
import { isReservedMethod, type ResultSpec } from './methods.js';
import type { ExtensionSubscriptions, MethodDefinition, ServerExtension } from './types.js';

/** A checked custom method. */
export interface CustomMethod extends ResultSpec {
  readonly name: string;
  readonly params: StandardSchemaV1;
  readonly handler: MethodDefinition['handler'];
}

/** An extension's result type on one method: the extension a request must declare, and the result's schema. */
export interface ResultTypeRule {
  readonly extension: string;
  readonly result: StandardSchemaV1;
}

/** Extension result types by method, then by `resultType` value. */
export type ResultTypes = ReadonlyMap<string, ReadonlyMap<string, ResultTypeRule>>;

/** What {@link customMethods} builds. */
export interface CustomTables {
  readonly methods: Map<string, CustomMethod>;
  readonly resultTypes: ResultTypes;
  /** `capabilities.extensions` for the extensions (their settings, `{}` by default). */
  readonly extensions: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The extensions' `subscriptions/listen` members, in registration order. */
  readonly subscriptions: readonly ExtensionSubscriptions[];
}

/**
 * Types a {@link MethodDefinition} so that `handler`'s params are the output of `params` (an identity function:
 * TypeScript infers the schema from `params`, then checks the handler against it).
 *
 * ```ts
 * const search = defineMethod({
 *   params: z.object({ query: z.string() }),
 *   handler: ({ query }) => ({ hits: lookup(query) }),
 * });
 * new Server(info, { methods: { 'acme/search': search } });
 * ```
 */
export function defineMethod<S extends StandardSchemaV1>(
  definition: MethodDefinition<S>,
): MethodDefinition<S> {
  return definition;
}

/**
 * Checks `options.methods` and `options.extensions` and builds their tables. Throws `TypeError` for a built-in
 * or duplicated method name, a definition without a Standard Schema `params` or a `handler` function, an
 * extension without an id or registered twice, a result type named `complete`/`input_required` or on a method
 * twice, malformed `subscriptions`, or a subscription member owned twice (or one of the protocol's own).
 */
export function customMethods(
  methods: Readonly<Record<string, MethodDefinition>> | undefined,
  extensions: readonly ServerExtension[] | undefined,
): CustomTables {
  const table = new Map<string, CustomMethod>();
  const resultTypes = new Map<string, Map<string, ResultTypeRule>>();
  const declared: Record<string, Readonly<Record<string, unknown>>> = {};
  const subscriptions: ExtensionSubscriptions[] = [];
  const owned = new Set(PROTOCOL_FILTER_MEMBERS);
  const add = (owner: string, all: unknown) => {
    if (all === undefined) return;
    if (!isPlainObject(all)) throw new TypeError(`${owner} expected an object of method definitions`);
    for (const [name, definition] of Object.entries(all)) {
      table.set(name, checkMethod(`${owner}["${name}"]`, name, definition, table));
    }
  };
  add('"methods"', methods);
  if (extensions !== undefined && !Array.isArray(extensions)) {
    throw argumentError('extensions', 'an array of extensions', extensions);
  }
  for (const [i, extension] of (extensions ?? []).entries()) {
    const owner = `"extensions[${i}]"`;
    if (!isPlainObject(extension) || typeof extension.id !== 'string' || extension.id === '') {
      throw new TypeError(`${owner} expected { id, settings?, methods?, resultTypes? } with a non-empty id`);
    }
    const { id, settings = {} } = extension;
    if (Object.hasOwn(declared, id)) throw new TypeError(`${owner}: extension "${id}" is registered twice`);
    if (!isPlainObject(settings)) throw new TypeError(`${owner}.settings expected a plain object`);
    declared[id] = settings;
    add(`${owner}.methods`, extension.methods);
    addResultTypes(owner, id, extension.resultTypes, resultTypes);
    const listen = extension.subscriptions;
    if (listen !== undefined) subscriptions.push(checkSubscriptions(`${owner}.subscriptions`, listen, owned));
  }
  return { methods: table, resultTypes, extensions: declared, subscriptions };
}

/** The members of the protocol's own subscription filter: no extension may own them. */
const PROTOCOL_FILTER_MEMBERS = [
  'toolsListChanged',
  'promptsListChanged',
  'resourcesListChanged',
  'resourceSubscriptions',
];

function checkSubscriptions(owner: string, value: unknown, owned: Set<string>): ExtensionSubscriptions {
  const {
    members,
    agree,
    attach,
  }: { readonly members?: unknown; readonly agree?: unknown; readonly attach?: unknown } = isPlainObject(
    value,
  )
    ? value
    : {};
  if (
    !Array.isArray(members) ||
    members.length === 0 ||
    members.some((m) => typeof m !== 'string' || m === '') ||
    typeof agree !== 'function' ||
    typeof attach !== 'function'
  ) {
    throw new TypeError(`${owner} expected { members: non-empty strings, agree(), attach() }`);
  }
  for (const member of members) {
    if (owned.has(member)) throw new TypeError(`${owner}: the filter member "${member}" is already owned`);
    owned.add(member);
  }
  return value as ExtensionSubscriptions;
}

/**
 * Checks one method definition under `name` (see {@link customMethods} for what throws); `table` holds the
 * methods already defined.
 */
export function checkMethod(
  owner: string,
  name: string,
  definition: unknown,
  table: ReadonlyMap<string, CustomMethod>,
): CustomMethod {
  if (name === '' || isReservedMethod(name)) {
    throw new TypeError(`${owner}: "${name}" is a built-in method name and cannot be overridden`);
  }
  if (table.has(name)) throw new Error(`${owner}: method "${name}" is already defined`);
  if (!isPlainObject(definition)) throw new TypeError(`${owner} expected { params, handler }`);
  const { params, handler, inputRequired = false, result } = definition as Partial<MethodDefinition>;
  if (!isStandardSchemaV1(params)) {
    throw new TypeError(`${owner}.params expected a Standard Schema (zod, valibot, arktype…)`);
  }
  if (typeof handler !== 'function') throw new TypeError(`${owner}.handler expected a function`);
  if (typeof inputRequired !== 'boolean') throw new TypeError(`${owner}.inputRequired expected a boolean`);
  if (result !== undefined && !isStandardSchemaV1(result)) {
    throw new TypeError(`${owner}.result expected a Standard Schema`);
  }
  return {
    name,
    params,
    handler,
    inputRequired,
    paginated: false,
    cacheable: false,
    checkResult: (value) => {
      if (result === undefined) return undefined;
      const checked = validate(result, value);
      return checked instanceof Promise
        ? checked.then((outcome) => (outcome.ok ? undefined : outcome.issues))
        : checked.ok
          ? undefined
          : checked.issues;
    },
  };
}

function addResultTypes(
  owner: string,
  extension: string,
  types: unknown,
  table: Map<string, Map<string, ResultTypeRule>>,
): void {
  if (types === undefined) return;
  if (!isPlainObject(types)) throw new TypeError(`${owner}.resultTypes expected an object`);
  for (const [type, definition] of Object.entries(types)) {
    const where = `${owner}.resultTypes["${type}"]`;
    if (type === '' || type === 'complete' || type === 'input_required') {
      throw new TypeError(`${where}: "${type}" is a protocol result type`);
    }
    const { methods, result }: { readonly methods?: unknown; readonly result?: unknown } =
      typeof definition === 'object' && definition !== null ? definition : {};
    if (!Array.isArray(methods) || methods.some((m) => typeof m !== 'string')) {
      throw new TypeError(`${where}.methods expected an array of method names`);
    }
    if (!isStandardSchemaV1(result)) throw new TypeError(`${where}.result expected a Standard Schema`);
    for (const method of methods) {
      const byType = table.get(method) ?? new Map<string, ResultTypeRule>();
      if (byType.has(type)) throw new TypeError(`${where}: "${type}" on ${method} is registered twice`);
      byType.set(type, { extension, result });
      table.set(method, byType);
    }
  }
}
