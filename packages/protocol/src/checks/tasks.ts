// Hand-written checks for the answers of the tasks extension (tasks/schema.ts): the `CreateTaskResult` of a
// `tools/call`, `tasks/get`'s result and the `DetailedTask` of `notifications/tasks`. Each accepts only what the
// zod schema of the same name accepts (checks.test.ts pits them against each other).
import { isTaskStatus } from '../tasks/task.js';
import { isResultMeta } from './content.js';
import { isInputRequests } from './round.js';
import { type Check, isInt, isObject, isString, optional, optionalString } from './shapes.js';

/**
 * A time as `Date.prototype.toISOString` writes it (`2026-07-28T10:00:00.000Z`, years 0000 to 9999), which is
 * how servers write them: `z.iso.datetime({ offset: true })` accepts every such string. Other ISO 8601 forms
 * (offsets, other precisions) are left to zod.
 */
function isIsoTime(value: unknown): boolean {
  if (!isString(value) || value.length !== 24 || !/^\d{4}-/.test(value)) return false;
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString() === value;
}

/** An integer ≥ 0. */
const isCount = (value: unknown): boolean => isInt(value) && value >= 0;

/** `TaskSchema`'s members: a non-empty `taskId`, a known `status`, the two times and the durations. */
function isTaskIn(value: Record<string, unknown>): boolean {
  const { taskId, ttlMs } = value;
  return (
    isString(taskId) &&
    taskId.length > 0 &&
    isTaskStatus(value.status) &&
    optionalString(value.statusMessage) &&
    isIsoTime(value.createdAt) &&
    isIsoTime(value.lastUpdatedAt) &&
    (ttlMs === null || isCount(ttlMs)) &&
    optional(value.pollIntervalMs, isCount)
  );
}

/** `ErrorSchema`: an integer `code`, a `message`, any `data`. */
const isErrorObject = (value: unknown): boolean =>
  isObject(value) && isInt(value.code) && isString(value.message);

/** The payload a `DetailedTask`'s status requires (the variants of `DetailedTaskSchema`). */
function hasStatusPayload(value: Record<string, unknown>): boolean {
  switch (value.status) {
    case 'input_required':
      return isInputRequests(value.inputRequests);
    case 'completed':
      return isObject(value.result);
    case 'failed':
      return isErrorObject(value.error);
    default:
      return true;
  }
}

/** `DetailedTaskSchema`. */
export function isDetailedTask(value: unknown): value is Record<string, unknown> {
  return isObject(value) && isTaskIn(value) && hasStatusPayload(value);
}

/** `GetTaskResultSchema`: a `DetailedTask` with `resultType: "complete"` and the optional result `_meta`. */
export const isGetTaskResult: Check = (value) =>
  isDetailedTask(value) && value.resultType === 'complete' && optional(value._meta, isResultMeta);

/**
 * `CreateTaskResultSchema`: the task with `resultType: "task"`, carrying none of `result`, `error`,
 * `inputRequests` or `requestState` (zod's refinement asks `in`, so a member set to `undefined` counts).
 */
export function isCreateTaskResult(value: unknown): boolean {
  return (
    isObject(value) &&
    isTaskIn(value) &&
    value.resultType === 'task' &&
    optional(value._meta, isResultMeta) &&
    !('result' in value || 'error' in value || 'inputRequests' in value || 'requestState' in value)
  );
}
