import { argumentError } from './guards.js';
import { isPlainObject } from './jsonrpc.js';
import type {
  CreateMessageRequest,
  CreateMessageRequestParams,
  ElicitRequest,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  InputRequests,
  InputRequiredResult,
  ListRootsRequest,
} from './schema/index.js';

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

const INPUT_REQUEST_METHODS: ReadonlySet<unknown> = new Set([
  'elicitation/create',
  'sampling/createMessage',
  'roots/list',
]);

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
      if (!isPlainObject(entry) || !INPUT_REQUEST_METHODS.has(entry.method)) {
        throw argumentError(
          `inputRequests.${key}`,
          'an ElicitRequest, CreateMessageRequest or ListRootsRequest',
          entry,
        );
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

/** Params of a form-mode elicitation; `mode` may be left out (it is always `"form"`). */
export type ElicitFormInit = ElicitRequestFormParams;

/** `Omit` that keeps the known members of a type with an index signature (all our wire types have one). */
type OmitKnown<T, K extends PropertyKey> = { [P in keyof T as P extends K ? never : P]: T[P] };

/** Params of a URL-mode elicitation; `mode` may be left out (it is always `"url"`). */
export type ElicitUrlInit = OmitKnown<ElicitRequestURLParams, 'mode'> & { mode?: 'url' };

/**
 * Builds a form-mode `elicitation/create` input request: `{ method, params: { mode: "form", message,
 * requestedSchema } }`. `mode` is written explicitly although form is the default, so the request reads the same
 * to every client. The server must only send it to a client that declared `elicitation` in this request. Forms
 * must not ask for secrets (use {@link elicitUrlRequest}). Throws `TypeError` for a missing `message` or
 * `requestedSchema`, or a `mode` other than `"form"`.
 */
export function elicitRequest(params: ElicitFormInit): ElicitRequest {
  if (!isPlainObject(params)) throw argumentError('params', 'plain object', params);
  if (params.mode !== undefined && params.mode !== 'form') throw argumentError('mode', '"form"', params.mode);
  if (typeof params.message !== 'string') throw argumentError('message', 'string', params.message);
  const schema: unknown = params.requestedSchema;
  if (!isPlainObject(schema) || schema.type !== 'object' || !isPlainObject(schema.properties)) {
    throw argumentError('requestedSchema', '{ type: "object", properties: {...} }', schema);
  }
  const { mode: _form, ...rest } = params;
  return { method: 'elicitation/create', params: { mode: 'form', ...rest } } as ElicitRequest;
}

/**
 * Builds a URL-mode `elicitation/create` input request: `{ method, params: { mode: "url", message, url } }`, for
 * interactions that must not pass through the client (credentials, payments, third-party OAuth). The client's
 * `accept` only means the user agreed to open the URL; the server learns completion itself and reports it on the
 * retry. Needs `elicitation.url` in this request's client capabilities. In 2026-07-28 there is no
 * `elicitationId`: correlate through `requestState`. Throws `TypeError` for a missing `message`, a `url` that is
 * not an absolute URL, or a `mode` other than `"url"`.
 */
export function elicitUrlRequest(params: ElicitUrlInit): ElicitRequest {
  if (!isPlainObject(params)) throw argumentError('params', 'plain object', params);
  if (params.mode !== undefined && params.mode !== 'url') throw argumentError('mode', '"url"', params.mode);
  if (typeof params.message !== 'string') throw argumentError('message', 'string', params.message);
  if (typeof params.url !== 'string' || !URL.canParse(params.url)) {
    throw argumentError('url', 'absolute URL string', params.url);
  }
  const { mode: _url, ...rest } = params;
  return { method: 'elicitation/create', params: { mode: 'url', ...rest } } as ElicitRequest;
}

/**
 * Builds a `sampling/createMessage` input request: `{ method, params }`. Needs `sampling` in this request's client
 * capabilities (and `sampling.tools` when `tools` or `toolChoice` is set). Sampling is deprecated in 2026-07-28 but
 * fully specified. Throws `TypeError` when `messages` is not an array or `maxTokens` not an integer.
 */
export function createMessageRequest(params: CreateMessageRequestParams): CreateMessageRequest {
  if (!isPlainObject(params)) throw argumentError('params', 'plain object', params);
  if (!Array.isArray(params.messages)) throw argumentError('messages', 'array', params.messages);
  if (!Number.isSafeInteger(params.maxTokens)) throw argumentError('maxTokens', 'integer', params.maxTokens);
  return { method: 'sampling/createMessage', params: { ...params } } as CreateMessageRequest;
}

/**
 * Builds a `roots/list` input request: `{ method: "roots/list" }` (no params, as on the wire). Needs `roots` in
 * this request's client capabilities. Roots are deprecated in 2026-07-28: prefer tool arguments or configuration.
 */
export function listRootsRequest(): ListRootsRequest {
  return { method: 'roots/list' } as ListRootsRequest;
}
