import { isTerminal } from './schema.js';
import { expiresAt, TaskLimitError, type TaskLimits, type TaskRecord, type TaskStore } from './store.js';

/** One stored task: the record as JSON with `params: null`, and its params as JSON, written once. */
interface Row {
  readonly record: string;
  readonly params: string;
  readonly owner: string;
  readonly version: number;
  readonly open: boolean;
  readonly expiresAt: number | null;
}

/**
 * A {@link TaskStore} in a `Map`, for tests and examples: nothing survives the process, and nothing is shared
 * with another process. Records are copied in and out (through JSON, as a database would), so a caller never
 * holds the stored object; a task's params are serialized once, at creation, and an `update` serializes the rest
 * of the record only. Open tasks are counted per owner as they are created, finished and deleted, so the limits
 * cost no scan. Use `postgresTaskStore(db)` of `@boomerang/postgres` for anything that must last.
 */
export function memoryTaskStore(): TaskStore {
  const rows = new Map<string, Row>();
  const openByOwner = new Map<string, number>();
  let openTotal = 0;

  const count = (owner: string, delta: number): void => {
    const next = (openByOwner.get(owner) ?? 0) + delta;
    if (next === 0) openByOwner.delete(owner);
    else openByOwner.set(owner, next);
    openTotal += delta;
  };
  // `params` is a member of the parsed record already (as `null`), so spreading keeps every member in place.
  const read = (row: Row): TaskRecord => ({ ...JSON.parse(row.record), params: JSON.parse(row.params) });

  return {
    async create(record, limits?: TaskLimits) {
      if (rows.has(record.taskId)) throw new Error(`task ${record.taskId} already exists`);
      const open = !isTerminal(record.status);
      if (open && limits !== undefined) {
        const { perOwner, total } = limits;
        if (total !== null && openTotal >= total) throw new TaskLimitError('total', total);
        if (perOwner !== null && (openByOwner.get(record.owner) ?? 0) >= perOwner) {
          throw new TaskLimitError('owner', perOwner);
        }
      }
      rows.set(record.taskId, {
        record: withoutParams(record),
        params: JSON.stringify(record.params),
        owner: record.owner,
        version: record.version,
        open,
        expiresAt: expiresAt(record),
      });
      if (open) count(record.owner, 1);
    },
    async get(taskId) {
      const row = rows.get(taskId);
      return row === undefined ? undefined : read(row);
    },
    async update(next, expectedVersion) {
      const row = rows.get(next.taskId);
      if (row === undefined || row.version !== expectedVersion) return false;
      const open = !isTerminal(next.status);
      const { version } = next;
      rows.set(next.taskId, {
        ...row,
        record: withoutParams(next),
        version,
        open,
        expiresAt: expiresAt(next),
      });
      if (open !== row.open) count(row.owner, open ? 1 : -1);
      return true;
    },
    async deleteExpired(now) {
      let deleted = 0;
      for (const [taskId, row] of rows) {
        if (row.expiresAt !== null && row.expiresAt <= now) {
          rows.delete(taskId);
          if (row.open) count(row.owner, -1);
          deleted++;
        }
      }
      return deleted;
    },
  };
}

/** The record as JSON with `params` as `null` in its place (members keep their order). */
function withoutParams(record: TaskRecord): string {
  return JSON.stringify({ ...record, params: null });
}
