// Builders of the input requests a server embeds in an `InputRequiredResult`: one per kind of request (two for
// elicitation, one per mode), each listed in its kind's row (input-request-kinds.ts).
import { argumentError } from './guards.js';
import { isPlainObject } from './jsonrpc.js';
import type {
  CreateMessageRequest,
  CreateMessageRequestParams,
  ElicitRequest,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ListRootsRequest,
} from './schema/index.js';

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
  return { method: 'elicitation/create', params: { mode: 'form', ...rest } };
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
  return { method: 'elicitation/create', params: { mode: 'url', ...rest } };
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
  return { method: 'sampling/createMessage', params: { ...params } };
}

/**
 * Builds a `roots/list` input request: `{ method: "roots/list" }` (no params, as on the wire). Needs `roots` in
 * this request's client capabilities. Roots are deprecated in 2026-07-28: prefer tool arguments or configuration.
 */
export function listRootsRequest(): ListRootsRequest {
  return { method: 'roots/list' };
}
