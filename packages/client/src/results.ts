import {
  type CallToolResult,
  type CompleteResult,
  type DiscoverResult,
  describeIssues,
  type GetPromptResult,
  type InputRequiredMethod,
  type InputRequiredResult,
  isInputRequiredMethod,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  normalizeResult,
  type ReadResourceResult,
  resultTypeOf,
  type StandardSchemaV1,
  type Validation,
  validate,
} from '@boomerang/protocol';
import {
  type CheckedMessages,
  type CheckedName,
  type LazyParseResult,
  parseLazily,
} from '@boomerang/protocol/internal';
import { invalidResult } from './errors.js';
import { mayAnswerInputRequired } from './methods.js';
import { asks } from './mrtr-loop.js';

/** The complete result of each method a client sends. */
export interface ResultByMethod {
  'server/discover': DiscoverResult;
  'tools/list': ListToolsResult;
  'tools/call': CallToolResult;
  'prompts/list': ListPromptsResult;
  'prompts/get': GetPromptResult;
  'resources/list': ListResourcesResult;
  'resources/templates/list': ListResourceTemplatesResult;
  'resources/read': ReadResourceResult;
  'completion/complete': CompleteResult;
}

/** A method this client sends. */
export type ClientMethod = keyof ResultByMethod;

/** What a method may answer: its complete result, or for the three MRTR methods an `InputRequiredResult`. */
export type AnswerOf<M extends ClientMethod> = M extends InputRequiredMethod
  ? ResultByMethod[M] | InputRequiredResult
  : ResultByMethod[M];

/** The message each method's complete result is validated as (its zod schema is `<name>Schema`). */
const RESULTS = {
  'server/discover': 'DiscoverResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'completion/complete': 'CompleteResult',
} as const satisfies { readonly [M in ClientMethod]: CheckedName };

/**
 * Reads the raw `result` of a `method` response the way the spec asks a client to: normalise first (a missing
 * `resultType` is `"complete"`, for servers of earlier revisions), then validate with the protocol schema chosen
 * by `resultType`. Throws an `invalid-result` `ClientError` for an unknown `resultType`, for `input_required` on a
 * method other than `tools/call`, `prompts/get` and `resources/read`, for an `InputRequiredResult` that asks
 * nothing and carries no state (spec S5: retrying it could only loop), and for a shape the schema rejects.
 * Synchronous when the protocol's hand-written check accepts the result; a result it cannot vouch for is judged
 * by zod, loaded on demand, so the answer (or the rejection) is then a promise.
 */
export function parseResult<M extends ClientMethod>(
  method: M,
  raw: unknown,
): AnswerOf<M> | Promise<AnswerOf<M>> {
  const result = normalizeResult(raw);
  const inputRequired = inputRequiredOf(method, result, isInputRequiredMethod(method));
  if (inputRequired !== undefined) return inputRequired as AnswerOf<M> | Promise<AnswerOf<M>>;
  return validateWith(method, RESULTS[method], 'the result', result) as AnswerOf<M> | Promise<AnswerOf<M>>;
}

/**
 * Reads the raw `result` of any method like {@link parseResult}, validating a complete result with `schema` (any
 * Standard Schema: zod 4, valibot, arktype…) and resolving to its output. `input_required` is accepted where
 * `mayAnswerInputRequired` says so. Synchronous when the schema validates synchronously (and an
 * `InputRequiredResult` passes the protocol's hand-written check).
 */
export function readResult<S extends StandardSchemaV1>(
  method: string,
  raw: unknown,
  schema: S,
):
  | StandardSchemaV1.InferOutput<S>
  | InputRequiredResult
  | Promise<StandardSchemaV1.InferOutput<S> | InputRequiredResult> {
  const result = normalizeResult(raw);
  const inputRequired = inputRequiredOf(method, result, mayAnswerInputRequired(method));
  if (inputRequired !== undefined) return inputRequired;
  const settle = (outcome: Validation<StandardSchemaV1.InferOutput<S>>) => {
    if (outcome.ok) return outcome.value;
    const problem = `the result does not match its schema (${describeIssues(outcome.issues, 'result')})`;
    throw invalidResult(method, problem, result, outcome.issues);
  };
  const outcome = validate(schema, result);
  return outcome instanceof Promise ? outcome.then(settle) : settle(outcome);
}

/**
 * The valid `InputRequiredResult` a normalised result is, where `mayAsk`; `undefined` for a complete result (to
 * validate with its method's schema). Throws `invalid-result` for an unknown `resultType`, `input_required` where
 * the method cannot ask, and an `InputRequiredResult` that asks nothing and carries no state.
 */
function inputRequiredOf(
  method: string,
  result: unknown,
  mayAsk: boolean,
): InputRequiredResult | Promise<InputRequiredResult> | undefined {
  const kind = resultTypeOf(result);
  if (kind === 'complete') return undefined;
  if (kind === 'invalid') {
    const type =
      typeof result === 'object' && result !== null
        ? (result as { resultType?: unknown }).resultType
        : result;
    throw invalidResult(method, `unknown resultType ${JSON.stringify(type) ?? String(type)}`, result);
  }
  if (!mayAsk) {
    throw invalidResult(
      method,
      'resultType "input_required" is only allowed on tools/call, prompts/get, resources/read and methods outside the spec',
      result,
    );
  }
  const checkAsks = (irr: InputRequiredResult): InputRequiredResult => {
    if (!asks(irr) && irr.requestState === undefined) {
      throw invalidResult(method, 'an InputRequiredResult needs inputRequests or requestState', result);
    }
    return irr;
  };
  const irr = validateWith(method, 'InputRequiredResult', 'the InputRequiredResult', result);
  return irr instanceof Promise ? irr.then(checkAsks) : checkAsks(irr);
}

/**
 * `result` validated as the message `name`: at once when the hand-written check accepts it, else once zod (loaded
 * on demand) has judged it. Throws (or rejects with) `invalid-result`, naming zod's first issue.
 */
function validateWith<N extends CheckedName>(
  method: string,
  name: N,
  what: string,
  result: unknown,
): CheckedMessages[N] | Promise<CheckedMessages[N]> {
  const settle = (parsed: LazyParseResult<CheckedMessages[N]>): CheckedMessages[N] => {
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const where = issue?.path?.length ? `${issue.path.map(String).join('.')}: ` : '';
    const detail = issue?.message === undefined ? '' : ` (${where}${issue.message})`;
    throw invalidResult(method, `${what} does not match its schema${detail}`, result, parsed.error);
  };
  const parsed = parseLazily(name, result);
  return parsed instanceof Promise ? parsed.then(settle) : settle(parsed);
}
