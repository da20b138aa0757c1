// Stored records → what the wire carries. Timestamps are ISO 8601 (`toISOString`), durations integer ms.
import type { InputRequests } from '@boomerang/protocol';
import type { CreateTaskResult, DetailedTask, Task } from './schema.js';
import type { TaskRecord } from './store.js';

/** The `Task` members of a record (no status payload). */
export function taskOf(record: TaskRecord): Task {
  const task: Task = {
    taskId: record.taskId,
    status: record.status,
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  return task;
}

/** The `CreateTaskResult` for a freshly stored record: the flat task with `resultType: "task"`. */
export function createTaskResult(record: TaskRecord): CreateTaskResult {
  return { ...taskOf(record), resultType: 'task' };
}

/**
 * The `DetailedTask` of `tasks/get` and `notifications/tasks`: the task, plus `inputRequests` (the outstanding
 * ones) when `input_required`, `result` when `completed`, `error` when `failed`. Never `requestState`: the
 * handler's state stays on the server.
 */
export function detailedTask(record: TaskRecord): DetailedTask {
  const task = taskOf(record);
  switch (record.status) {
    case 'input_required':
      return {
        ...task,
        status: 'input_required',
        inputRequests: (record.inputRequests ?? {}) as InputRequests,
      };
    case 'completed':
      return { ...task, status: 'completed', result: { ...(record.result ?? {}) } };
    case 'failed':
      return {
        ...task,
        status: 'failed',
        error: record.error ?? { code: -32603, message: 'Internal error' },
      };
    case 'working':
      return { ...task, status: 'working' };
    case 'cancelled':
      return { ...task, status: 'cancelled' };
  }
}
