import { argumentError } from './guards.js';
import { INPUT_REQUEST_KINDS, inputRequestKind } from './input-request-kinds.js';
import { isPlainObject } from './jsonrpc.js';
import type { InputRequests, InputRequiredResult } from './schema/index.js';

/**
 * How a client reads a result's `resultType`: `"complete"` (also when absent: servers of earlier revisions do not
 * send it, and the spec says to treat that as complete), `"input_required"`, or `"invalid"` for any other value and
 * for a non-object result (the spec says an unrecognised `resultType` MUST be treated as invalid).
 */
export type ResultKind = 'complete' | 'input_required' | 'invalid';

/**
 * Classifies a result by its `resultType` (see {@link ResultKind}). Only the discriminant is read; the rest of
 * the result is validated by its schema afterwards. Never throws.
 */
export function resultTypeOf(result: unknown): ResultKind {
  if (!isPlainObject(result)) return 'invalid';
  const type = Object.hasOwn(result, 'resultType') ? result.resultType : undefined;
  if (type === undefined || type === 'complete') return 'complete';
  return type === 'input_required' ? 'input_required' : 'invalid';
}

/**
 * Client-side normalisation, run before schema validation: a plain-object result without `resultType` gets a
 * shallow copy with `resultType: "complete"` (backward compatibility with earlier revisions). Anything else,
 * including results with an unknown `resultType` and non-objects, is returned unchanged for the schema to judge.
 * The input is never mutated. Never throws.
 */
export function normalizeResult<T>(result: T): T {
  if (!isPlainObject(result) || result.resultType !== undefined) return result;
  // Spread defines data properties, so an own `__proto__` member stays a plain member.
  return { ...result, resultType: 'complete' } as T;
}

/**
 * Narrows a result to {@link InputRequiredResult}: a plain object with `resultType: "input_required"` whose
 * `inputRequests` (when present) is a plain object and `requestState` (when present) a string. It does not
 * validate each input request: do that with `InputRequiredResultSchema` when the value comes off the wire.
 */
export function isInputRequired(result: unknown): result is InputRequiredResult {
  if (!isPlainObject(result) || result.resultType !== 'input_required') return false;
  const { inputRequests, requestState } = result;
  return (
    (inputRequests === undefined || isPlainObject(inputRequests)) &&
    (requestState === undefined || typeof requestState === 'string')
  );
}

/** What {@link inputRequired} takes: at least one of the two members (spec S5). */
export interface InputRequiredInit {
  /** The questions for the client, under server-chosen keys; the retry answers under the same keys. */
  inputRequests?: InputRequests;
  /** Opaque state the client echoes byte for byte on the retry. Treat it as attacker-controlled when it returns. */
  requestState?: string;
}

/**
 * Builds `{ resultType: "input_required", inputRequests?, requestState? }`: the answer of `tools/call`,
 * `prompts/get` or `resources/read` when the server needs input only the client has.
 *
 * Throws `TypeError` when neither member is given (an empty `inputRequests` without `requestState` counts as
 * neither: the client would retry with nothing new, forever), when `requestState` is not a string, when
 * `inputRequests` is not a plain object, or when one of its entries is not an input request (`method`
 * `elicitation/create`, `sampling/createMessage` or `roots/list`). Build entries with {@link elicitRequest},
 * {@link elicitUrlRequest}, {@link createMessageRequest} and {@link listRootsRequest}.
 */
export function inputRequired(init: InputRequiredInit): InputRequiredResult {
  if (!isPlainObject(init)) throw argumentError('init', '{ inputRequests?, requestState? }', init);
  const { inputRequests, requestState } = init;
  if (requestState !== undefined && typeof requestState !== 'string') {
    throw argumentError('requestState', 'string', requestState);
  }
  if (inputRequests !== undefined) {
    if (!isPlainObject(inputRequests)) throw argumentError('inputRequests', 'plain object', inputRequests);
    for (const key of Object.keys(inputRequests)) {
      const entry: unknown = inputRequests[key];
      if (!isPlainObject(entry) || inputRequestKind(entry.method) === undefined) {
        throw argumentError(`inputRequests.${key}`, inputRequestNames(), entry);
      }
    }
  }
  const asks = inputRequests !== undefined && Object.keys(inputRequests).length > 0;
  if (!asks && requestState === undefined) {
    throw new TypeError(
      '"inputRequests" or "requestState" expected (an InputRequiredResult needs at least one)',
    );
  }
  const result: Record<string, unknown> = { resultType: 'input_required' };
  if (inputRequests !== undefined) result.inputRequests = inputRequests;
  if (requestState !== undefined) result.requestState = requestState;
  return result as InputRequiredResult;
}

/** `an ElicitRequest, CreateMessageRequest or ListRootsRequest`: every kind of input request, by its schema's name. */
function inputRequestNames(): string {
  const names = Object.values(INPUT_REQUEST_KINDS).map((kind) => kind.request);
  return `an ${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
