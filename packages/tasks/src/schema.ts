// The wire shapes of the `io.modelcontextprotocol/tasks` extension (SEP-2663): the task, its detailed variants
// (`tasks/get`, `notifications/tasks`), `CreateTaskResult` (`resultType: "task"` on `tools/call`) and the params of
// the three methods. The extension's `schema.ts` is the source; these are written from it, not copied.
import type { InputRequests } from '@boomerang/protocol';
import { ResultMetaObjectSchema } from '@boomerang/protocol/schemas';
import { z } from 'zod';

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

/** Builds a schema the first time it is used: importing the package runs no zod (cold starts stay cheap). */
function lazy<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

/** The fields every task carries (the extension's `Task`). */
export const taskSchema = lazy(() =>
  z.looseObject({
    taskId: z.string().min(1),
    status: z.enum(TASK_STATUSES),
    statusMessage: z.string().optional(),
    createdAt: z.iso.datetime({ offset: true }),
    lastUpdatedAt: z.iso.datetime({ offset: true }),
    ttlMs: z.number().int().positive().nullable(),
    pollIntervalMs: z.number().int().positive().optional(),
  }),
);

/** Validates a `CreateTaskResult` (the extension result type the server checks before sending it). */
export const createTaskResultSchema = lazy(() =>
  taskSchema()
    .extend({ resultType: z.literal('task'), _meta: ResultMetaObjectSchema.optional() })
    .refine(
      (result) =>
        !('result' in result || 'error' in result || 'inputRequests' in result || 'requestState' in result),
      { message: 'a CreateTaskResult carries no result, error, inputRequests or requestState' },
    ),
);

/** Params of `tasks/get` and `tasks/cancel` (the server validates `_meta` itself and leaves it out). */
export const taskIdParamsSchema = lazy(() => z.looseObject({ taskId: z.string().min(1) }));

/**
 * Params of `tasks/update`. Each answer is only required to be an object here: answers under keys that are not
 * outstanding are ignored (the spec's SHOULD), and the outstanding ones are checked against the kind of request
 * they answer when they are recorded.
 */
export const updateTaskParamsSchema = lazy(() =>
  taskIdParamsSchema().extend({ inputResponses: z.record(z.string(), z.looseObject({})) }),
);
