// The server side of the tasks extension: task creation on tools/call, rounds run in the background on whichever
// instance holds the task, and the three methods. Every write is a compare-and-set on the store, so any number of
// instances can share one store.
import {
  argumentError,
  type CallToolRequestParams,
  type CallToolResult,
  describeIssues,
  ErrorCode,
  hasExtension,
  type InputRequests,
  type InputResponses,
  isInputRequired,
  isLoggingLevel,
  McpError,
} from '@boomerang/protocol';
import { CallToolResultSchema, safeParse } from '@boomerang/protocol/schemas';
import {
  type ExtensionResult,
  type LogFn,
  type MaybePromise,
  missingClientCapabilities,
  type RequestContext,
  type ServerExtension,
  type ServerHandlers,
  type TaskPolicy,
  type TaskStart,
  type TaskSupport,
} from '@boomerang/server';
import { answerIssues } from './answers.js';
import { newTaskId, ownerOf } from './identity.js';
import { checkJsonSize } from './limits.js';
import {
  type CreateTaskResult,
  CreateTaskResultSchema,
  isTerminal,
  isWellFormedTaskId,
  TASKS_EXTENSION,
  type TaskError,
  taskIdParamsSchema,
  updateTaskParamsSchema,
} from './schema.js';
import { statusNotifications } from './status-notifications.js';
import {
  expiresAt,
  TaskLimitError,
  type TaskLimits,
  type TaskOrigin,
  type TaskRecord,
  type TaskStore,
} from './store.js';
import { createTaskResult, detailedTask } from './wire.js';

/** A `tools/call` handler of a low-level `Server` (what {@link Tasks.wrapCallTool} wraps and returns). */
export type CallToolHandler = NonNullable<ServerHandlers['onCallTool']>;

/** Whether a tool runs as a task, and how a task starts: declared by @boomerang/server, shared with McpServer. */
export type { TaskPolicy, TaskStart, TaskSupport } from '@boomerang/server';

/**
 * A {@link TaskPolicy}: its `validate` runs on the `tools/call` request before anything is stored, after the
 * runtime's size check and before `before`.
 */
export type TaskCallPolicy = TaskPolicy;

/** Per call: the tool's policy, `undefined` for a tool that never runs as a task. */
export type TaskPolicyLookup = (
  params: CallToolRequestParams,
  ctx: RequestContext,
) => TaskCallPolicy | TaskSupport | undefined;

/** Options of {@link createTasks}. */
export interface TasksOptions {
  /** Where tasks live; share one store between instances (PostgreSQL) and any of them serves any task. */
  readonly store: TaskStore;
  /** A new task's time to live in ms, `null` for unlimited (default one hour). Expired tasks read as unknown. */
  readonly ttlMs?: number | null | undefined;
  /** The polling interval suggested to clients, in ms (default 1 000). */
  readonly pollIntervalMs?: number | undefined;
  /**
   * How long a `working` task stays held by the instance running it without a renewal, in ms (default 30 000).
   * The runner renews it every third of that; a task whose lease ran out was interrupted (its process died).
   */
  readonly leaseMs?: number | undefined;
  /**
   * What happens to an interrupted `working` task when it is next read: `"fail"` (default) marks it `failed`
   * with `-32603` "Task interrupted…", since re-running work with side effects is not safe in general; `"rerun"`
   * runs its last round again on the reading instance (from its recorded answers and state: resolvers re-run,
   * recorded answers are reused), for handlers that are safe to run twice.
   */
  readonly interrupted?: 'fail' | 'rerun' | undefined;
  /** Largest `tasks/update` `inputResponses`, in UTF-8 bytes of JSON (default 65 536): more is `-32602`. */
  readonly maxInputBytes?: number | undefined;
  /**
   * Largest params of a task (the tool's `name`, `arguments` and any other member but `_meta`), in UTF-8 bytes of
   * JSON (default 1 048 576, 1 MiB): a `tools/call` with more is `-32602` and nothing is stored. Params nested
   * deeper than 512 levels are `-32602` too.
   */
  readonly maxParamsBytes?: number | undefined;
  /**
   * Most open tasks (`working` or `input_required`) one principal may have at once (default 100; `null`: no
   * limit). Anonymous callers are one principal, so this also bounds what they can store together. A creation
   * past it is refused (`-32029`, see {@link TASK_QUOTA_EXCEEDED}) and stores nothing.
   */
  readonly maxOpenTasksPerPrincipal?: number | null | undefined;
  /**
   * Most open tasks of every principal together (default 10 000; `null`: no limit), counted over the store, so
   * over every instance sharing it. A creation past it is refused like one past the per-principal limit.
   */
  readonly maxOpenTasks?: number | null | undefined;
  /**
   * How often this runtime deletes the expired tasks from the store, in ms (default 60 000); `0` or `false`:
   * never (call {@link Tasks.sweep} yourself). The timer does not keep the process alive; {@link Tasks.close}
   * stops it. Sweeps on several instances sharing a store are harmless (each deletes what is expired).
   */
  readonly sweepIntervalMs?: number | false | undefined;
  /** Where failures that never reach the wire are reported (default `console.warn` / `console.error`). */
  readonly logger?: { readonly warn?: LogFn | undefined; readonly error?: LogFn | undefined } | undefined;
  /** Epoch ms (default `Date.now`). */
  readonly clock?: (() => number) | undefined;
}

