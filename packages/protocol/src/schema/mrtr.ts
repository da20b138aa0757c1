// Multi-round-trip requests (MRTR): instead of calling the client back, a server returns an
// `InputRequiredResult`; the client answers each embedded request and retries with `inputResponses`.
import type { z } from 'zod';
import { ElicitRequestSchema, ElicitResultSchema } from './elicitation.js';
import { RequestParamsSchema, ResultSchema } from './meta.js';
import { ListRootsRequestSchema, ListRootsResultSchema } from './roots.js';
import { CreateMessageRequestSchema, CreateMessageResultSchema } from './sampling.js';
import { lazySchema, zod } from './zod.js';

/** One question a server embeds in an `InputRequiredResult`, discriminated by `method`. */
export const InputRequestSchema = lazySchema(() =>
  zod.discriminatedUnion('method', [CreateMessageRequestSchema, ListRootsRequestSchema, ElicitRequestSchema]),
);
/** One question a server embeds in an `InputRequiredResult`. */
export type InputRequest = z.infer<typeof InputRequestSchema>;

/**
 * The client's answer to one input request. The three results share no tag (the key in `inputResponses` says
 * which request it answers), so a plain union, tried in schema order: the elicitation result first (the common
 * answer, and cheap to reject: it needs `action`), the sampling result last (rejecting it builds issues for
 * its content union). Every member is a loose object, so a value that fits two members keeps all its members
 * whichever one matches.
 */
export const InputResponseSchema = lazySchema(() =>
  zod.union([ElicitResultSchema, ListRootsResultSchema, CreateMessageResultSchema]),
);
/** The client's answer to one input request. */
export type InputResponse = z.infer<typeof InputResponseSchema>;

/** Server-chosen keys → the requests the client must fulfil before retrying. */
export const InputRequestsSchema = lazySchema(() => zod.record(zod.string(), InputRequestSchema));
/** Server-chosen keys → input requests. */
export type InputRequests = z.infer<typeof InputRequestsSchema>;

/** The client's answers, under the same keys as the `inputRequests` they answer. */
export const InputResponsesSchema = lazySchema(() => zod.record(zod.string(), InputResponseSchema));
/** The client's answers, keyed like the requests. */
export type InputResponses = z.infer<typeof InputResponsesSchema>;

/**
 * "Ask and call again": `resultType: "input_required"` with `inputRequests` and/or an opaque `requestState`
 * the client echoes byte for byte. Legal only on `tools/call`, `prompts/get`, `resources/read`. At least one
 * of the two fields must be present (a MUST of the spec that schema.json cannot express); one with neither is
 * rejected.
 */
export const InputRequiredResultSchema = lazySchema(() =>
  ResultSchema.extend({
    resultType: zod.literal('input_required'),
    inputRequests: InputRequestsSchema.optional(),
    requestState: zod.string().optional(),
  }).refine((result) => result.inputRequests !== undefined || result.requestState !== undefined, {
    message: 'InputRequiredResult needs inputRequests or requestState',
  }),
);
/** "Ask and call again": the result that starts another round. */
export type InputRequiredResult = z.infer<typeof InputRequiredResultSchema>;

/**
 * Request params on a retry: `_meta`, the `inputResponses` for the previous round's `inputRequests`, and the
 * echoed `requestState`. The three MRTR methods extend this.
 */
export const InputResponseRequestParamsSchema = lazySchema(() =>
  RequestParamsSchema.extend({
    inputResponses: InputResponsesSchema.optional(),
    requestState: zod.string().optional(),
  }),
);
/** Request params on a retry. */
export type InputResponseRequestParams = z.infer<typeof InputResponseRequestParamsSchema>;
