// `resume()`'s first step: the continuation and the answers are checked before anything is sent, and become the
// call, the options and the flow the runner steps on from.
import type { InputResponses, StandardSchemaV1 } from '@boomerang/protocol';
import type { Flow } from '../call-runner.js';
import { type Call, callOf, type ToolResultCheck } from '../calls.js';
import { type Continuation, continuationProblem, responsesProblem } from '../continuation.js';
import { invalidContinuation, invalidInputResponses } from '../errors.js';
import { roundInputs } from '../mrtr-loop.js';
import type { CallOptions } from '../options.js';

/** The next step of a resumed flow, ready to run. */
export interface Resumption {
  readonly call: Call<unknown>;
  readonly options: CallOptions;
  readonly flow: Flow;
}

/**
 * Checks `continuation` (`invalid-continuation`) and `responses` (`invalid-input-responses`), and returns the step
 * that sends them: the continuation's call (validated by `options.result` when given, else the spec's result, a
 * tool's then passing `checkTool`), its `meta` unless the options bring their own, and its round and carried values.
 */
export async function resumption(
  continuation: Continuation,
  responses: InputResponses,
  options: CallOptions & { readonly result?: StandardSchemaV1 },
  checkTool: ToolResultCheck | undefined,
): Promise<Resumption> {
  const problem = await continuationProblem(continuation);
  if (problem !== undefined) throw invalidContinuation(continuation, problem);
  const call = callOf<unknown>(continuation.method, continuation.params, options.result, checkTool);
  const wrong = await responsesProblem(continuation, responses);
  if (wrong !== undefined) throw invalidInputResponses(call.origin, wrong.problem, wrong.keys);
  const inputs = roundInputs(responses, continuation.requestState);
  const meta = options.meta ?? continuation.meta;
  const flow = { inputs, before: continuation.round, pause: true, carried: continuation.carried };
  return { call, options: meta === undefined ? options : { ...options, meta }, flow };
}
