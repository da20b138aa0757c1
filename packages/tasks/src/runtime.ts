// The server side of the tasks extension: task creation on tools/call, rounds run in the background on whichever
// instance holds the task, and the three methods. Every write is a compare-and-set on the store, so any number of
// instances can share one store.
import {
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
import {
  type CreateTaskResult,
  CreateTaskResultSchema,
  isTerminal,
  TASKS_EXTENSION,
  type TaskError,
  taskIdParamsSchema,
  updateTaskParamsSchema,
} from './schema.js';
import { statusNotifications } from './status-notifications.js';
import { expiresAt, type TaskOrigin, type TaskRecord, type TaskStore } from './store.js';
import { createTaskResult, detailedTask } from './wire.js';

/** A `tools/call` handler of a low-level `Server` (what {@link Tasks.wrapCallTool} wraps and returns). */
export type CallToolHandler = NonNullable<ServerHandlers['onCallTool']>;

/** Whether a tool runs as a task, and how a task starts: declared by @boomerang/server, shared with McpServer. */
export type { TaskPolicy, TaskStart, TaskSupport } from '@boomerang/server';

/** Per call: the tool's policy, `undefined` for a tool that never runs as a task. */
export type TaskPolicyLookup = (
  params: CallToolRequestParams,
  ctx: RequestContext,
) => TaskPolicy | TaskSupport | undefined;

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
    policy: TaskPolicyLookup | Readonly<Record<string, TaskPolicy | TaskSupport>>,
  ): CallToolHandler;
  /** Deletes the expired tasks from the store now; resolves to how many. */
  sweep(): Promise<number>;
  /** Resolves once no round runs on this instance (tests, orderly shutdown). */
  idle(): Promise<void>;
  /**
   * Stops the rounds running here (their handlers see `ctx.signal` abort; what they return is dropped) and waits
   * for them. Their tasks stay `working` until their lease runs out, then `interrupted` decides.
   */
  close(): Promise<void>;
}

const DEFAULTS = { ttlMs: 3_600_000, pollIntervalMs: 1_000, leaseMs: 30_000, maxInputBytes: 65_536 };

/** The `failed` error of a task whose runner stopped before it finished. */
export const INTERRUPTED: TaskError = {
  code: ErrorCode.InternalError,
  message: 'Task interrupted: the server running it stopped before it finished',
};

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
    const size = new TextEncoder().encode(JSON.stringify(params.inputResponses)).length;
    if (size > maxInputBytes) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid params: inputResponses is ${size} bytes, over this server's ${maxInputBytes}-byte limit`,
      );
    }
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
      const taskPolicy: TaskPolicy | undefined = typeof found === 'string' ? { support: found } : found;
      if (taskPolicy === undefined) return handler(params, ctx);
      const declared =
        hasExtension(ctx.clientCapabilities, TASKS_EXTENSION) && ctx.protocolVersion !== '2025-11-25';
      if (!declared) {
        if (taskPolicy.support === 'required') throw missingExtension();
        return handler(params, ctx);
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
      const record = newRecord(params, ctx, owner, begin);
      await store.create(record);
      start(record);
      return createTaskResult(record) as CreateTaskResult & ExtensionResult;
    };
  };

  const newRecord = (
    params: CallToolRequestParams,
    ctx: RequestContext,
    owner: string,
    begin: TaskStart,
  ): TaskRecord => {
    const now = clock();
    const own: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(params)) {
      if (key === '_meta' || key === 'inputResponses' || key === 'requestState' || key === 'task') continue;
      define(own, key, value);
    }
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

  return {
    extension,
    wrapCallTool,
    sweep: () => store.deleteExpired(clock()),
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running.values()].map((run) => run.done));
    },
    async close() {
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

function policyLookup(
  policy: TaskPolicyLookup | Readonly<Record<string, TaskPolicy | TaskSupport>>,
): TaskPolicyLookup {
  if (typeof policy === 'function') return policy;
  if (typeof policy !== 'object' || policy === null) {
    throw new TypeError('"policy" expected a function or an object of tool names → policies');
  }
  return (params) => (Object.hasOwn(policy, params.name) ? policy[params.name] : undefined);
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`"${name}" expected a positive integer of milliseconds, got ${String(value)}`);
  }
  return value;
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
