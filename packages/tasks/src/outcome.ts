// What one round of a task came to (a result, questions, or an error), read from the handler's return value, and
// the members that outcome writes over the task.
import {
  type CallToolResult,
  describeIssues,
  ErrorCode,
  type InputRequests,
  isInputRequired,
} from '@boomerang/protocol';
import { CallToolResultSchema, safeParse } from '@boomerang/protocol/schemas';
import { type LogFn, missingClientCapabilities } from '@boomerang/server';
import type { TaskError } from './schema.js';
import { define } from './state.js';
import type { TaskRecord } from './store.js';

/** How a round ended: with the tool's result, with questions (or only new state), or with an error. */
export type Outcome =
  | { kind: 'result'; result: Record<string, unknown> }
  | { kind: 'input'; inputRequests: InputRequests | undefined; requestState: string | undefined }
  | { kind: 'error'; error: TaskError };

/** A handler's return value, as a round outcome; what is not a valid result is logged with `error`. */
export function classify(value: unknown, error: LogFn): Outcome {
  if (isInputRequired(value)) {
    return { kind: 'input', inputRequests: value.inputRequests, requestState: value.requestState };
  }
  const type = (value as { resultType?: unknown } | null)?.resultType;
  if (type !== undefined && type !== 'complete') {
    error(`a tools/call handler returned resultType ${JSON.stringify(type)} inside a task`);
    return { kind: 'error', error: { code: ErrorCode.InternalError, message: 'Internal error' } };
  }
  const result = { ...(value as Record<string, unknown>), resultType: 'complete' };
  const checked = safeParse(CallToolResultSchema, result);
  if (!checked.success) {
    error(
      `a task's tools/call handler returned an invalid result: ${describeIssues(checked.error.issues, 'result')}`,
    );
    return { kind: 'error', error: { code: ErrorCode.InternalError, message: 'Internal error' } };
  }
  return { kind: 'result', result: result as CallToolResult };
}

/** The members a finished round writes over a `working` task. */
export function settle(record: TaskRecord, outcome: Outcome): Partial<TaskRecord> {
  if (outcome.kind === 'error') return failure(outcome.error);
  if (outcome.kind === 'result') {
    return {
      status: 'completed',
      result: outcome.result,
      statusMessage: undefined,
      leaseUntil: null,
      inputRequests: undefined,
      inputResponses: undefined,
      requestState: undefined,
    };
  }
  const asked = outcome.inputRequests as InputRequests;
  const missing = missingClientCapabilities(asked, record.origin.clientCapabilities);
  if (missing !== undefined) {
    return failure({
      code: ErrorCode.MissingRequiredClientCapability,
      message: 'Missing required client capability',
      data: { requiredCapabilities: missing },
    });
  }
  const round = record.round + 1;
  const inputRequests: InputRequests = {};
  for (const [key, request] of Object.entries(asked)) define(inputRequests, `${round}.${key}`, request);
  const first = Object.values(asked)[0] as { params?: { message?: unknown } };
  return {
    status: 'input_required',
    round,
    inputRequests,
    inputResponses: {},
    requestState: outcome.requestState,
    leaseUntil: null,
    statusMessage: typeof first.params?.message === 'string' ? first.params.message : undefined,
  };
}

/** The members that fail a task with `taskError` (and drop what it was waiting on). */
export function failure(taskError: TaskError): Partial<TaskRecord> {
  return {
    status: 'failed',
    error: taskError,
    statusMessage: taskError.message,
    leaseUntil: null,
    inputRequests: undefined,
    inputResponses: undefined,
    requestState: undefined,
  };
}
