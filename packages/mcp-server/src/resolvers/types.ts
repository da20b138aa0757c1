// The compile-time side of resolvers: what a resolver's value is, which tool arguments it needs, and how a
// `resolve` map is checked against a tool's argument types. Nothing here exists at run time except the
// `Resolver` and `Question` objects the builders return.
import type { CreateMessageResult, ListRootsResult } from '@boomerang/protocol';
import type { RequestContext } from '@boomerang/server';

/** Phantom key carrying a resolver's value type (never present at run time). */
declare const resolverValue: unique symbol;
/** Phantom key carrying the tool arguments a resolver needs, contravariantly (never present at run time). */
declare const resolverNeeds: unique symbol;
/** Phantom key carrying the type a question resolves to (never present at run time). */
declare const questionAnswer: unique symbol;

/**
 * A dependency of a tool, prompt or resource template, built with `resolver(...)`: it computes a value of type
 * `T` from named arguments, other resolvers' values and the request context, possibly by asking the client.
 *
 * `Needs` is the object type of the arguments it (and everything it `uses`) reads, e.g. `{ title: string }`;
 * a `resolve` map accepts the resolver only where the tool's arguments are assignable to it (see
 * {@link ResolveMapFor}). `Resolver<T>` is a resolver that needs no argument. Resolvers are immutable and may
 * be shared by any number of registrations.
 */
export interface Resolver<T, Needs = object> {
  /** Type-level only: the value handed to consumers. */
  readonly [resolverValue]: T;
  /** Type-level only: the arguments needed (a function parameter, so a resolver needing less fits more tools). */
  readonly [resolverNeeds]: (needs: Needs) => void;
}

/** Any resolver, whatever its value and needs: what `planResolvers` accepts. */
export type AnyResolver = Resolver<unknown, never>;

/** A `uses` map: other resolvers, by the name under which their values reach the function. */
export type ResolverUses = { readonly [name: string]: AnyResolver };

/** The kinds of question a resolver can ask; each becomes one entry of `inputRequests`. */
export type QuestionKind = 'elicit' | 'elicitUrl' | 'sample' | 'listRoots';

/**
 * A question a resolver returns instead of a value (`elicit`, `elicitUrl`, `elicitResult`, `elicitUrlResult`,
 * `sample`, `listRoots`). The SDK asks the client, validates the answer, and the resolver's value becomes `T`.
 */
export interface Question<T> {
  /** Type-level only: what the question resolves to. */
  readonly [questionAnswer]: T;
  /** Which input request the question renders to. */
  readonly kind: QuestionKind;
}

/** The full outcome of a form elicitation, as `elicitResult(...)` hands it to the resolver's consumers. */
export type ElicitOutcome<T> =
  | { action: 'accept'; content: T }
  | { action: 'decline' }
  | { action: 'cancel' };

/** The full outcome of a URL elicitation, as `elicitUrlResult(...)` hands it over (accepting carries no content). */
export type ElicitUrlOutcome = { action: 'accept' } | { action: 'decline' } | { action: 'cancel' };

/** What `sample(...)` resolves to: the client's `CreateMessageResult`. */
export type SampleAnswer = CreateMessageResult;

/** What `listRoots()` resolves to: the client's `ListRootsResult` (`{ roots }`). */
export type ListRootsAnswer = ListRootsResult;

/** The value type of a resolver. */
export type ValueOf<R> = R extends Resolver<infer T, never> ? T : never;

/** The argument needs of a resolver (see {@link Resolver}). */
export type NeedsOf<R> = R extends Resolver<unknown, infer N> ? N : never;

/** `{ [K in keyof R]: value type of R[K] }`: what a handler receives as `resolved` for a `resolve` map `R`. */
export type ResolvedValues<R> = { -readonly [K in keyof R]: ValueOf<R[K]> };

/** A function result, with a question replaced by its answer type (unions distribute). */
export type Answer<R> = R extends Question<infer V> ? V : R;

/** Flattens an intersection for readable hovers. */
type Simplify<T> = { [K in keyof T]: T[K] };

/** `A | B` → `A & B`. */
type Intersect<U> = (U extends unknown ? (u: U) => void : never) extends (u: infer I) => void ? I : never;

/** The needs of every resolver in a `uses` map, intersected (`unknown` for none). */
type UsesNeeds<U> = [keyof U] extends [never]
  ? unknown
  : Intersect<{ [K in keyof U]: NeedsOf<U[K]> }[keyof U]>;

/** What `resolver(spec, fn)` builds: the value of `fn` (questions replaced by answers), the needs of all. */
export type ResolverOf<In, A extends string, U, R> = Resolver<
  Answer<Awaited<R>>,
  Simplify<Pick<In, A & keyof In> & UsesNeeds<U>>
>;

/** Uses names whose annotated type in `In` does not accept the value of that resolver. */
type UsesMismatch<In, U> = {
  [K in keyof U & keyof In]: [ValueOf<U[K]>] extends [In[K]] ? never : K;
}[keyof U & keyof In];

/**
 * The compile-time check of an annotated resolver function: every annotated member must be a declared argument
 * or a `uses` name, and a `uses` member's annotation must accept that resolver's value. Resolves to `unknown`
 * when everything fits, else to an impossible `spec` member whose text says what is wrong.
 */
export type InputCheck<In, A extends string, U> = string extends keyof U
  ? unknown
  : [Exclude<keyof In, A | keyof U>] extends [never]
    ? [UsesMismatch<In, U>] extends [never]
      ? unknown
      : {
          uses: { [K in UsesMismatch<In, U> & string]: `the annotation of '${K}' does not accept its value` };
        }
    : { args: `'${Exclude<keyof In, A | keyof U> & string}' is neither an argument nor a uses name` };

/** What `resolver()` takes first: the tool arguments to receive by name, and other resolvers to depend on. */
export interface ResolverSpec<A extends string, U extends ResolverUses> {
  /** Tool (prompt, template) argument names the function receives; each must exist on every consumer. */
  readonly args?: readonly A[];
  /**
   * Other resolvers whose values the function receives under these names. Each runs at most once per round
   * however many resolvers use it. Getters are read when a registration is planned (forward references).
   */
  readonly uses?: U;
}

/** A resolver function: one input object (named arguments + `uses` values), the request context last. */
export type ResolverFn<In, R> = (input: In, ctx: RequestContext) => R;

/** The declared keys of `T`, without its index signatures (a `z.looseObject` has `[x: string]: unknown`). */
type KnownKeys<T> = keyof {
  [K in keyof T as string extends K ? never : number extends K ? never : symbol extends K ? never : K]: T[K];
};

/**
 * The tool arguments as a resolver sees them: every declared key present (an optional one may be `undefined`,
 * so only a resolver accepting `undefined` fits it). Index signatures (a `z.looseObject`) are left out: a
 * resolver may only name declared arguments, as `planResolvers` checks at run time too.
 */
type ArgsView<Args> = { [K in Extract<KnownKeys<Args>, string>]-?: Args[K] };

/**
 * The constraint on a `resolve` map for a tool, prompt or template whose (validated) arguments are `Args`:
 * every member is a resolver whose needs the arguments satisfy (a wrong argument name or an incompatible
 * argument type is a compile error), and no member is named like a declared input property.
 */
export type ResolveMapFor<Args> = { readonly [name: string]: Resolver<unknown, ArgsView<Args>> } & {
  readonly [K in Extract<KnownKeys<Args>, string>]?: never;
};
