// The server side of the tasks extension: task creation on tools/call, rounds run in the background on whichever
// instance holds the task, and the three methods. Every write is a compare-and-set on the store, so any number of
// instances can share one store. This file holds the runtime's options and puts its parts together: the call path
// (call-tool.ts), the rounds (rounds.ts), the methods (methods.ts), who may see a task (access.ts), the sweep
// (sweep.ts) and notifications/tasks (status-notifications.ts), all over one state record (state.ts).
import { argumentError } from '@boomerang/protocol';
import { consoleLogger } from '@boomerang/protocol/internal';
import type { LogFn, ServerExtension, TaskSupport } from '@boomerang/server';
import { requireExtension, visible } from './access.js';
import {
  TASK_QUOTA_EXCEEDED,
  type TaskCallPolicy,
  type TaskPolicyLookup,
  wrapCallTool,
} from './call-tool.js';
import { tasksExtension } from './methods.js';
import { INTERRUPTED, settled } from './rounds.js';
import type { CallToolHandler, TaskRuntime, TasksConfig } from './state.js';
import { statusNotifications } from './status-notifications.js';
import type { TaskStore } from './store.js';
import { scheduleSweeps } from './sweep.js';

/** Whether a tool runs as a task, and how a task starts: declared by @boomerang/server, shared with McpServer. */
export type { TaskPolicy, TaskStart, TaskSupport } from '@boomerang/server';
export type { CallToolHandler, TaskCallPolicy, TaskPolicyLookup };
export { INTERRUPTED, TASK_QUOTA_EXCEEDED };

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

/** The longest delay a timer takes (2^31 − 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Creates the tasks runtime of one server. Throws `TypeError` for a missing store and `RangeError` for a
 * non-positive or fractional duration.
 */
export function createTasks(options: TasksOptions): Tasks {
  const config = configure(options);
  const notifications = statusNotifications({
    requireExtension,
    visible: (taskId, ctx) => visible(runtime, taskId, ctx),
    warn: config.warn,
  });
  const runtime: TaskRuntime = {
    ...config,
    running: new Map(),
    handler: undefined,
    changed: notifications.changed,
  };
  const { store, clock, sweepIntervalMs } = runtime;
  const sweep = () => store.deleteExpired(clock());
  const sweeper =
    sweepIntervalMs === undefined ? undefined : scheduleSweeps(sweep, sweepIntervalMs, config.warn);

  return {
    extension: tasksExtension(runtime, notifications.subscriptions),
    wrapCallTool: (handler, policy) => wrapCallTool(runtime, handler, policy),
    sweep,
    idle: () => settled(runtime),
    async close() {
      sweeper?.stop();
      for (const run of runtime.running.values()) run.controller.abort();
      await settled(runtime);
    },
  };
}

/** `options` checked (`TypeError` / `RangeError` for the first bad one), with the defaults applied. */
function configure(options: TasksOptions): TasksConfig {
  const { store } = options;
  if (
    typeof store !== 'object' ||
    store === null ||
    typeof store.create !== 'function' ||
    typeof store.update !== 'function'
  ) {
    throw argumentError('store', 'a TaskStore (memoryTaskStore(), postgresTaskStore(db))', store);
  }
  const ttlMs = options.ttlMs === null ? null : positive('ttlMs', options.ttlMs, DEFAULTS.ttlMs);
  const pollIntervalMs = positive('pollIntervalMs', options.pollIntervalMs, DEFAULTS.pollIntervalMs);
  const leaseMs = positive('leaseMs', options.leaseMs, DEFAULTS.leaseMs);
  const maxInputBytes = positive('maxInputBytes', options.maxInputBytes, DEFAULTS.maxInputBytes);
  const maxParamsBytes = positive('maxParamsBytes', options.maxParamsBytes, DEFAULTS.maxParamsBytes);
  const limits = {
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
    throw argumentError('interrupted', '"fail" or "rerun"', interrupted);
  }
  const clock = options.clock ?? Date.now;
  const warn: LogFn = options.logger?.warn ?? consoleLogger.warn;
  const error: LogFn = options.logger?.error ?? consoleLogger.error;
  return {
    store,
    ttlMs,
    pollIntervalMs,
    leaseMs,
    maxInputBytes,
    maxParamsBytes,
    limits,
    sweepIntervalMs,
    interrupted,
    clock,
    warn,
    error,
  };
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
