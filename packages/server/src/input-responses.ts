import {
  describeIssues,
  ErrorCode,
  InputResponseSchema,
  isPlainObject,
  McpError,
  safeParse,
} from '@boomerang/protocol';

/**
 * Most input requests one `InputRequiredResult` may carry, and so most `inputResponses` entries one request may
 * bring back. A bound on the work a request can cause before any handler runs: validating an invalid answer
 * costs tens of microseconds, so 100,000 of them used to hold the event loop for seconds.
 */
export const MAX_INPUT_REQUESTS = 256;

/**
 * Checks a request's `inputResponses` with bounded work, before its params are validated as a whole: at most
 * {@link MAX_INPUT_REQUESTS} entries (counted without looking at them; beyond, `-32602` at once), each a valid
 * answer (the first invalid one is reported and the rest are never looked at). Anything but a plain object is
 * left to the params schema.
 */
export function checkInputResponses(value: unknown): void {
  if (!isPlainObject(value)) return;
  let entries = 0;
  for (const _ in value) {
    if (++entries > MAX_INPUT_REQUESTS) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid params: inputResponses has more than ${MAX_INPUT_REQUESTS} entries`,
      );
    }
  }
  for (const key in value) {
    const answer = safeParse(InputResponseSchema, value[key]);
    if (!answer.success) {
      const issues = answer.error.issues.map((issue) => ({
        ...issue,
        path: ['inputResponses', key, ...issue.path],
      }));
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: ${describeIssues(issues)}`);
    }
  }
}
