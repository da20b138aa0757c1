// The storage contract of the tasks extension: one record per task, written under compare-and-set, its params
// written once; and the limits on how many open tasks a store holds.
import type { AuthInfo, ClientCapabilities, Implementation, InputRequests } from '@boomerang/protocol';
import type { TaskError, TaskStatus } from './schema.js';

/**
 * Who created a task and how they spoke: what a round needs to run the request again on any instance. Only the
 * principal's identifying members of `AuthInfo` are kept (never the token).
 */
export interface TaskOrigin {
  /** The request's revision. */
  readonly protocolVersion: string;
  /** What the client declared on the creating request: in-task input requests are checked against it. */
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo?: Implementation | undefined;
  /** `clientId`, `issuer`, `subject` and `scopes` of the creating request's principal. */
  readonly auth?: Pick<AuthInfo, 'clientId' | 'issuer' | 'subject' | 'scopes'> | undefined;
}

/**
 * One task as a {@link TaskStore} keeps it: plain JSON-safe data (numbers are epoch milliseconds). The runtime
 * builds every record; a store only saves and returns it, byte for byte, and compares `version`.
 */
export interface TaskRecord {
  /** Unguessable (256 random bits, base64url): the task's handle and primary key. */
  readonly taskId: string;
  /** The principal that created it (see `ownerOf`): every other principal is told the task does not exist. */
  readonly owner: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string | undefined;
  /** Epoch ms. */
  readonly createdAt: number;
  /** Epoch ms. */
  readonly lastUpdatedAt: number;
  /** From creation; `null`: kept until deleted by hand. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  /**
   * Bumped by one on every write. A store writes a record only over the version it was read at
   * ({@link TaskStore.update}), so of two concurrent writers exactly one wins.
   */
  readonly version: number;
  /** While `working`: until when (epoch ms) the instance running it holds it; it renews this while it runs. */
  readonly leaseUntil: number | null;
  /** The method the task runs (`tools/call`). */
  readonly method: string;
  /**
   * The method's params (without `_meta`, `inputResponses`, `requestState`), at most `maxParamsBytes` of JSON.
   * Set at creation and never changed: every later write carries the same params, so a store keeps them apart and
   * writes them once (a status or lease write never rewrites the arguments).
   */
  readonly params: Readonly<Record<string, unknown>>;
  readonly origin: TaskOrigin;
  /** Counts input rounds; the keys of round n's `inputRequests` are `n.<handler key>` (unique over the task). */
  readonly round: number;
  /** `input_required`: the requests still unanswered, under their task keys. */
  readonly inputRequests?: InputRequests | undefined;
  /** Answers recorded for the current round (task keys); handed to the next run once none is outstanding. */
  readonly inputResponses?: Readonly<Record<string, unknown>> | undefined;
  /** The handler's own state from its last round (plaintext: it never leaves the server). */
  readonly requestState?: string | undefined;
  /** `completed`: the method's result. */
  readonly result?: Readonly<Record<string, unknown>> | undefined;
  /** `failed`: the JSON-RPC error. */
  readonly error?: TaskError | undefined;
}

/**
 * Limits on the open tasks of a store (open: not terminal, so `working` or `input_required`), checked by
 * {@link TaskStore.create} atomically with the insert. `null`: no limit.
 */
export interface TaskLimits {
  /** Most open tasks one `owner` may have. */
  readonly perOwner: number | null;
  /** Most open tasks the whole store may hold (every owner, every instance sharing it). */
  readonly total: number | null;
}

/**
 * What {@link TaskStore.create} rejects with when the new task would pass one of its {@link TaskLimits}: nothing
 * was written. `scope` names the limit (`owner`: the record's owner has `limit` open tasks; `total`: the store
 * holds `limit`).
 */
export class TaskLimitError extends Error {
  override readonly name = 'TaskLimitError';
  /** Which limit was reached. */
  readonly scope: 'owner' | 'total';
  /** Its value. */
  readonly limit: number;

  constructor(scope: 'owner' | 'total', limit: number) {
    super(
      scope === 'owner'
        ? `the task's owner already has ${limit} open tasks (the limit per owner)`
        : `the store already holds ${limit} open tasks (its limit)`,
    );
    this.scope = scope;
    this.limit = limit;
  }
}

/**
 * Where tasks live. Implementations: `memoryTaskStore()` (tests), `postgresTaskStore(db)` of
 * `@boomerang/postgres` (PGlite on disk, or PostgreSQL shared by many instances).
 *
 * Contract (checked by `taskStoreChecks()` of `@boomerang/tasks/testing`):
 * - `create(record, limits?)` resolves only once the record is durable: a `get` from any instance sharing the
 *   store finds it (the extension returns `CreateTaskResult` after that). It rejects when the id exists. With
 *   `limits`, a record created open is refused with a {@link TaskLimitError} when its owner already has
 *   `limits.perOwner` open tasks or the store `limits.total`; the count and the insert are one atomic step, so
 *   of many concurrent creations exactly as many as the limit allows succeed. A record created terminal is never
 *   refused.
 * - `get` returns the last record written, or `undefined`. Expiry is the runtime's business; a store may still
 *   return an expired record until `deleteExpired` removes it.
 * - `update(next, expected)` writes `next` only when the stored record's `version` is `expected` (atomically:
 *   a row lock or a conditional write), resolving to `true`; otherwise it writes nothing and resolves to
 *   `false`. `next.version` is `expected + 1`. `next.params` is always the params the record was created with:
 *   a store should leave them where they are (the runtime renews a running task's lease every few seconds, and a
 *   write that copied megabytes of arguments each time would be the store's main cost).
 * - `deleteExpired(now)` deletes every record whose `ttlMs` is not null and `createdAt + ttlMs <= now`, and
 *   resolves to how many it deleted. A deleted open task no longer counts toward the limits; nor does a task once
 *   an `update` made it terminal.
 */
export interface TaskStore {
  create(record: TaskRecord, limits?: TaskLimits): Promise<void>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  update(next: TaskRecord, expectedVersion: number): Promise<boolean>;
  deleteExpired(now: number): Promise<number>;
}

/** When the record expires (epoch ms), or `null` for a task without a TTL. */
export function expiresAt(record: Pick<TaskRecord, 'createdAt' | 'ttlMs'>): number | null {
  return record.ttlMs === null ? null : record.createdAt + record.ttlMs;
}
