import {
  expiresAt,
  isTerminal,
  TaskLimitError,
  type TaskLimits,
  type TaskRecord,
  type TaskStore,
} from '@boomerang/tasks';
import { checkDb, isPGlite, type PostgresDb, rowsOf } from './db.js';
import { migrateOnce } from './migrations.js';

/**
 * A `TaskStore` on PostgreSQL: PGlite (`new PGlite('./data/tasks')`, a folder on disk: the embedded default,
 * nothing to install) or a PostgreSQL server through `pg` (a `Pool`, shared by every instance of a deployment).
 * The schema's migrations are applied on first use (concurrent starters apply them once).
 *
 * - A task is one row of `boomerang_tasks`: its params (the tool's arguments) in the `params` column, written
 *   once by `create`; the rest of the record in `record` (with `"params": null` in their place); its `owner`
 *   and whether it `is_open` (not terminal) in columns of their own, which the limits count. Nothing parses
 *   `record` in SQL, so any JSON the runtime writes (a `\u0000` escape, half a surrogate pair) is stored as is.
 * - `create` is one call of `boomerang_task_create`: with limits, it locks the open-task counts (the store's
 *   total, then the owner's), refuses with a `TaskLimitError` when one is reached, and inserts; all in one
 *   statement, so of concurrent creations exactly as many as a limit allows succeed. A duplicate id is a
 *   primary-key violation: it rejects. It resolves once committed.
 * - `update` is one `UPDATE … SET version, expires_at, record WHERE task_id = $1 AND version = $2`: it never
 *   sends the params, and PostgreSQL keeps the stored ones where they are, so a status or lease write costs the
 *   size of the small record only. The row lock makes concurrent writers queue, and each re-checks the version
 *   after the one before it committed, so exactly one wins.
 * - `deleteExpired(now)` deletes the rows whose `expires_at` (createdAt + ttlMs) is at or before `now`, then the
 *   counts of owners left with no open task; on PGlite, which runs no autovacuum, it then vacuums the table so
 *   that the space of the deleted tasks is reused.
 * - Open tasks are counted by triggers on every insert, finish and delete (`boomerang_task_counts`), so a limit
 *   check reads two rows whatever the table holds, and a row written by other means is counted too.
 *
 * Throws `TypeError` when `db` is neither driver.
 */
export function postgresTaskStore(db: PostgresDb): TaskStore {
  checkDb(db);
  const migrated = migrateOnce(db);
  const embedded = isPGlite(db);
  return {
    async create(record, limits?: TaskLimits) {
      await migrated();
      const open = !isTerminal(record.status);
      const perOwner = open ? (limits?.perOwner ?? null) : null;
      const total = open ? (limits?.total ?? null) : null;
      const rows = await rowsOf(
        db,
        'SELECT boomerang_task_create($1, $2, $3, $4::json, $5::json, $6, $7, $8, $9) AS refused',
        [
          record.taskId,
          record.version,
          expiresAt(record),
          withoutParams(record),
          JSON.stringify(record.params),
          record.owner,
          open,
          perOwner,
          total,
        ],
      );
      const refused = rows[0]?.refused;
      if (refused === 'owner' && perOwner !== null) throw new TaskLimitError('owner', perOwner);
      if (refused === 'total' && total !== null) throw new TaskLimitError('total', total);
    },
    async get(taskId) {
      await migrated();
      const rows = await rowsOf(db, 'SELECT record, params FROM boomerang_tasks WHERE task_id = $1', [
        taskId,
      ]);
      const row = rows[0];
      if (row === undefined) return undefined;
      // The runtime wrote both columns: they are a TaskRecord and its params (a store saves and returns them).
      const record = json(row.record) as TaskRecord;
      if (row.params === null || row.params === undefined) return record;
      // `params` is a member of the record already (as `null`): spreading keeps every member in place.
      return { ...record, params: json(row.params) as TaskRecord['params'] };
    },
    async update(next, expectedVersion) {
      await migrated();
      const open = !isTerminal(next.status);
      // Never `params`: PostgreSQL keeps them where they are. A row older than migration 4 (its params still in
      // its record, the column null) is reported, and written whole by the second statement.
      const rows = await rowsOf(
        db,
        `WITH moved AS (
           UPDATE boomerang_tasks SET version = $2, expires_at = $3, record = $4::json, owner = $6, is_open = $7
             WHERE task_id = $1 AND version = $5 AND params IS NOT NULL RETURNING task_id
         )
         SELECT (SELECT count(*) FROM moved) = 1 AS moved,
           (SELECT params IS NULL FROM boomerang_tasks WHERE task_id = $1 AND version = $5) AS whole`,
        [next.taskId, next.version, expiresAt(next), withoutParams(next), expectedVersion, next.owner, open],
      );
      if (rows[0]?.moved === true) return true;
      if (rows[0]?.whole !== true) return false;
      const whole = await rowsOf(
        db,
        `UPDATE boomerang_tasks SET version = $2, expires_at = $3, record = $4::json, owner = $6, is_open = $7
           WHERE task_id = $1 AND version = $5 AND params IS NULL RETURNING task_id`,
        [next.taskId, next.version, expiresAt(next), JSON.stringify(next), expectedVersion, next.owner, open],
      );
      return whole.length === 1;
    },
    async deleteExpired(now) {
      await migrated();
      const rows = await rowsOf(
        db,
        'DELETE FROM boomerang_tasks WHERE expires_at IS NOT NULL AND expires_at <= $1 RETURNING task_id',
        [now],
      );
      await rowsOf(db, "DELETE FROM boomerang_task_counts WHERE open_tasks = 0 AND scope <> 'total'", []);
      // PGlite runs no autovacuum: without this, the space of deleted tasks (their arguments) is never reused and
      // its folder only grows. PostgreSQL's autovacuum does it there.
      if (rows.length > 0 && embedded) await rowsOf(db, 'VACUUM boomerang_tasks, boomerang_task_counts', []);
      return rows.length;
    },
  };
}

/** The record as JSON with `params` as `null` in its place (members keep their order). */
function withoutParams(record: TaskRecord): string {
  return JSON.stringify({ ...record, params: null });
}

/** A `json` column as the driver returns it: parsed already (pg, PGlite), or text. */
function json(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}
