// The params objects the client sends: built fresh per request, as literals (on Node 20's V8, adding members to a
// spread copy costs several times more, and these run on every round).
import type { OriginatingRequest } from './errors.js';
import type { RoundInputs } from './mrtr-loop.js';
import type { InputRequiredCallOptions } from './options.js';

/** A copy of `params` without its `undefined` members, so that every transport sends the same JSON. */
export function withoutUndefined(params: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));
}

/** The inputs of a call's first request: none, or the seeds of a resumed flow. */
export function firstInputs(options: InputRequiredCallOptions): RoundInputs {
  const inputs: { -readonly [K in keyof RoundInputs]: RoundInputs[K] } = {};
  if (options.inputResponses !== undefined) inputs.inputResponses = options.inputResponses;
  if (options.requestState !== undefined) inputs.requestState = options.requestState;
  return inputs;
}

/**
 * `{ ...params, ...inputs }` for params made by {@link paramsOf}, as a fresh object literal.
 */
export function roundParams(params: Record<string, unknown>, inputs: RoundInputs): Record<string, unknown> {
  const out: Record<string, unknown> =
    params.uri !== undefined
      ? { uri: params.uri }
      : params.arguments === undefined
        ? { name: params.name }
        : { name: params.name, arguments: params.arguments };
  if (inputs.inputResponses !== undefined) out.inputResponses = inputs.inputResponses;
  if (inputs.requestState !== undefined) out.requestState = inputs.requestState;
  return out;
}

/** The original params of an MRTR call (before `_meta` and the round inputs): `{ name, arguments? }` or `{ uri }`. */
export function paramsOf(
  request: OriginatingRequest,
  args: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (request.method === 'resources/read') return { uri: request.uri };
  return args === undefined ? { name: request.name } : { name: request.name, arguments: args };
}
