// The tasks runtime as one record that every step takes (its options as validated, the rounds running here, the
// wrapped handler), and the one way a step changes a stored task: a compare-and-set retried until it sticks.
import type { LogFn, ServerHandlers } from '@boomerang/server';
import type { TaskLimits, TaskRecord, TaskStore } from './store.js';

/** A `tools/call` handler of a low-level `Server` (what `Tasks.wrapCallTool` wraps and returns). */
export type CallToolHandler = NonNullable<ServerHandlers['onCallTool']>;

/** The options of `createTasks`, checked, with their defaults applied. */
export interface TasksConfig {
  readonly store: TaskStore;
  /** `null`: unlimited. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  readonly leaseMs: number;
  readonly maxInputBytes: number;
  readonly maxParamsBytes: number;
  readonly limits: TaskLimits;
  /** `undefined`: no scheduled sweep. */
  readonly sweepIntervalMs: number | undefined;
  readonly interrupted: 'fail' | 'rerun';
  readonly clock: () => number;
  readonly warn: LogFn;
  readonly error: LogFn;
}

/** A round running on this instance: abort its controller to stop it; `done` settles once it stopped. */
export interface Run {
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

/** The state of one tasks runtime: what every step of the call path, the rounds and the methods reads. */
export interface TaskRuntime extends TasksConfig {
  /** The rounds running on this instance, by task id (at most one per task). */
  readonly running: Map<string, Run>;
  /** The wrapped `tools/call` handler, set once by `wrapCallTool`. */
  handler: CallToolHandler | undefined;
  /** Called after every write that stuck (publishes `notifications/tasks` when the task changed visibly). */
  readonly changed: (before: TaskRecord, after: TaskRecord) => void;
}

/**
 * Reads, changes and compare-and-sets one task until it sticks (another writer may win in between: then the
 * change is computed again from what that writer left). `change` returns the members to change, or `undefined`
 * to leave the task as it is. Resolves to the task as stored after the call, `undefined` when it is gone.
 */
export async function mutate(
  runtime: TaskRuntime,
  taskId: string,
  change: (record: TaskRecord) => Partial<TaskRecord> | undefined,
  touch = true,
): Promise<TaskRecord | undefined> {
  const { store, clock } = runtime;
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
      runtime.changed(record, next);
      return next;
    }
  }
  throw new Error(`task ${taskId}: the store kept rejecting writes (50 conflicting writers in a row)`);
}

/** Sets an own data property (a key such as `__proto__` stays an ordinary member). */
export function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
