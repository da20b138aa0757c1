// The continuation: an MRTR flow paused at a round that asks, as plain, versioned JSON that any process with a
// connected client can resume. The wire format is documented here, next to the code that writes and reads it.
import {
  type InputRequest,
  type InputRequests,
  type InputRequiredResult,
  type InputResponses,
  isPlainObject,
} from '@boomerang/protocol';
import { INPUT_REQUEST_KINDS, parseLazily } from '@boomerang/protocol/internal';
import { mayAnswerInputRequired } from './methods.js';

/** The most characters a call's middleware may carry into its continuation, keys and values together. */
export const MAX_CALL_CARRIED = 2_048;

/** The version of the continuation format this client writes and resumes. */
export const CONTINUATION_VERSION = 1;

/**
 * An MRTR flow paused at a round that asks, as `client.start()` and `client.resume()` return it: plain JSON
 * (store it with `JSON.stringify`, anywhere: a file, a database row, a queue) that
 * `client.resume(continuation, responses)` continues from any process with a connected client. Version 1:
 *
 * ```json
 * { "version": 1, "method": "tools/call", "params": { "name": "provision", "arguments": { "name": "orders" } },
 *   "inputRequests": { "region": { "method": "elicitation/create", "params": { … } } },
 *   "requestState": "<opaque, as the server sent it>", "round": 1, "createdAt": "2026-07-28T10:00:00.000Z",
 *   "meta": { "tenant": "acme" }, "carried": { "otel.flow": "00-…" } }
 * ```
 *
 * `meta` (the call's `CallOptions.meta`, sent again with every resumed round unless `resume()` is given its own)
 * and `carried` (what the call's middleware kept for the steps that resume it: a trace context) are there only
 * when not empty.
 *
 * Its `requestState` is the server's, carried byte for byte and never read: whatever the flow depends on is
 * protected there (a Boomerang server seals it, binding it to the method, the tool and its arguments, the user
 * and an expiry), so a continuation changed in storage is refused by the server when resumed. `M` types the
 * method, so a `tools/call` continuation resumes to a `CallToolResult`.
 */
export interface Continuation<M extends string = string> {
  /** The format version: `1`. */
  readonly version: typeof CONTINUATION_VERSION;
  /** The flow's method: `tools/call`, `prompts/get`, `resources/read`, or a method outside the spec. */
  readonly method: M;
  /** The original params, repeated by every round (no `_meta`, no `inputResponses`, no `requestState`). */
  readonly params: Readonly<Record<string, unknown>>;
  /** The questions to answer, by the keys their answers go under. Never empty. */
  readonly inputRequests: InputRequests;
  /** The server's state, exactly as received; absent when the server sent none. */
  readonly requestState?: string;
  /** Which `input_required` result of the flow this is: 1, 2, … */
  readonly round: number;
  /** When this continuation was made (ISO 8601, UTC). */
  readonly createdAt: string;
  /** The call's `CallOptions.meta`, merged into every resumed request's `_meta`; absent when there was none. */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** What the call's middleware carried for the steps that resume it; absent when nothing. */
  readonly carried?: Readonly<Record<string, string>>;
}

/**
 * One step of a flow: the complete result, or the continuation of a flow that waits for answers. Narrow it with
 * `if (step.continuation)`.
 */
export type Step<R, M extends string = string> =
  | { readonly result: R; readonly continuation?: undefined }
  | { readonly continuation: Continuation<M>; readonly result?: undefined };

/** The continuation of a flow of `method(params)` paused at `result`, round `round` of the flow. */
export function toContinuation<M extends string>(
  method: M,
  params: Readonly<Record<string, unknown>>,
  result: InputRequiredResult,
  round: number,
  extra: {
    readonly meta?: Readonly<Record<string, unknown>> | undefined;
    readonly carried?: Readonly<Record<string, string>> | undefined;
  } = {},
): Continuation<M> {
  const continuation: {
    -readonly [K in keyof Continuation<M>]: Continuation<M>[K];
  } = {
    version: CONTINUATION_VERSION,
    method,
    params: structuredClone(params) as Record<string, unknown>,
    inputRequests: result.inputRequests ?? {},
    round,
    createdAt: new Date().toISOString(),
  };
  if (result.requestState !== undefined) continuation.requestState = result.requestState;
  if (extra.meta !== undefined && Object.keys(extra.meta).length > 0) {
    continuation.meta = structuredClone(extra.meta) as Record<string, unknown>;
  }
  if (extra.carried !== undefined && Object.keys(extra.carried).length > 0)
    continuation.carried = { ...extra.carried };
  return continuation;
}

const MEMBERS: ReadonlySet<string> = new Set([
  'version',
  'method',
  'params',
  'inputRequests',
  'requestState',
  'round',
  'createdAt',
  'meta',
  'carried',
]);

/** What a continuation's params must not carry: the client adds them to each request itself. */
const ROUND_MEMBERS = ['_meta', 'inputResponses', 'requestState'] as const;

