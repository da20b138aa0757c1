// @boomerang/protocol/tasks: the wire shapes of the `io.modelcontextprotocol/tasks` extension, shared by its
// server side (@boomerang/tasks) and its client side (@boomerang/client).
export { CreateTaskResultSchema, DetailedTaskSchema, GetTaskResultSchema, TaskSchema } from './schema.js';
export {
  type CreateTaskResult,
  type DetailedTask,
  type GetTaskResult,
  isTaskStatus,
  isTerminal,
  TASK_STATUSES,
  TASKS_EXTENSION,
  type Task,
  type TaskError,
  type TaskStatus,
  type TaskStatusNotification,
} from './task.js';
