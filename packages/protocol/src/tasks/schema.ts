// The wire shapes of the `io.modelcontextprotocol/tasks` extension (SEP-2663) as zod schemas, shared by its server
// side (@boomerang/tasks) and its client side (@boomerang/client): the task, its detailed variants (`tasks/get`,
// `notifications/tasks`) and `CreateTaskResult` (`resultType: "task"` on `tools/call`); their types are in
// task.ts. The extension's `schema/draft/schema.ts` is the source; these are written from it, not copied.
import { ErrorSchema } from '../schema/jsonrpc.js';
import { completeResultType, ResultMetaObjectSchema } from '../schema/meta.js';
import { InputRequestsSchema } from '../schema/mrtr.js';
import { lazySchema, zod } from '../schema/zod.js';
import { TASK_STATUSES } from './task.js';

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
