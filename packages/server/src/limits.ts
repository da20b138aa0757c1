// The bounds on the work one request can cause before its handler runs: how many answers it may bring back, and
// how deeply the arguments bound into sealed request state may nest.
import { describeIssues, ErrorCode, isPlainObject, McpError } from '@boomerang/protocol';
import { InputResponsesSchema, safeParse } from '@boomerang/protocol/schemas';

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
    // Checked as a record of one: the record schema has a fast check, so answers of the usual shapes never reach
    // zod (tens of microseconds each, on every round of every call).
    const answer = safeParse(InputResponsesSchema, { [key]: value[key] });
    if (!answer.success) {
      const issues = answer.error.issues.map((issue) => ({
        ...issue,
        path: ['inputResponses', ...issue.path],
      }));
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: ${describeIssues(issues)}`);
    }
  }
}

/**
 * Deepest nesting of the arguments of a multi-round-trip request when request state is sealed: they are bound
 * into the state by their canonical JSON, written recursively, so a 100,000-deep argument would exhaust the
 * stack on every request. Far above any real tool argument.
 */
export const MAX_ARGUMENT_DEPTH = 512;

/**
 * Throws `-32602` when `value` nests objects or arrays deeper than {@link MAX_ARGUMENT_DEPTH} levels. Walks
 * iteratively, so the check itself never recurses; it stops at the first member too deep.
 */
export function checkArgumentDepth(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const current = values.pop() as Record<string, unknown>;
    const depth = depths.pop() as number;
    for (const key in current) {
      const member = current[key];
      if (typeof member !== 'object' || member === null) continue;
      if (depth >= MAX_ARGUMENT_DEPTH) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid params: arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels`,
        );
      }
      values.push(member);
      depths.push(depth + 1);
    }
  }
}
