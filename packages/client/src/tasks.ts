// The client side of the tasks extension (`io.modelcontextprotocol/tasks`), as far as it is not the loop that
// follows a task (task-loop.ts): the options and hooks a host sets, the `client.tasks` surface, and how the
// extension's answers are read (every one validated; a server's wrong answer is an `invalid-result` `ClientError`).
import {
  type CallToolResult,
  describeIssues,
  type InputResponses,
  isPlainObject,
  isTaskStatus,
  normalizeResult,
  type SchemaIssue,
} from '@boomerang/protocol';
import { parseLazily } from '@boomerang/protocol/internal';
import type { DetailedTask, Task } from '@boomerang/protocol/tasks';
import { invalidResult, type OriginatingRequest, tooManyInputRequests } from './errors.js';
import type { CallOptions } from './options.js';
import type { TaskReading } from './task-loop.js';

/**
 * `client.tasks`: the tasks extension's methods, by hand. `callTool` already follows a task it creates to the
 * end; these are for a host that follows one itself, or after a restart. Each takes the same call options as any
 * call (`signal`, `timeoutMs`); each rejects with the server's `McpError` (`-32602` for an unknown, expired or
 * foreign task, `-32021` when the client does not declare the extension) or a `ClientError`.
 */
export interface ClientTasks {
  /** `tasks/get`: the task now, with its status payload (`inputRequests`, `result` or `error`), validated. */
  get(taskId: string, options?: CallOptions): Promise<DetailedTask>;
  /**
   * `tasks/update`: answers to the task's `inputRequests`, under their keys. The server takes them and runs the
   * task on; answers under keys it does not ask are ignored; a wrong answer is its `-32602`.
   */
  update(taskId: string, inputResponses: InputResponses, options?: CallOptions): Promise<void>;
  /** `tasks/cancel`: asks the server to stop the task. Cooperative: it may still end otherwise. */
  cancel(taskId: string, options?: CallOptions): Promise<void>;
  /**
   * Waits for the task's result from any process, as `callTool` does for a task it created: follows it
   * (notifications or polling), answers its new questions through the callbacks with `tasks/update`, and resolves
   * to its `CallToolResult` (tasks exist for `tools/call` only in this revision of the extension). Rejects with
   * the task's error as an `McpError` when it failed, a `task-cancelled` `ClientError` when it was cancelled.
   * Aborting stops waiting and leaves the task running (cancel it with {@link ClientTasks.cancel}).
   */
  result(taskId: string, options?: CallOptions): Promise<CallToolResult>;
}

/** A request answered with a task: what a call's loop hands back, for the client to follow the task. */
export class CreatedTask {
  constructor(readonly task: Task) {}
}

/** The methods that may answer with a task (the extension's "Supported Methods"). */
export function mayCreateTask(method: string): boolean {
  return method === 'tools/call';
}

/** True when a raw result is a task (`resultType: "task"`), to be read with {@link readCreatedTask}. */
export function isTaskAnswer(raw: unknown): boolean {
  return isPlainObject(raw) && raw.resultType === 'task';
}

/**
 * A `CreateTaskResult` answering `method`, validated, as the task it describes. Rejects with `invalid-result` for
 * a method that cannot create tasks (the spec: an invalid response) and for a shape the schema refuses (zod, loaded
 * on demand, judges what the protocol's hand-written check cannot vouch for).
 */
export async function readCreatedTask(method: string, raw: unknown): Promise<Task> {
  if (!mayCreateTask(method)) {
    throw invalidResult(method, 'resultType "task" is only allowed on tools/call', raw);
  }
  checkStatus(method, raw);
  const parsed = await parseLazily('CreateTaskResult', raw);
  if (!parsed.success) throw mismatch(method, 'the CreateTaskResult', raw, parsed.error);
  const { resultType: _type, _meta: _m, ...task } = parsed.data;
  return task;
}

/** The cap on the questions of one reading, and the call it fails (see {@link readTask}). */
export interface InputRequestCap {
  readonly maxInputRequests: number;
  readonly request: OriginatingRequest;
}

/**
 * `tasks/get`'s answer for `taskId`, validated. Rejects with `invalid-result` for a `resultType` other than
 * `"complete"`, an unknown status, a shape the schema refuses, and an answer about another task; with `cap`, with
 * `too-many-input-requests` for a reading asking more than `cap.maxInputRequests` questions, counted before
 * anything else reads them (validating 100,000 questions takes a second).
 */
export async function readTask(taskId: string, raw: unknown, cap?: InputRequestCap): Promise<TaskReading> {
  const method = 'tasks/get';
  const result = completeResult(method, raw);
  if (cap !== undefined && isPlainObject(result) && isPlainObject(result.inputRequests)) {
    const asked = Object.keys(result.inputRequests).length;
    if (asked > cap.maxInputRequests) {
      throw tooManyInputRequests(cap.request, cap.maxInputRequests, asked, result);
    }
  }
  checkStatus(method, result);
  const parsed = await parseLazily('GetTaskResult', result);
  if (!parsed.success) throw mismatch(method, 'the task', result, parsed.error);
  const { resultType: _type, _meta, ...task } = parsed.data;
  if (task.taskId !== taskId) {
    throw invalidResult(method, `it describes task ${task.taskId}, not ${taskId}`, result);
  }
  return { task: task as DetailedTask, meta: _meta };
}

/** The params of a `notifications/tasks`, validated as a `DetailedTask`. Rejects with `invalid-result`. */
export async function readTaskNotification(params: unknown): Promise<TaskReading> {
  const method = 'notifications/tasks';
  checkStatus(method, params);
  const parsed = await parseLazily('DetailedTask', params);
  if (!parsed.success) throw mismatch(method, 'the task', params, parsed.error);
  const { _meta, ...task } = parsed.data as DetailedTask & { _meta?: Record<string, unknown> };
  return { task: task as DetailedTask, meta: _meta };
}

/** The empty acknowledgement of `tasks/update` and `tasks/cancel`. Throws `invalid-result` for anything else. */
export function readAcknowledgement(method: string, raw: unknown): void {
  completeResult(method, raw);
}

/** `raw` normalized, when its `resultType` is `"complete"`; throws `invalid-result` otherwise. */
function completeResult(method: string, raw: unknown): unknown {
  const result = normalizeResult(raw);
  const type = isPlainObject(result) ? result.resultType : undefined;
  if (type !== 'complete') {
    throw invalidResult(
      method,
      `resultType ${JSON.stringify(type) ?? 'undefined'} (expected "complete")`,
      result,
    );
  }
  return result;
}

/** An unknown status gets its own message: it is what a server of a later revision would send. */
function checkStatus(method: string, value: unknown): void {
  const status = isPlainObject(value) ? value.status : undefined;
  if (!isTaskStatus(status)) {
    throw invalidResult(method, `unknown task status ${JSON.stringify(status) ?? 'undefined'}`, value);
  }
}

function mismatch(method: string, what: string, value: unknown, error: unknown) {
  const issues = (error as { issues?: readonly SchemaIssue[] }).issues ?? [];
  const problem = `${what} does not match its schema (${describeIssues(issues, 'result')})`;
  return invalidResult(method, problem, value, error);
}
