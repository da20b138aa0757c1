// The `io.modelcontextprotocol/tasks` extension (SEP-2663) without its schemas: the extension's id, the task
// statuses and the types of its wire shapes, shared by its server side (@boomerang/tasks) and its client side
// (@boomerang/client). The zod schemas are in schema.ts, apart, so that a client that only declares the extension
// or tells statuses apart loads no zod (a bundle splits modules, not their members).
import type { InputRequests } from '../schema/mrtr.js';

/** The extension's id, under `capabilities.extensions` on both sides. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The five statuses; `completed`, `failed` and `cancelled` are terminal (a terminal task never changes again). */
export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;

/** A task's status. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** True for the terminal statuses. */
export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** True for one of the five statuses (a client meets unknown ones from servers it does not control). */
export function isTaskStatus(value: unknown): value is TaskStatus {
  const statuses: readonly unknown[] = TASK_STATUSES;
  return statuses.includes(value);
}

/** A JSON-RPC error as a failed task stores and reports it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** Operational metadata about one task. */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** Time to live from creation in integer milliseconds; `null` for unlimited. */
  ttlMs: number | null;
  /** Suggested polling interval in integer milliseconds. */
  pollIntervalMs?: number;
}

/**
 * The task with its status-specific payload inlined, as `tasks/get` answers and `notifications/tasks` carries:
 * `inputRequests` when `input_required`, `result` when `completed`, `error` when `failed`.
 */
export type DetailedTask =
  | (Task & { status: 'working' })
  | (Task & { status: 'input_required'; inputRequests: InputRequests })
  | (Task & { status: 'completed'; result: Record<string, unknown> })
  | (Task & { status: 'failed'; error: TaskError })
  | (Task & { status: 'cancelled' });

/**
 * What a server answers in lieu of the method's own result when it runs the request as a task: the task itself,
 * flat (`Result & Task`), with `resultType: "task"`; never `result`, `error`, `inputRequests` or `requestState`.
 */
export type CreateTaskResult = Task & { resultType: 'task'; _meta?: Record<string, unknown> };

/**
 * `notifications/tasks`, on a `subscriptions/listen` stream that asked for `taskIds`: the task's `DetailedTask`
 * at the moment it changed, identical to what `tasks/get` would have answered then.
 */
export interface TaskStatusNotification {
  jsonrpc: '2.0';
  method: 'notifications/tasks';
  params: DetailedTask & { _meta?: Record<string, unknown> };
}

/** `tasks/get`'s answer: the `DetailedTask` as a result (`resultType: "complete"`). */
export type GetTaskResult = DetailedTask & { resultType: 'complete'; _meta?: Record<string, unknown> };
