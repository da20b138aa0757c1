// @boomerang/protocol/tasks: the wire shapes of the `io.modelcontextprotocol/tasks` extension, shared by its
// server side (@boomerang/tasks) and its client side (@boomerang/client).
export {
  type CreateTaskResult,
  CreateTaskResultSchema,
  type DetailedTask,
  DetailedTaskSchema,
  type GetTaskResult,
  GetTaskResultSchema,
  isTaskStatus,
  isTerminal,
  TASK_STATUSES,
  TASKS_EXTENSION,
  type Task,
  type TaskError,
  TaskSchema,
  type TaskStatus,
  type TaskStatusNotification,
} from './schema.js';
