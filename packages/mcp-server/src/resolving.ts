import type { InputRequiredResult } from '@boomerang/protocol';
import type { RequestContext } from '@boomerang/server';
import { type AnyResolver, planResolvers, runResolvers } from './resolver-seam.js';

/** The checked resolver graph of one registration (opaque here: the resolver engine owns it). */
export type Plan = ReturnType<typeof planResolvers>;

/** Server-wide options of every plan (the state cap). */
export type PlanOptions = NonNullable<Parameters<typeof planResolvers>[3]>;

/**
 * Checks a `resolve` map at registration (`InvalidSignatureError` naming the culprit: unknown argument, cycle,
 * a resolved name that collides with an input property). `undefined` for no map or an empty one.
 */
export function planFor(
  owner: string,
  resolve: unknown,
  inputKeys: readonly string[],
  options: PlanOptions = {},
): Plan | undefined {
  if (resolve === undefined) return undefined;
  if (typeof resolve !== 'object' || resolve === null || Array.isArray(resolve)) {
    throw new TypeError(`${owner}: "resolve" expected an object of resolvers`);
  }
  if (Object.keys(resolve).length === 0) return undefined;
  return planResolvers(owner, resolve as Record<string, AnyResolver>, inputKeys, options);
}

/** One round of a registration's resolvers: their values, or the questions to send back. */
export type Round =
  | { kind: 'resolved'; values: Record<string, unknown> }
  | { kind: 'input_required'; result: InputRequiredResult };

const NONE: Round = { kind: 'resolved', values: {} };

/**
 * Runs the resolvers of `plan` for one request. The state is the plaintext the low-level server opened; the
 * state in a returned `InputRequiredResult` is plaintext too (the low-level server seals it on the way out).
 */
export function resolveRound(
  plan: Plan | undefined,
  args: Record<string, unknown>,
  ctx: RequestContext,
): Promise<Round> {
  if (plan === undefined) return Promise.resolve({ ...NONE, values: {} });
  return runResolvers(plan, {
    args,
    ctx,
    inputResponses: ctx.inputResponses,
    state: ctx.requestState,
    // A 2025-11-25 session: questions go to the client mid-call through the server's back-channel.
    ...(ctx.ask === undefined ? {} : { ask: ctx.ask }),
  });
}

/** A copy of `args` without the resolved names: a client-sent value under a resolved name is ignored. */
export function withoutResolved(args: Record<string, unknown>, resolve: unknown): Record<string, unknown> {
  if (typeof resolve !== 'object' || resolve === null) return args;
  const out = { ...args };
  for (const name of Object.keys(resolve)) delete out[name];
  return out;
}