/**
 * Why `value` is not a continuation this client can resume, or `undefined` when it is one: the version is not
 * {@link CONTINUATION_VERSION}, a member is missing, mistyped or unknown, the method cannot ask, the params
 * carry round inputs or lack what the method needs (a tool or prompt `name`, a resource `uri`), or there is
 * nothing to answer. Asynchronous: questions the protocol's hand-written check cannot vouch for go to zod, loaded
 * on demand.
 */
export async function continuationProblem(value: unknown): Promise<string | undefined> {
  if (!isPlainObject(value)) return 'it is not an object';
  for (const key of Object.keys(value)) if (!MEMBERS.has(key)) return `unknown member "${key}"`;
  if (value.version !== CONTINUATION_VERSION) {
    return `version ${JSON.stringify(value.version)} is not ${CONTINUATION_VERSION}`;
  }
  const { method, params, inputRequests, requestState, round, createdAt } = value;
  if (typeof method !== 'string' || method === '') return '"method" is not a method name';
  if (!mayAnswerInputRequired(method)) return `${method} never answers input_required`;
  if (!isPlainObject(params)) return '"params" is not an object';
  for (const member of ROUND_MEMBERS) if (member in params) return `"params" carries "${member}"`;
  const problem = paramsProblem(method, params);
  if (problem !== undefined) return problem;
  const checked = parseLazily('InputRequests', inputRequests);
  const questions = checked instanceof Promise ? await checked : checked;
  if (!questions.success) return '"inputRequests" is not a valid set of input requests';
  if (Object.keys(questions.data).length === 0) return '"inputRequests" asks nothing';
  if (requestState !== undefined && typeof requestState !== 'string') return '"requestState" is not a string';
  if (!Number.isSafeInteger(round) || (round as number) < 1) return '"round" is not a positive integer';
  if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt)))
    return '"createdAt" is not a date';
  if (value.meta !== undefined && !isPlainObject(value.meta)) return '"meta" is not an object';
  const { carried } = value;
  if (carried !== undefined) {
    if (!isPlainObject(carried)) return '"carried" is not an object';
    let size = 0;
    for (const [key, member] of Object.entries(carried)) {
      if (typeof member !== 'string') return `"carried.${key}" is not a string`;
      size += key.length + member.length;
    }
    if (size > MAX_CALL_CARRIED) return `"carried" is over ${MAX_CALL_CARRIED} characters`;
  }
  return undefined;
}

/** What the params of a spec method must hold (a method outside the spec decides its own params). */
function paramsProblem(method: string, params: Record<string, unknown>): string | undefined {
  if (method === 'resources/read')
    return typeof params.uri === 'string' ? undefined : '"params.uri" is missing';
  if (method !== 'tools/call' && method !== 'prompts/get') return undefined;
  if (typeof params.name !== 'string') return '"params.name" is missing';
  const args = params.arguments;
  if (args === undefined) return undefined;
  if (!isPlainObject(args)) return '"params.arguments" is not an object';
  if (method === 'prompts/get' && Object.values(args).some((v) => typeof v !== 'string')) {
    return 'prompt arguments are strings';
  }
  return undefined;
}

/**
 * Why `responses` cannot answer `continuation`, with the keys at fault, or `undefined` when they can: an answer
 * under a key that was not asked, or an answer that is not of the kind its question asks (an `ElicitResult`, a
 * `CreateMessageResult`, a `ListRootsResult`). Questions left unanswered are the server's to ask again.
 * Asynchronous, like {@link continuationProblem}.
 */
export async function responsesProblem(
  continuation: Continuation,
  responses: unknown,
): Promise<{ problem: string; keys: string[] } | undefined> {
  if (!isPlainObject(responses)) return { problem: 'the responses are not an object', keys: [] };
  const keys = Object.keys(responses);
  const unasked = keys.filter((key) => !Object.hasOwn(continuation.inputRequests, key));
  if (unasked.length > 0) {
    return { problem: `answers for keys that were not asked: ${unasked.join(', ')}`, keys: unasked };
  }
  const verdicts = await Promise.all(
    keys.map((key) =>
      answers(continuation.inputRequests[key] as InputRequest, (responses as InputResponses)[key]),
    ),
  );
  const wrong = keys.filter((_, i) => !verdicts[i]);
  if (wrong.length > 0) {
    return {
      problem: `answers that are not of the kind their question asks: ${wrong.join(', ')}`,
      keys: wrong,
    };
  }
  return undefined;
}

/** True when `response` is the kind of answer `question` asks for: its kind's `result`. */
function answers(question: InputRequest, response: unknown): boolean | Promise<boolean> {
  const parsed = parseLazily(INPUT_REQUEST_KINDS[question.method].result, response);
  return parsed instanceof Promise ? parsed.then((outcome) => outcome.success) : parsed.success;
}
