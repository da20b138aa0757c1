// @boomerang/tasks: the `io.modelcontextprotocol/tasks` extension on the server. Tool calls become durable tasks
// (`resultType: "task"`); `tasks/get`, `tasks/update` and `tasks/cancel` serve them from a shared TaskStore, and a
// task's questions are answered through `tasks/update` on any instance, which runs the handler again there.

// --- the runtime

export {
  type CallToolHandler,
  createTasks,
  INTERRUPTED,
  TASK_QUOTA_EXCEEDED,
  type TaskCallPolicy,
  type TaskPolicy,
  type TaskPolicyLookup,
  type TaskStart,
  type TaskSupport,
  type Tasks,
  type TasksOptions,
} from './runtime.js';

// --- storage

export { memoryTaskStore } from './memory-store.js';
export {
  expiresAt,
  TaskLimitError,
  type TaskLimits,
  type TaskOrigin,
  type TaskRecord,
  type TaskStore,
} from './store.js';

// --- wire shapes

export {
  type CreateTaskResult,
  type DetailedTask,
  isTerminal,
  TASK_STATUSES,
  TASKS_EXTENSION,
  type Task,
  type TaskError,
  type TaskStatus,
} from './schema.js';
