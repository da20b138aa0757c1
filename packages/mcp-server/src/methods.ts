import { isInputRequired, type StandardSchemaV1 } from '@boomerang/protocol';
import type { MethodDefinition, RequestContext } from '@boomerang/server';
import { rethrowResolution } from './prompts.js';
import {
  planRegistration,
  type ResolverPlan,
  type ResolverPlanOptions,
  runResolvers,
  withoutResolved,
} from './resolvers/index.js';
import { checkHandler, checkName, EMPTY_INPUT, serveSchema } from './schema.js';

const CONFIG_KEYS: ReadonlySet<string> = new Set(['params', 'resolve']);

/**
 * Checks a custom method registration and builds the low-level definition that serves it: params validated with
 * the schema (resolved names dropped first, so a client-sent value under one is ignored), the resolvers run
 * (their questions go out as the `InputRequiredResult`), then the handler. A declined or cancelled elicitation
 * consumed unwrapped answers `-32602` with the resolver's message (a custom result has no `isError`); a
 * resolver method whose handler returns an `InputRequiredResult` is a bug (`-32603`). Throws `TypeError` for a
 * bad config, a resolver graph error naming the culprit.
 */
export function methodDefinition(
  name: unknown,
  config: unknown,
  handler: unknown,
  options: ResolverPlanOptions = {},
): MethodDefinition {
  checkName('method', name);
  const owner = `method '${name}'`;
  if (typeof config !== 'object' || config === null)
    throw new TypeError(`${owner}: config expected an object`);
  for (const key of Object.keys(config)) {
    if (!CONFIG_KEYS.has(key)) throw new TypeError(`${owner}: unknown config member "${key}"`);
  }
  const { params, resolve }: { readonly params?: unknown; readonly resolve?: unknown } = config;
  const served = params === undefined ? EMPTY_INPUT : serveSchema(params, 'input', `${owner}: "params"`);
  checkHandler(owner, handler);
  const plan = planRegistration(owner, resolve, served.keys, options);
  return {
    params: paramsWithout(served.standard, plan),
    inputRequired: true,
    handler: async (args: Record<string, unknown>, ctx: RequestContext) => {
      const own = withoutResolved(args, plan);
      const round = await runResolvers(plan, own, ctx).catch(rethrowResolution);
      if (round.kind === 'input_required') return round.result;
      const value = await handler(own, round.values, ctx);
      if (isInputRequired(value) && plan !== undefined) {
        throw new Error(`${owner} returned an InputRequiredResult but uses resolvers`);
      }
      return value as never;
    },
  };
}

/** `schema` as a Standard Schema that first drops the names `plan` resolves. */
function paramsWithout(schema: StandardSchemaV1, plan: ResolverPlan | undefined): StandardSchemaV1 {
  if (plan === undefined) return schema;
  const standard = schema['~standard'];
  return {
    '~standard': {
      version: 1,
      vendor: standard.vendor,
      validate: (value) =>
        standard.validate(
          typeof value === 'object' && value !== null
            ? withoutResolved(value as Record<string, unknown>, plan)
            : value,
        ),
    },
  };
}
