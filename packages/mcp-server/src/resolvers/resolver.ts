// `resolver(spec, fn)`: the builder of dependencies. The returned object is an opaque handle; what it does lives
// in a module-private WeakMap, so a resolver cannot be forged or altered after it is built.

import { argumentError, isPlainObject } from '@boomerang/protocol';
import type { RequestContext } from '@boomerang/server';
import type {
  InputCheck,
  ResolvedValues,
  Resolver,
  ResolverFn,
  ResolverOf,
  ResolverSpec,
  ResolverUses,
} from './types.js';

/** The run-time side of a {@link Resolver}. */
export interface ResolverImpl {
  /** Argument names the function receives. */
  readonly args: readonly string[];
  /** The `uses` object as given (read when a registration is planned, so getters may refer forward). */
  readonly uses: object;
  readonly fn: (input: Record<string, unknown>, ctx: RequestContext) => unknown;
}

const resolvers = new WeakMap<object, ResolverImpl>();

/** The run-time resolver behind a value, or undefined when the value is not a resolver. */
export function resolverOf(value: unknown): ResolverImpl | undefined {
  return typeof value === 'object' && value !== null ? resolvers.get(value) : undefined;
}

/**
 * Declares a dependency: `fn` receives one object holding the tool arguments named in `args` and the values of
 * the resolvers in `uses`, plus the request context; it returns the value (sync or async) or a question
 * (`elicit`, `elicitUrl`, `elicitResult`, `elicitUrlResult`, `sample`, `listRoots`), which the SDK asks the
 * client and whose validated answer becomes the value.
 *
 * ```ts
 * const checkStock = resolver({ args: ['title'] }, ({ title }: { title: string }) => inventory.get(title));
 * const backorder = resolver({ args: ['title'], uses: { stock: checkStock } }, ({ stock, title }) =>
 *   stock.count > 0 ? { confirm: true } : elicit(`Backorder ${title}?`, z.object({ confirm: z.boolean() })));
 * ```
 *
 * Types: the value type is inferred from `fn` (a question resolves to its answer type). Annotate the input to
 * type arguments (`({ title }: { title: string })`); unannotated arguments are `unknown`. The resolver then
 * only fits registrations whose arguments have those names and types (a compile error otherwise), and an
 * annotation that names something else, or does not accept a `uses` value, is a compile error here.
 *
 * Run time: a resolver runs at most once per round of a call, however many consumers it has, and again on
 * every round until the call completes, so keep it free of side effects that must not repeat (ask first, act
 * in the handler). Its questions must render deterministically from its inputs: an answer is bound to the exact
 * question it answers. The graph (names, cycles) is checked when a registration uses it.
 *
 * @throws TypeError when `spec` is not `{ args?: string[], uses?: object }` or `fn` is not a function.
 */
export function resolver<
  const A extends string = never,
  U extends ResolverUses = Record<never, never>,
  In extends { [K in A]: unknown } = { [K in A]: unknown },
  R = unknown,
>(
  spec: ResolverSpec<A, U> & InputCheck<NoInfer<In>, NoInfer<A>, NoInfer<U>>,
  fn: ResolverFn<In & NoInfer<ResolvedValues<U>>, R>,
): ResolverOf<In, A, U, R> {
  if (!isPlainObject(spec)) throw argumentError('spec', '{ args?, uses? }', spec);
  const { args = [], uses = {} } = spec as ResolverSpec<string, ResolverUses>;
  if (!Array.isArray(args)) throw argumentError('args', 'array of argument names', args);
  for (const [i, name] of args.entries()) {
    if (typeof name !== 'string') throw argumentError(`args[${i}]`, 'string', name);
    if (args.indexOf(name) !== i) throw new TypeError(`"args" names '${name}' twice`);
  }
  if (!isPlainObject(uses)) throw argumentError('uses', 'object of resolvers', uses);
  if (typeof fn !== 'function') throw argumentError('fn', 'function', fn);
  const handle = Object.freeze({ [Symbol.toStringTag]: 'Resolver' });
  resolvers.set(handle, {
    args: Object.freeze([...args]),
    uses,
    fn: fn as unknown as ResolverImpl['fn'],
  });
  return handle as unknown as ResolverOf<In, A, U, R>;
}

/** Type guard for resolvers built by {@link resolver}. */
export function isResolver(value: unknown): value is Resolver<unknown, never> {
  return resolverOf(value) !== undefined;
}
