// planResolvers: a registration's `resolve` map, checked once and flattened into the graph `runResolvers` walks.

import { argumentError, describeType, isPlainObject } from '@boomerang/protocol';
import type { RequestContext } from '@boomerang/server';
import { ResolverGraphError } from './errors.js';
import { type ResolverImpl, resolverOf } from './resolver.js';
import type { AnyResolver } from './types.js';

/**
 * Default cap on a call's recorded request state: 20 KiB of plaintext JSON. Sealing adds a tag byte, claims and
 * base64url (4/3): under 28,000 characters, well inside the sealer's 65,536-character token limit, so the cap's
 * clear error always comes first.
 */
export const DEFAULT_MAX_STATE_BYTES = 20 * 1024;

/** Options of {@link planResolvers}. */
export interface ResolverPlanOptions {
  /**
   * Cap, in UTF-8 bytes of plaintext JSON, on the request state one round records (every answer so far, bound
   * to its question). Default {@link DEFAULT_MAX_STATE_BYTES} (20 KiB). A round that would exceed it fails with
   * a `RangeError` naming the registration instead of minting a huge token; sampling completions are the usual
   * culprit, since each one rides every later round.
   */
  maxStateBytes?: number;
  /**
   * What an answer in `inputResponses` must show before it is consumed (default `'question'`):
   * - `'question'`: it sits under the wire key of the exact question the resolver asks now (`r<n>.<digest>`).
   *   A round with nothing recorded seals no state, so a one-question call costs no cryptography.
   * - `'round'`: that, and the sealed state of the previous round must record that this very question was
   *   asked in this call: an answer is then bound to the call's arguments and principal and expires with the
   *   state (a first round seals a state too). Choose it when a client must not answer a question before the
   *   server asked it in this very call, e.g. confirmations a client could otherwise reuse from another call.
   */
  answerBinding?: AnswerBinding;
}

/**
 * How an answer is bound to the question it answers (McpServer's `answerBinding` option). `'question'`: it counts
 * only under the wire key naming the exact question asked now (`r<n>.<digest>`). `'round'`: also, only with the
 * sealed state of the round that asked it (bound to the call's arguments and principal, expiring with the state).
 */
export type AnswerBinding = 'question' | 'round';

/**
 * A registration's resolver graph, checked and frozen: what {@link runResolvers} executes on every round.
 * Build it once per registration with {@link planResolvers}; it holds no per-call state.
 */
export interface ResolverPlan {
  /** How messages name the registration, as given to {@link planResolvers}. */
  readonly owner: string;
  /** The names of the `resolve` map, in map order: the members of the handler's `resolved` object. */
  readonly names: readonly string[];
  /** The state cap in bytes (see {@link ResolverPlanOptions.maxStateBytes}). */
  readonly maxStateBytes: number;
  /** See {@link ResolverPlanOptions.answerBinding}. */
  readonly answerBinding: AnswerBinding;
}

/** One resolver of a plan: distinct resolver objects are distinct nodes; one object is one node. */
export interface PlanNode {
  /** Position in the plan (breadth-first from the map, in map order, then `uses` order). */
  readonly index: number;
  /** The opaque, stable key of its question in `inputRequests`, `inputResponses` and the state. */
  readonly key: string;
  /** Its name for messages: the map name, or `parent.child` through `uses`. */
  readonly label: string;
  readonly args: readonly string[];
  readonly uses: readonly (readonly [name: string, node: PlanNode])[];
  readonly fn: (input: Record<string, unknown>, ctx: RequestContext) => unknown;
  /** The engine's cache of this node's wire keys by question digest (see `wireKey` in run.ts). */
  readonly wireKeys: Map<string, string>;
}

/** The run-time side of a {@link ResolverPlan}. */
export interface PlanImpl {
  /** Every node, in plan order. */
  readonly nodes: readonly PlanNode[];
  /** The `resolve` map: each name and its node. */
  readonly entries: readonly (readonly [name: string, node: PlanNode])[];
}

const plans = new WeakMap<ResolverPlan, PlanImpl>();

/** The graph behind a plan; throws `TypeError` for anything {@link planResolvers} did not return. */
export function planOf(plan: ResolverPlan): PlanImpl {
  const impl = typeof plan === 'object' && plan !== null ? plans.get(plan) : undefined;
  if (impl === undefined) throw argumentError('plan', 'a ResolverPlan from planResolvers()', plan);
  return impl;
}

/**
 * Checks a registration's `resolve` map and flattens it into a plan. Called once, at registration.
 *
 * `owner` names the registration in messages (e.g. `tool 'order_book'`); `inputKeys` are its input property
 * names (the tool's argument names). Wire keys are derived from each resolver's position in the plan
 * (`r0`, `r1`, … breadth-first, in map then `uses` order): opaque (no source, function or resolver names reach
 * the client) and identical in every process and worker that registers the same map.
 *
 * @throws ResolverGraphError naming the owner, the resolver and the culprit when a member of the map (or of
 * a `uses`) is not a resolver, a resolved name collides with an input property, a resolver names an argument
 * not in `inputKeys` or receives one name both as an argument and from `uses`, or `uses` forms a cycle.
 * @throws TypeError for a non-string `owner`, `inputKeys` that are not strings; RangeError for a bad cap.
 */