/** The tasks runtime: the extension to serve, and the wrapper that turns tool calls into tasks. */
export interface Tasks {
  /** `io.modelcontextprotocol/tasks`: `tasks/get`, `tasks/update`, `tasks/cancel` and `resultType: "task"`. */
  readonly extension: ServerExtension;
  /**
   * Wraps a `tools/call` handler: a call whose tool `policy` names runs as a task when the request declared the
   * extension (`optional`, `required`); without the extension an `optional` tool runs as usual and a `required`
   * one answers `-32021` naming the extension. The task is stored (durably: `tasks/get` on any instance finds
   * it) before its `CreateTaskResult` is returned, then `inner` runs in the background, and again on whichever
   * instance receives the `tasks/update` that answers its questions. One runtime wraps one handler (throws
   * `Error` on a second call).
   */
  wrapCallTool(
    inner: CallToolHandler,
    policy: TaskPolicyLookup | Readonly<Record<string, TaskCallPolicy | TaskSupport>>,
  ): CallToolHandler;
  /**
   * Deletes the expired tasks from the store now; resolves to how many. The runtime also runs it every
   * `sweepIntervalMs` (default one minute).
   */
  sweep(): Promise<number>;
  /** Resolves once no round runs on this instance (tests, orderly shutdown). */
  idle(): Promise<void>;
  /**
   * Stops the scheduled sweep and the rounds running here (their handlers see `ctx.signal` abort; what they
   * return is dropped) and waits for them. Their tasks stay `working` until their lease runs out, then
   * `interrupted` decides.
   */
  close(): Promise<void>;
}

const DEFAULTS = {
  ttlMs: 3_600_000,
  pollIntervalMs: 1_000,
  leaseMs: 30_000,
  maxInputBytes: 65_536,
  maxParamsBytes: 1_048_576,
  maxOpenTasksPerPrincipal: 100,
  maxOpenTasks: 10_000,
  sweepIntervalMs: 60_000,
};

/**
 * The code of a `tools/call` refused because its principal, or the server, already has as many open tasks as
 * allowed: `-32029` (`ErrorCode.RateLimited`), with `data: { retryAfterMs, limit, scope }`. It is the SDK's code
 * for "this caller asks more of the server than it allows right now" (HTTP 429, which RFC 6585 also gives to
 * quotas), and the right reading: the same call succeeds once some of the caller's tasks finish. Not `-32602`
 * (the params are valid), not `-32603` (nothing failed: it is a policy, and an internal error would hide it and
 * be logged as a fault).
 */
export const TASK_QUOTA_EXCEEDED = ErrorCode.RateLimited;

