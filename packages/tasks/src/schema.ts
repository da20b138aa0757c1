// The wire shapes the server side reads: the params of the three methods (the task shapes themselves are shared
// with the client side, in @boomerang/protocol/tasks, and re-exported from here).
import { z } from 'zod';

export {
  type CreateTaskResult,
  CreateTaskResultSchema,
  type DetailedTask,
  isTerminal,
  TASK_STATUSES,
  TASKS_EXTENSION,
  type Task,
  type TaskError,
  type TaskStatus,
} from '@boomerang/protocol/tasks';

/** Builds a schema the first time it is used: importing the package runs no zod (cold starts stay cheap). */
function lazy<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

/** Longest `taskId` the three methods take, in characters (this runtime issues 64). */
export const MAX_TASK_ID_LENGTH = 256;

/**
 * A `taskId` as the methods take it: 1 to {@link MAX_TASK_ID_LENGTH} printable ASCII characters (`!` to `~`).
 * This runtime only issues 64 hex digits, so nothing else can name a task; refusing the rest here (`-32602`)
 * keeps NUL and other control characters, which PostgreSQL's `text` refuses with an error of its own, and
 * oversized ids away from every store.
 */
const taskIdSchema = () =>
  z
    .string()
    .min(1)
    .max(MAX_TASK_ID_LENGTH)
    .regex(/^[!-~]*$/, 'expected printable ASCII without spaces (a task id this server issued)');

/** Params of `tasks/get` and `tasks/cancel` (the server validates `_meta` itself and leaves it out). */
export const taskIdParamsSchema = lazy(() => z.looseObject({ taskId: taskIdSchema() }));

/** True when `taskId` is one the methods would take (see {@link taskIdParamsSchema}). */
export function isWellFormedTaskId(taskId: unknown): taskId is string {
  return (
    typeof taskId === 'string' &&
    taskId.length > 0 &&
    taskId.length <= MAX_TASK_ID_LENGTH &&
    /^[!-~]*$/.test(taskId)
  );
}

/**
 * Params of `tasks/update`. Each answer is only required to be an object here: answers under keys that are not
 * outstanding are ignored (the spec's SHOULD), and the outstanding ones are checked against the kind of request
 * they answer when they are recorded.
 */
export const updateTaskParamsSchema = lazy(() =>
  taskIdParamsSchema().extend({ inputResponses: z.record(z.string(), z.looseObject({})) }),
);