export function planResolvers(
  owner: string,
  resolve: Readonly<Record<string, AnyResolver>>,
  inputKeys: readonly string[],
  options: ResolverPlanOptions = {},
): ResolverPlan {
  if (typeof owner !== 'string') throw argumentError('owner', 'string', owner);
  if (!Array.isArray(inputKeys) || !inputKeys.every((k) => typeof k === 'string')) {
    throw argumentError('inputKeys', 'array of strings', inputKeys);
  }
  const maxStateBytes = options.maxStateBytes ?? DEFAULT_MAX_STATE_BYTES;
  if (!Number.isSafeInteger(maxStateBytes) || maxStateBytes < 1) {
    throw new RangeError(`"maxStateBytes" expected a positive integer, got ${String(maxStateBytes)}`);
  }
  const answerBinding = options.answerBinding ?? 'question';
  if (answerBinding !== 'question' && answerBinding !== 'round') {
    throw argumentError('answerBinding', "'question' or 'round'", answerBinding);
  }
  const fail = (message: string) => new ResolverGraphError(`${owner}: ${message}`);
  if (!isPlainObject(resolve))
    throw fail(`"resolve" must be an object of resolvers, got ${describeType(resolve)}`);
  const inputs = new Set(inputKeys);

  // Breadth-first from the map, so top-level resolvers keep their map names and get the first keys.
  const nodes: MutableNode[] = [];
  const byHandle = new Map<unknown, MutableNode>();
  const nodeFor = (value: unknown, label: string, where: string): MutableNode => {
    const impl = resolverOf(value);
    if (impl === undefined)
      throw fail(`${where} is not a resolver (got ${describeType(value)}); build it with resolver()`);
    const known = byHandle.get(value);
    if (known !== undefined) return known;
    const node: MutableNode = {
      index: nodes.length,
      key: `r${nodes.length}`,
      label,
      impl,
      args: impl.args,
      uses: [],
      fn: impl.fn,
      wireKeys: new Map(),
    };
    nodes.push(node);
    byHandle.set(value, node);
    return node;
  };
  const entries = Object.keys(resolve).map((name) => {
    if (inputs.has(name)) throw fail(`resolved name '${name}' collides with an input property`);
    return [name, nodeFor(resolve[name], name, `resolve.${name}`)] as const;
  });
  // `nodes` grows as `uses` name new resolvers: the loop reaches them too.
  for (const node of nodes) {
    for (const arg of node.args) {
      if (!inputs.has(arg)) {
        const known = inputKeys.length > 0 ? inputKeys.map((k) => `'${k}'`).join(', ') : 'none';
        throw fail(`resolver '${node.label}' names unknown argument '${arg}' (arguments: ${known})`);
      }
    }
    let uses: [string, unknown][];
    try {
      uses = Object.entries(node.impl.uses);
    } catch (error) {
      throw fail(`resolver '${node.label}' has a "uses" that cannot be read (${(error as Error).message})`);
    }
    for (const [name, value] of uses) {
      if (node.args.includes(name)) {
        throw fail(`resolver '${node.label}' receives '${name}' both as an argument and from "uses"`);
      }
      node.uses.push([
        name,
        nodeFor(value, `${node.label}.${name}`, `resolver '${node.label}' uses '${name}', which`),
      ]);
    }
  }
  checkCycles(nodes, fail);

  const plan: ResolverPlan = Object.freeze({
    owner,
    names: Object.freeze(entries.map(([name]) => name)),
    maxStateBytes,
    answerBinding,
  });
  plans.set(plan, { nodes, entries });
  return plan;
}

/**
 * The plan of a registration's `resolve` option: `undefined` when there is nothing to resolve (no map, or an empty
 * one: the registration then has no resolvers and may build its own rounds), else {@link planResolvers}'s plan.
 * Throws `TypeError` for a `resolve` that is not an object, and whatever {@link planResolvers} throws.
 */
export function planRegistration(
  owner: string,
  resolve: unknown,
  inputKeys: readonly string[],
  options: ResolverPlanOptions = {},
): ResolverPlan | undefined {
  if (resolve === undefined) return undefined;
  if (typeof resolve !== 'object' || resolve === null || Array.isArray(resolve)) {
    throw new TypeError(`${owner}: "resolve" expected an object of resolvers, got ${describeType(resolve)}`);
  }
  if (Object.keys(resolve).length === 0) return undefined;
  return planResolvers(owner, resolve as Readonly<Record<string, AnyResolver>>, inputKeys, options);
}

/**
 * `args` without the names `plan` resolves: a client-sent value under a resolved name is ignored (and never
 * reaches a strict input schema). `args` itself when nothing is resolved.
 */
export function withoutResolved(
  args: Readonly<Record<string, unknown>>,
  plan: ResolverPlan | undefined,
): Record<string, unknown> {
  if (plan === undefined || !hasAny(args, plan.names)) return args;
  const out = { ...args };
  for (const name of plan.names) delete out[name];
  return out;
}

/** Whether `args` has an own member under one of `names` (a loop: this runs twice on every call). */
function hasAny(args: Readonly<Record<string, unknown>>, names: readonly string[]): boolean {
  for (const name of names) if (Object.hasOwn(args, name)) return true;
  return false;
}

interface MutableNode extends PlanNode {
  readonly impl: ResolverImpl;
  readonly uses: [string, PlanNode][];
}

/** Depth-first search for a cycle through `uses`; the error spells the cycle out by labels. */
function checkCycles(nodes: readonly PlanNode[], fail: (message: string) => Error): void {
  const done = new Set<PlanNode>();
  const onPath: PlanNode[] = [];
  const visit = (node: PlanNode): void => {
    if (done.has(node)) return;
    const at = onPath.indexOf(node);
    if (at >= 0) {
      const cycle = [...onPath.slice(at), node].map((n) => n.label).join(' → ');
      throw fail(`resolver '${node.label}' has a cyclic dependency (${cycle})`);
    }
    onPath.push(node);
    for (const [, dep] of node.uses) visit(dep);
    onPath.pop();
    done.add(node);
  };
  for (const node of nodes) visit(node);
}