/** The `failed` error of a task whose runner stopped before it finished. */
export const INTERRUPTED: TaskError = {
  code: ErrorCode.InternalError,
  message: 'Task interrupted: the server running it stopped before it finished',
};

/** The longest delay a timer takes (2^31 − 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

/** State-only rounds (no questions) a task may chain before it is failed as a runaway. */
const MAX_STATE_ROUNDS = 10;

const NOT_FOUND = 'Failed to retrieve task: Task not found';

type Outcome =
  | { kind: 'result'; result: Record<string, unknown> }
  | { kind: 'input'; inputRequests: InputRequests | undefined; requestState: string | undefined }
  | { kind: 'error'; error: TaskError };

interface Run {
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

/**
 * Creates the tasks runtime of one server. Throws `TypeError` for a missing store and `RangeError` for a
 * non-positive or fractional duration.
 */
export function createTasks(options: TasksOptions): Tasks {
  const { store } = options;
  if (
    typeof store !== 'object' ||
    store === null ||
    typeof store.create !== 'function' ||
    typeof store.update !== 'function'
  ) {
    throw new TypeError('"store" expected a TaskStore (memoryTaskStore(), postgresTaskStore(db))');
  }
  const ttlMs = options.ttlMs === null ? null : positive('ttlMs', options.ttlMs, DEFAULTS.ttlMs);
  const pollIntervalMs = positive('pollIntervalMs', options.pollIntervalMs, DEFAULTS.pollIntervalMs);
  const leaseMs = positive('leaseMs', options.leaseMs, DEFAULTS.leaseMs);
  const maxInputBytes = positive('maxInputBytes', options.maxInputBytes, DEFAULTS.maxInputBytes);
  const maxParamsBytes = positive('maxParamsBytes', options.maxParamsBytes, DEFAULTS.maxParamsBytes);
  const limits: TaskLimits = {
    perOwner: limit(
      'maxOpenTasksPerPrincipal',
      options.maxOpenTasksPerPrincipal,
      DEFAULTS.maxOpenTasksPerPrincipal,
    ),
    total: limit('maxOpenTasks', options.maxOpenTasks, DEFAULTS.maxOpenTasks),
  };
  const { sweepIntervalMs: every } = options;
  const sweepIntervalMs =
    every === false || every === 0 ? undefined : positive('sweepIntervalMs', every, DEFAULTS.sweepIntervalMs);
  if (sweepIntervalMs !== undefined && sweepIntervalMs > MAX_TIMER_MS) {
    // A timer longer than this fires at once (and then every millisecond) instead.
    throw new RangeError(`"sweepIntervalMs" expected at most ${MAX_TIMER_MS} ms, got ${sweepIntervalMs}`);
  }
  const interrupted = options.interrupted ?? 'fail';
  if (interrupted !== 'fail' && interrupted !== 'rerun') {
    throw new TypeError(`"interrupted" expected "fail" or "rerun", got ${String(interrupted)}`);
  }
  const clock = options.clock ?? Date.now;
  const warn: LogFn = options.logger?.warn ?? ((m, d) => console.warn(`[boomerang/tasks] ${m}`, d ?? ''));
  const error: LogFn = options.logger?.error ?? ((m, d) => console.error(`[boomerang/tasks] ${m}`, d ?? ''));
  const running = new Map<string, Run>();
  let inner: CallToolHandler | undefined;

  /**
   * Reads, changes and compare-and-sets one task until it sticks (another writer may win in between: then the
   * change is computed again from what that writer left). `change` returns the members to change, or `undefined`
   * to leave the task as it is. Resolves to the task as stored after the call, `undefined` when it is gone.
   */
  const mutate = async (
    taskId: string,
    change: (record: TaskRecord) => Partial<TaskRecord> | undefined,
    touch = true,
  ): Promise<TaskRecord | undefined> => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const record = await store.get(taskId);
      if (record === undefined) return undefined;
      const patch = change(record);
      if (patch === undefined) return record;
      const next: TaskRecord = {
        ...record,
        ...patch,
        version: record.version + 1,
        lastUpdatedAt: touch ? Math.max(clock(), record.lastUpdatedAt) : record.lastUpdatedAt,
      };
      if (await store.update(next, record.version)) {
        notifications.changed(record, next);
        return next;
      }
    }
    throw new Error(`task ${taskId}: the store kept rejecting writes (50 conflicting writers in a row)`);
  };

  /** The task `taskId` as its owner may see it; `-32602` for an unknown, foreign or expired one. */
  const load = async (taskId: string, ctx: RequestContext): Promise<TaskRecord> => {
    requireExtension(ctx);
    const record = await store.get(taskId);
    if (record === undefined || record.owner !== ownerOf(ctx.auth)) {
      throw new McpError(ErrorCode.InvalidParams, NOT_FOUND);
    }
    if (expired(record)) {
      throw new McpError(ErrorCode.InvalidParams, 'Failed to retrieve task: Task has expired');
    }
    return record;
  };

  const expired = (record: TaskRecord): boolean => {
    const until = expiresAt(record);
    return until !== null && until <= clock();
  };

  const notifications = statusNotifications({
    requireExtension,
    async visible(taskId, ctx) {
      if (!isWellFormedTaskId(taskId)) return false;
      const record = await store.get(taskId);
      return record !== undefined && record.owner === ownerOf(ctx.auth) && !expired(record);
    },
    warn,
  });

  /** A `working` task whose lease ran out and that no round here runs: fail it, or run it again here. */
  const recover = async (record: TaskRecord): Promise<TaskRecord> => {
    const now = clock();
    const lapsed = (r: TaskRecord) =>
      r.status === 'working' && r.leaseUntil !== null && r.leaseUntil < now && !running.has(r.taskId);
    if (!lapsed(record)) return record;
    if (interrupted === 'rerun' && inner !== undefined) {
      let claimed = false;
      const after = await mutate(
        record.taskId,
        (r) => {
          claimed = lapsed(r);
          return claimed ? { leaseUntil: now + leaseMs } : undefined;
        },
        false,
      );
      if (claimed && after !== undefined && !running.has(after.taskId)) start(after);
      return after ?? record;
    }
    const after = await mutate(record.taskId, (r) =>
      lapsed(r)
        ? { status: 'failed', error: INTERRUPTED, statusMessage: INTERRUPTED.message, leaseUntil: null }
        : undefined,
    );
    return after ?? record;
  };

  /** Starts running `record`'s next round on this instance, in the background. */
  const start = (record: TaskRecord): void => {
    const controller = new AbortController();
    const done = drive(record, controller.signal)
      .catch((failure: unknown) => error(`task ${record.taskId}: its round failed to settle`, { failure }))
      .finally(() => running.delete(record.taskId));
    running.set(record.taskId, { controller, done });
  };

  /** Runs rounds of one task until it asks, ends, or is stopped; renews its lease meanwhile. */
  const drive = async (first: TaskRecord, signal: AbortSignal): Promise<void> => {
    const renew = setInterval(
      () => {
        mutate(
          first.taskId,
          (r) => (r.status === 'working' ? { leaseUntil: clock() + leaseMs } : undefined),
          false,
        )
          .then((r) => {
            if (r === undefined || isTerminal(r.status)) running.get(first.taskId)?.controller.abort();
          })
          .catch((failure: unknown) => warn(`task ${first.taskId}: lease renewal failed`, { failure }));
      },
      Math.max(1, Math.floor(leaseMs / 3)),
    );
    (renew as { unref?: () => void }).unref?.();
    try {
      let record = first;
      for (let stateRounds = 0; ; stateRounds++) {
        const outcome = await invoke(record, signal);
        if (outcome === undefined || signal.aborted) return;
        if (outcome.kind === 'input' && isEmpty(outcome.inputRequests)) {
          // A state-only round: run again at once with the new state.
          const state = outcome.requestState;
          const next = await mutate(record.taskId, (r) =>
            r.status !== 'working'
              ? undefined
              : stateRounds + 1 >= MAX_STATE_ROUNDS
                ? failure(r, {
                    code: ErrorCode.InternalError,
                    message: `Task made ${MAX_STATE_ROUNDS} rounds without asking or finishing`,
                  })
                : { requestState: state, inputResponses: undefined },
          );
          if (next === undefined || next.status !== 'working') return;
          record = next;
          continue;
        }
        await mutate(record.taskId, (r) => (r.status !== 'working' ? undefined : settle(r, outcome)));
        return;
      }
    } finally {
      clearInterval(renew);
    }
  };

  /**
   * Calls the wrapped handler once for `record`'s current round, as a request of the task's origin would;
   * `undefined` when the round was stopped (`signal` aborted: whatever the handler returns is dropped unread).
   */
  const invoke = async (record: TaskRecord, signal: AbortSignal): Promise<Outcome | undefined> => {
    const handler = inner as CallToolHandler;
    const prefix = `${record.round}.`;
    const answers: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record.inputResponses ?? {})) {
      if (key.startsWith(prefix)) define(answers, key.slice(prefix.length), value);
    }
    const inputResponses = Object.keys(answers).length > 0 ? (answers as InputResponses) : undefined;
    const { origin } = record;
    const params = {
      ...record.params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': origin.protocolVersion,
        'io.modelcontextprotocol/clientCapabilities': origin.clientCapabilities,
      },
      ...(inputResponses === undefined ? {} : { inputResponses }),
      ...(record.requestState === undefined ? {} : { requestState: record.requestState }),
    } as CallToolRequestParams;
    const ctx = roundContext(record, signal, inputResponses);
    try {
      const value = await untilAborted(handler(params, ctx), signal);
      return signal.aborted ? undefined : classify(value);
    } catch (thrown) {
      if (thrown instanceof McpError) {
        const { code, message, data } = thrown;
        return { kind: 'error', error: data === undefined ? { code, message } : { code, message, data } };
      }
      error(`task ${record.taskId}: the tools/call handler threw; the task fails with -32603`, {
        failure: thrown,
      });
      return { kind: 'error', error: { code: ErrorCode.InternalError, message: 'Internal error' } };
    }
  };

  /** What a round's context offers: the origin's identity and capabilities; progress messages become status. */
  const roundContext = (
    record: TaskRecord,
    signal: AbortSignal,
    inputResponses: InputResponses | undefined,
  ): RequestContext => {
    const { origin } = record;
    return {
      requestId: record.taskId,
      method: record.method,
      signal,
      protocolVersion: origin.protocolVersion,
      clientCapabilities: origin.clientCapabilities,
      clientInfo: origin.clientInfo,
      // A task's rounds run apart from any request: no caller `_meta` reaches them.
      meta: {},
      auth: origin.auth,
      progressToken: undefined,
      logLevel: undefined,
      inputResponses,
      requestState: record.requestState,
      async sendProgress(progress, total, message) {
        if (!Number.isFinite(progress) || (total !== undefined && !Number.isFinite(total))) {
          throw new TypeError(`"progress" expected a finite number, got ${String(progress)}`);
        }
        // No notifications/progress on a task (the spec forbids them): the message becomes the status message.
        if (typeof message !== 'string' || signal.aborted) return;
        await mutate(record.taskId, (r) =>
          r.status === 'working' && r.statusMessage !== message ? { statusMessage: message } : undefined,
        );
      },
      async log(level) {
        if (!isLoggingLevel(level))
          throw new TypeError(`"level" expected a logging level, got ${String(level)}`);
      },
    };
  };

  /** The members a finished round writes over a `working` task. */
  const settle = (record: TaskRecord, outcome: Outcome): Partial<TaskRecord> => {
    if (outcome.kind === 'error') return failure(record, outcome.error);
    if (outcome.kind === 'result') {
      return {
        status: 'completed',
        result: outcome.result,
        statusMessage: undefined,
        leaseUntil: null,
        inputRequests: undefined,
        inputResponses: undefined,
        requestState: undefined,
      };
    }
    const asked = outcome.inputRequests as InputRequests;
    const missing = missingClientCapabilities(asked, record.origin.clientCapabilities);
    if (missing !== undefined) {
      return failure(record, {
        code: ErrorCode.MissingRequiredClientCapability,
        message: 'Missing required client capability',
        data: { requiredCapabilities: missing },
      });
    }
    const round = record.round + 1;
    const inputRequests: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(asked)) define(inputRequests, `${round}.${key}`, request);
    const first = Object.values(asked)[0] as { params?: { message?: unknown } };
    return {
      status: 'input_required',
      round,
      inputRequests: inputRequests as InputRequests,
      inputResponses: {},
      requestState: outcome.requestState,
      leaseUntil: null,
      statusMessage: typeof first.params?.message === 'string' ? first.params.message : undefined,
    };
  };

  const failure = (_record: TaskRecord, taskError: TaskError): Partial<TaskRecord> => ({
    status: 'failed',
    error: taskError,
    statusMessage: taskError.message,
    leaseUntil: null,
    inputRequests: undefined,
    inputResponses: undefined,
    requestState: undefined,
  });

  /** A handler's return value, as a round outcome. */
  const classify = (value: unknown): Outcome => {
    if (isInputRequired(value)) {
      return { kind: 'input', inputRequests: value.inputRequests, requestState: value.requestState };
    }
    const type = (value as { resultType?: unknown } | null)?.resultType;
    if (type !== undefined && type !== 'complete') {
      error(`a tools/call handler returned resultType ${JSON.stringify(type)} inside a task`);
      return { kind: 'error', error: { code: ErrorCode.InternalError, message: 'Internal error' } };
    }
    const result = { ...(value as Record<string, unknown>), resultType: 'complete' };
    const checked = safeParse(CallToolResultSchema, result);
    if (!checked.success) {
      error(
        `a task's tools/call handler returned an invalid result: ${describeIssues(checked.error.issues, 'result')}`,
      );
      return { kind: 'error', error: { code: ErrorCode.InternalError, message: 'Internal error' } };
    }
    return { kind: 'result', result: result as CallToolResult };
  };

  const getTask = async (params: { taskId: string }, ctx: RequestContext) => {
    const record = await recover(await load(params.taskId, ctx));
    return { ...detailedTask(record) };
  };

  const updateTask = async (
    params: { taskId: string; inputResponses: Record<string, Record<string, unknown>> },
    ctx: RequestContext,
  ) => {
    checkJsonSize(params.inputResponses, maxInputBytes, 'inputResponses');
    const record = await load(params.taskId, ctx);
    if (record.status !== 'input_required') {
      throw new McpError(
        ErrorCode.InvalidParams,
        isTerminal(record.status)
          ? `Task is ${record.status}: it takes no more input`
          : 'Task is not waiting for input (its status is working)',
      );
    }
    const outstanding = { ...(record.inputRequests ?? {}) } as Record<string, unknown>;
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
      lastUpdatedAt: Math.max(clock(), record.lastUpdatedAt),
      inputResponses: recorded,
      ...(done
        ? {
            status: 'working',
            inputRequests: undefined,
            statusMessage: undefined,
            leaseUntil: clock() + leaseMs,
          }
        : { inputRequests: outstanding as InputRequests }),
    };
    // One compare-and-set, no retry: of two concurrent updates of one task exactly one is recorded.
    if (!(await store.update(next, record.version))) {
      throw new McpError(
        ErrorCode.InvalidParams,
        'Task changed while this update was applied (a concurrent tasks/update won); read it with tasks/get and answer what is still outstanding',
      );
    }
    notifications.changed(record, next);
    if (done) start(next);
    return {};
  };

  const cancelTask = async (params: { taskId: string }, ctx: RequestContext) => {
    const record = await load(params.taskId, ctx);
    if (!isTerminal(record.status)) {
      await mutate(record.taskId, (r) =>
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
      running.get(record.taskId)?.controller.abort();
    }
    return {};
  };

  const extension: ServerExtension = {
    id: TASKS_EXTENSION,
    methods: {
      'tasks/get': { params: taskIdParamsSchema(), handler: getTask as never },
      'tasks/update': { params: updateTaskParamsSchema(), handler: updateTask as never },
      'tasks/cancel': { params: taskIdParamsSchema(), handler: cancelTask as never },
    },
    resultTypes: { task: { methods: ['tools/call'], result: CreateTaskResultSchema } },
    subscriptions: notifications.subscriptions,
  };

  const wrapCallTool: Tasks['wrapCallTool'] = (handler, policy) => {
    if (typeof handler !== 'function') throw new TypeError('"inner" expected a tools/call handler');
    if (inner !== undefined) throw new Error('this tasks runtime already wraps a tools/call handler');
    const lookup = policyLookup(policy);
    inner = handler;
    return async (params, ctx) => {
      const found = lookup(params, ctx);
      const taskPolicy: TaskCallPolicy | undefined = typeof found === 'string' ? { support: found } : found;
      if (taskPolicy === undefined) return handler(params, ctx);
      const declared =
        hasExtension(ctx.clientCapabilities, TASKS_EXTENSION) && ctx.protocolVersion !== '2025-11-25';
      if (!declared) {
        if (taskPolicy.support === 'required') throw missingExtension();
        return handler(params, ctx);
      }
      // Nothing is stored until every check passed: the size of what would be stored, the policy's own
      // validation, its `before` step, the principal, and (with the insert, atomically) the open-task limits.
      const own = ownParams(params);
      checkJsonSize(own, maxParamsBytes, 'params');
      if (taskPolicy.validate !== undefined) {
        const answer = await taskPolicy.validate(params, ctx);
        if (answer !== undefined) return answer;
      }
      let begin: TaskStart = { inputResponses: ctx.inputResponses, requestState: ctx.requestState };
      if (taskPolicy.before !== undefined) {
        const prepared = await taskPolicy.before(params, ctx);
        if (isInputRequired(prepared)) return prepared;
        if (prepared !== undefined) begin = prepared;
      }
      const owner = ownerOf(ctx.auth);
      if (owner === undefined) {
        // The verifier returned an AuthInfo with no clientId, issuer, subject or token: fail closed.
        throw new McpError(
          ErrorCode.InternalError,
          'This task cannot be bound to its caller: the authentication names no client, issuer, subject or token',
        );
      }
      const record = newRecord(own, ctx, owner, begin);
      try {
        await store.create(record, limits);
      } catch (refused) {
        if (refused instanceof TaskLimitError) throw quotaExceeded(refused, pollIntervalMs);
        throw refused;
      }
      start(record);
      return createTaskResult(record) as CreateTaskResult & ExtensionResult;
    };
  };

  const newRecord = (
    own: Record<string, unknown>,
    ctx: RequestContext,
    owner: string,
    begin: TaskStart,
  ): TaskRecord => {
    const now = clock();
    const answers: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(begin.inputResponses ?? {})) define(answers, `0.${key}`, value);
    return {
      taskId: newTaskId(),
      owner,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs,
      version: 1,
      leaseUntil: now + leaseMs,
      method: 'tools/call',
      params: own,
      origin: originOf(ctx),
      round: 0,
      inputResponses: answers,
      requestState: begin.requestState,
    };
  };

  const sweep = () => store.deleteExpired(clock());
  const sweeper = sweepIntervalMs === undefined ? undefined : scheduleSweeps(sweep, sweepIntervalMs, warn);

  return {
    extension,
    wrapCallTool,
    sweep,
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running.values()].map((run) => run.done));
    },
    async close() {
      sweeper?.stop();
      for (const run of running.values()) run.controller.abort();
      while (running.size > 0) await Promise.allSettled([...running.values()].map((run) => run.done));
    },
  };
}

