// The hand-written checks of a multi-round-trip round as a client sees it: the `InputRequiredResult` and the input
// requests it embeds (schema/mrtr.ts), each checked by the params check of its kind's row (input-request-kinds.ts).
// Each accepts only what the zod schema of the same name accepts (checks.test.ts pits them against each other).
import { inputRequestKind } from '../input-request-kinds.js';
import { isResultMeta } from './content.js';
import { type Check, isObject, isRecord, optional, optionalString } from './shapes.js';

/** `InputRequestSchema`: an input request of a kind the table knows, by `method`, with the params of that kind. */
function isInputRequest(value: unknown): boolean {
  if (!isObject(value)) return false;
  return inputRequestKind(value.method)?.isParams(value.params) === true;
}

/** `InputRequestsSchema`: keys to input requests. */
export const isInputRequests: Check = (value) => isRecord(value, isInputRequest);

/** `InputRequiredResultSchema`: `inputRequests` and/or `requestState`. */
export function isInputRequiredResult(value: unknown): boolean {
  if (!isObject(value) || value.resultType !== 'input_required') return false;
  const { inputRequests, requestState } = value;
  return (
    (inputRequests !== undefined || requestState !== undefined) &&
    optionalString(requestState) &&
    optional(inputRequests, isInputRequests) &&
    optional(value._meta, isResultMeta)
  );
}
