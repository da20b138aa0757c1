import { expiresAt, type TaskRecord, type TaskStore } from '@boomerang/tasks';
import { checkDb, type PostgresDb, rowsOf } from './db.js';
import { migrateOnce } from './migrations.js';

/**
 * A `TaskStore` on PostgreSQL: PGlite (`new PGlite('./data/tasks')`, a folder on disk: the embedded default,
 * nothing to install) or a PostgreSQL server through `pg` (a `Pool`, shared by every instance of a deployment).
 * The schema's migrations are applied on first use (concurrent starters apply them once).
 *
 * - `create` inserts (a duplicate id is a primary-key violation: it rejects); it resolves once committed.
 * - `update` is one `UPDATE … WHERE task_id = $1 AND version = $2`: the row lock makes concurrent writers
 *   queue, and each re-checks the version after the one before it committed, so exactly one wins.
 * - `deleteExpired(now)` deletes the rows whose `expires_at` (createdAt + ttlMs) is at or before `now`.
 *
 * Throws `TypeError` when `db` is neither driver.
 */
export function postgresTaskStore(db: PostgresDb): TaskStore {
  checkDb(db);
  const migrated = migrateOnce(db);
  return {
    async create(record) {
      await migrated();
      await rowsOf(
        db,
        'INSERT INTO boomerang_tasks (task_id, version, expires_at, record) VALUES ($1, $2, $3, $4::json)',
        [record.taskId, record.version, expiresAt(record), JSON.stringify(record)],
      );
    },
    async get(taskId) {
      await migrated();
      const rows = await rowsOf(db, 'SELECT record FROM boomerang_tasks WHERE task_id = $1', [taskId]);
      const stored = rows[0]?.record;
      if (stored === undefined) return undefined;
      return (typeof stored === 'string' ? JSON.parse(stored) : stored) as TaskRecord;
    },
    async update(next, expectedVersion) {
      await migrated();
      const rows = await rowsOf(
        db,
        `UPDATE boomerang_tasks SET version = $2, expires_at = $3, record = $4::json
           WHERE task_id = $1 AND version = $5 RETURNING task_id`,
        [next.taskId, next.version, expiresAt(next), JSON.stringify(next), expectedVersion],
      );
      return rows.length === 1;
    },
    async deleteExpired(now) {
      await migrated();
      const rows = await rowsOf(
        db,
        'DELETE FROM boomerang_tasks WHERE expires_at IS NOT NULL AND expires_at <= $1 RETURNING task_id',
        [now],
      );
      return rows.length;
    },
  };
}
