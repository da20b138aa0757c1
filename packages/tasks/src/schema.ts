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
