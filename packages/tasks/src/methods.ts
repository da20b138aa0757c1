// The extension's three methods: `tasks/get` (recovering an interrupted task as it reads it), `tasks/update`
// (recording answers, and starting the next round here once none is outstanding) and `tasks/cancel`.
import { ErrorCode, type InputRequests, McpError } from '@boomerang/protocol';
import type { ExtensionSubscriptions, RequestContext, ServerExtension } from '@boomerang/server';
import { load } from './access.js';
import { answerIssues } from './answers.js';
import { checkJsonSize } from './limits.js';
import { recover, start } from './rounds.js';
import {
  CreateTaskResultSchema,
  isTerminal,
  TASKS_EXTENSION,
  taskIdParamsSchema,
  updateTaskParamsSchema,
} from './schema.js';
import { define, mutate, type TaskRuntime } from './state.js';
import type { TaskRecord } from './store.js';
import { detailedTask } from './wire.js';

/**
 * `io.modelcontextprotocol/tasks` served from `runtime`: its methods, its result type, its subscriptions. The
 * handlers are cast: a task's `ttlMs` may be `null`, where a method result's cache hint of that name may not.
 */
export function tasksExtension(runtime: TaskRuntime, subscriptions: ExtensionSubscriptions): ServerExtension {
  const get = (params: { taskId: string }, ctx: RequestContext) => getTask(runtime, params, ctx);
  const update = (params: UpdateTaskParams, ctx: RequestContext) => updateTask(runtime, params, ctx);
  const cancel = (params: { taskId: string }, ctx: RequestContext) => cancelTask(runtime, params, ctx);
  return {
    id: TASKS_EXTENSION,
    methods: {
      'tasks/get': { params: taskIdParamsSchema(), handler: get as never },
      'tasks/update': { params: updateTaskParamsSchema(), handler: update as never },
      'tasks/cancel': { params: taskIdParamsSchema(), handler: cancel as never },
    },
    resultTypes: { task: { methods: ['tools/call'], result: CreateTaskResultSchema } },
    subscriptions,
  };
}

/** The params of `tasks/update`, as {@link updateTaskParamsSchema} checked them. */
interface UpdateTaskParams {
  readonly taskId: string;
  readonly inputResponses: Record<string, Record<string, unknown>>;
}

/** `tasks/get`: the task as `DetailedTask`, after failing or re-running it when its runner was interrupted. */
async function getTask(runtime: TaskRuntime, params: { taskId: string }, ctx: RequestContext) {
  const record = await recover(runtime, await load(runtime, params.taskId, ctx));
  return { ...detailedTask(record) };
}

/**
 * `tasks/update`: records the answers to outstanding questions (each checked against the request it answers) in
 * one compare-and-set, and starts the next round on this instance once none is outstanding.
 */
async function updateTask(runtime: TaskRuntime, params: UpdateTaskParams, ctx: RequestContext) {
  checkJsonSize(params.inputResponses, runtime.maxInputBytes, 'inputResponses');
  const record = await load(runtime, params.taskId, ctx);
  if (record.status !== 'input_required') {
    throw new McpError(
      ErrorCode.InvalidParams,
      isTerminal(record.status)
        ? `Task is ${record.status}: it takes no more input`
        : 'Task is not waiting for input (its status is working)',
    );
  }
  const outstanding: InputRequests = { ...(record.inputRequests ?? {}) };
  const recorded = { ...(record.inputResponses ?? {}) };
  let took = 0;
  for (const [key, answer] of Object.entries(params.inputResponses)) {
    // Keys never asked, already answered or superseded are ignored (the spec's SHOULD).
    if (!Object.hasOwn(outstanding, key)) continue;
    const issues = answerIssues(outstanding[key], answer);
    if (issues !== undefined) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: inputResponses["${key}"] ${issues}`);
    }
    define(recorded, key, answer);
    delete outstanding[key];
    took++;
  }
  if (took === 0) return {};
  const done = Object.keys(outstanding).length === 0;
  const next: TaskRecord = {
    ...record,
    version: record.version + 1,
    lastUpdatedAt: Math.max(runtime.clock(), record.lastUpdatedAt),
    inputResponses: recorded,
    ...(done
      ? {
          status: 'working',
          inputRequests: undefined,
          statusMessage: undefined,
          leaseUntil: runtime.clock() + runtime.leaseMs,
        }
      : { inputRequests: outstanding }),
  };
  // One compare-and-set, no retry: of two concurrent updates of one task exactly one is recorded.
  if (!(await runtime.store.update(next, record.version))) {
    throw new McpError(
      ErrorCode.InvalidParams,
      'Task changed while this update was applied (a concurrent tasks/update won); read it with tasks/get and answer what is still outstanding',
    );
  }
  runtime.changed(record, next);
  if (done) start(runtime, next);
  return {};
}

/** `tasks/cancel`: an open task becomes `cancelled` and its round here (if any) is stopped; an ended one stays. */
async function cancelTask(runtime: TaskRuntime, params: { taskId: string }, ctx: RequestContext) {
  const record = await load(runtime, params.taskId, ctx);
  if (!isTerminal(record.status)) {
    await mutate(runtime, record.taskId, (r) =>
      isTerminal(r.status)
        ? undefined
        : {
            status: 'cancelled',
            statusMessage: 'Cancelled by the client',
            leaseUntil: null,
            inputRequests: undefined,
            inputResponses: undefined,
            requestState: undefined,
          },
    );
    runtime.running.get(record.taskId)?.controller.abort();
  }
  return {};
}