function requireExtension(ctx: RequestContext): void {
  if (!hasExtension(ctx.clientCapabilities, TASKS_EXTENSION)) throw missingExtension();
}

function missingExtension(): McpError {
  return McpError.missingRequiredClientCapability(
    { extensions: { [TASKS_EXTENSION]: {} } },
    `Missing required client capability: extensions["${TASKS_EXTENSION}"]`,
  );
}

function originOf(ctx: RequestContext): TaskOrigin {
  const origin: { -readonly [K in keyof TaskOrigin]: TaskOrigin[K] } = {
    protocolVersion: ctx.protocolVersion,
    clientCapabilities: ctx.clientCapabilities,
  };
  if (ctx.clientInfo !== undefined) origin.clientInfo = ctx.clientInfo;
  if (ctx.auth !== undefined) {
    const { clientId, issuer, subject, scopes } = ctx.auth;
    origin.auth = JSON.parse(JSON.stringify({ clientId, issuer, subject, scopes }));
  }
  return origin;
}

/** What a task keeps of a `tools/call`'s params: all but `_meta`, `inputResponses`, `requestState` and `task`. */
function ownParams(params: CallToolRequestParams): Record<string, unknown> {
  const own: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (key === '_meta' || key === 'inputResponses' || key === 'requestState' || key === 'task') continue;
    define(own, key, value);
  }
  return own;
}

