// The wire shapes of the `io.modelcontextprotocol/tasks` extension (SEP-2663), shared by its server side
// (@boomerang/tasks) and its client side (@boomerang/client): the task, its detailed variants (`tasks/get`,
// `notifications/tasks`) and `CreateTaskResult` (`resultType: "task"` on `tools/call`). The extension's
// `schema/draft/schema.ts` is the source; these are written from it, not copied.
import { ErrorSchema } from '../schema/jsonrpc.js';
import { completeResultType, ResultMetaObjectSchema } from '../schema/meta.js';
import { type InputRequests, InputRequestsSchema } from '../schema/mrtr.js';
import { lazySchema, zod } from '../schema/zod.js';

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
  return (TASK_STATUSES as readonly unknown[]).includes(value);
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

/**
 * The fields every task carries (the extension's `Task`); unknown members are kept. Durations are integers ≥ 0
 * (what a client does with a zero poll interval is its own business: Boomerang's waits at least 10 ms).
 */
export const TaskSchema = lazySchema(() =>
  zod.looseObject({
    taskId: zod.string().min(1),
    status: zod.enum(TASK_STATUSES),
    statusMessage: zod.string().optional(),
    createdAt: zod.iso.datetime({ offset: true }),
    lastUpdatedAt: zod.iso.datetime({ offset: true }),
    ttlMs: zod.int().min(0).nullable(),
    pollIntervalMs: zod.int().min(0).optional(),
  }),
);

/** The five variants of a detailed task, as `tasks/get` and `notifications/tasks` carry them. */
const detailedVariants = () =>
  [
    TaskSchema.extend({ status: zod.literal('working') }),
    TaskSchema.extend({ status: zod.literal('input_required'), inputRequests: InputRequestsSchema }),
    TaskSchema.extend({ status: zod.literal('completed'), result: zod.looseObject({}) }),
    TaskSchema.extend({ status: zod.literal('failed'), error: ErrorSchema }),
    TaskSchema.extend({ status: zod.literal('cancelled') }),
  ] as const;

/**
 * A `DetailedTask`, told apart by `status`: the payload its status requires is required (`inputRequests` with
 * valid input requests, a `result` object, a JSON-RPC `error`).
 */
export const DetailedTaskSchema = lazySchema(() => zod.discriminatedUnion('status', [...detailedVariants()]));

/** `tasks/get`'s result: a `DetailedTask` with `resultType: "complete"` (after a client's normalisation). */
export const GetTaskResultSchema = lazySchema(() => {
  const [working, inputRequired, completed, failed, cancelled] = detailedVariants();
  const result = { resultType: completeResultType, _meta: ResultMetaObjectSchema.optional() };
  return zod.discriminatedUnion('status', [
    working.extend(result),
    inputRequired.extend(result),
    completed.extend(result),
    failed.extend(result),
    cancelled.extend(result),
  ]);
});

/**
 * A `CreateTaskResult`: the flat task with `resultType: "task"`, and none of the members that belong to the
 * task's later states (`result`, `error`, `inputRequests`) or to a multi-round-trip round (`requestState`).
 */
export const CreateTaskResultSchema = lazySchema(() =>
  TaskSchema.extend({ resultType: zod.literal('task'), _meta: ResultMetaObjectSchema.optional() }).refine(
    (result) =>
      !('result' in result || 'error' in result || 'inputRequests' in result || 'requestState' in result),
    { message: 'a CreateTaskResult carries no result, error, inputRequests or requestState' },
  ),
);
