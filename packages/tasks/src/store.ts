// The storage contract of the tasks extension: one record per task, replaced whole under compare-and-set.
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
  /** The method the task runs (`tools/call`) and its params (without `_meta`, `inputResponses`, `requestState`). */
  readonly method: string;
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
 * Where tasks live. Implementations: `memoryTaskStore()` (tests), `postgresTaskStore(db)` of
 * `@boomerang/postgres` (PGlite on disk, or PostgreSQL shared by many instances).
 *
 * Contract (checked by `taskStoreChecks()` of `@boomerang/tasks/testing`):
 * - `create` resolves only once the record is durable: a `get` from any instance sharing the store finds it
 *   (the extension returns `CreateTaskResult` after that). It rejects when the id exists.
 * - `get` returns the last record written, or `undefined`. Expiry is the runtime's business; a store may still
 *   return an expired record until `deleteExpired` removes it.
 * - `update(next, expected)` writes `next` only when the stored record's `version` is `expected` (atomically:
 *   a row lock or a conditional write), resolving to `true`; otherwise it writes nothing and resolves to
 *   `false`. `next.version` is `expected + 1`.
 * - `deleteExpired(now)` deletes every record whose `ttlMs` is not null and `createdAt + ttlMs <= now`, and
 *   resolves to how many it deleted.
 */
export interface TaskStore {
  create(record: TaskRecord): Promise<void>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  update(next: TaskRecord, expectedVersion: number): Promise<boolean>;
  deleteExpired(now: number): Promise<number>;
}

/** When the record expires (epoch ms), or `null` for a task without a TTL. */
export function expiresAt(record: Pick<TaskRecord, 'createdAt' | 'ttlMs'>): number | null {
  return record.ttlMs === null ? null : record.createdAt + record.ttlMs;
}