/** The `-32029` of a creation past an open-task limit (see {@link TASK_QUOTA_EXCEEDED}). */
function quotaExceeded(refused: TaskLimitError, retryAfterMs: number): McpError {
  const { scope, limit } = refused;
  const message =
    scope === 'owner'
      ? `Too many open tasks: this caller already has ${limit}, the most this server allows per principal; retry once one of them finishes, or cancel one`
      : `Too many open tasks: this server already holds ${limit}, the most it allows; retry later`;
  return new McpError(TASK_QUOTA_EXCEEDED, message, {
    retryAfterMs,
    limit,
    scope: scope === 'owner' ? 'principal' : 'server',
  });
}

/**
 * Runs `sweep` every `intervalMs` on a timer that does not keep the process alive; a sweep still running when the
 * next is due is not doubled, and a failed one is logged (the next one tries again).
 */
function scheduleSweeps(sweep: () => Promise<number>, intervalMs: number, warn: LogFn): { stop(): void } {
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweep()
      .catch((failure: unknown) => warn('the scheduled sweep of expired tasks failed', { failure }))
      .finally(() => {
        sweeping = false;
      });
  }, intervalMs);
  (timer as { unref?: () => void }).unref?.();
  return { stop: () => clearInterval(timer) };
}

function policyLookup(
  policy: TaskPolicyLookup | Readonly<Record<string, TaskCallPolicy | TaskSupport>>,
): TaskPolicyLookup {
  if (typeof policy === 'function') return policy;
  if (typeof policy !== 'object' || policy === null) {
    throw new TypeError('"policy" expected a function or an object of tool names → policies');
  }
  return (params) => (Object.hasOwn(policy, params.name) ? policy[params.name] : undefined);
}

/** An integer option: `undefined` for `fallback`; `TypeError` for a non-number, `RangeError` for one below 1. */
function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw argumentError(name, 'a positive integer', value);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`"${name}" expected a positive integer, got ${String(value)}`);
  }
  return value;
}

/** A limit option: a positive integer, `null` for none, `undefined` for `fallback`. */
function limit(name: string, value: number | null | undefined, fallback: number): number | null {
  return value === null ? null : positive(name, value, fallback);
}

/**
 * The handler's value, or `undefined` as soon as `signal` aborts (a handler that ignores its signal must not keep
 * `close()` waiting; whatever it returns later is dropped).
 */
function untilAborted<T>(value: MaybePromise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const stop = () => resolve(undefined);
    signal.addEventListener('abort', stop, { once: true });
    Promise.resolve(value).then(
      (settled) => {
        signal.removeEventListener('abort', stop);
        resolve(settled);
      },
      (failure: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(failure);
      },
    );
  });
}

function isEmpty(requests: InputRequests | undefined): boolean {
  return requests === undefined || Object.keys(requests).length === 0;
}

/** Sets an own data property (a key such as `__proto__` stays an ordinary member). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
