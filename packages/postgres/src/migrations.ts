// The one SQL schema of the stores, as numbered migrations applied on start. PostgreSQL 15 and PGlite run the
// same statements. Each migration is idempotent and runs under an advisory transaction lock, so instances that
// start together apply it once; `boomerang_migrations` records what is applied.
import { type PostgresDb, rowsOf, runScript } from './db.js';

/** One versioned step of a schema. */
export interface Migration {
  /** Its number: ids increase along the list, and each is applied once. */
  readonly id: number;
  /** A short name, recorded beside the id. */
  readonly name: string;
  /** The statements, run in one transaction; written so that running them twice changes nothing. */
  readonly sql: string;
}

/** Every migration, in order. Never edit one that shipped: add the next. */
export const MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: 'tasks',
    // `record` is the TaskRecord as the runtime wrote it; `version` is its compare-and-set token; `expires_at`
    // (epoch ms, null without a TTL) is what deleteExpired scans.
    sql: `
      CREATE TABLE IF NOT EXISTS boomerang_tasks (
        task_id text PRIMARY KEY,
        version integer NOT NULL,
        expires_at bigint,
        record jsonb NOT NULL
      );
      CREATE INDEX IF NOT EXISTS boomerang_tasks_expires_at ON boomerang_tasks (expires_at)
        WHERE expires_at IS NOT NULL;`,
  },
  {
    id: 2,
    name: 'tasks-record-json',
    // `json` keeps the record's text as written (`jsonb` would sort every object's members, and a form's fields
    // would come back in another order). Nothing queries inside `record`, so nothing needs jsonb. Idempotent:
    // altering a `json` column to `json` changes nothing.
    sql: `
      ALTER TABLE boomerang_tasks ALTER COLUMN record TYPE json USING record::json;`,
  },
  {
    id: 3,
    name: 'notification-payloads',
    // Messages of postgresNotifications too large for a NOTIFY (8,000 bytes): the row is written, its id
    // notified as `ref:<id>`, and listeners read it back. Rows are deleted once older than the retention.
    sql: `
      CREATE TABLE IF NOT EXISTS boomerang_notification_payloads (
        id bigserial PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now(),
        payload text NOT NULL
      );
      CREATE INDEX IF NOT EXISTS boomerang_notification_payloads_created_at
        ON boomerang_notification_payloads (created_at);`,
  },
];

/** An arbitrary constant: the advisory lock every Boomerang migration takes. */
const LOCK = 727_261_401;

/** What {@link migrate} applies, and where it records what it applied. */
export interface MigrateOptions {
  /**
   * The schema's migrations, in order (default: {@link MIGRATIONS}, the stores of this package). An app with
   * tables of its own passes its list and its own `table`, and gets the same guarantees.
   */
  readonly migrations?: readonly Migration[];
  /** The table that records the applied ids (default `boomerang_migrations`): one per list of migrations. */
  readonly table?: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Throws `TypeError` for a table name that is not a plain lower-case SQL identifier, or ids out of order. */
function checkOptions(table: string, migrations: readonly Migration[]): void {
  if (typeof table !== 'string' || !IDENTIFIER.test(table)) {
    throw new TypeError(`"table" expected a lower-case SQL identifier, got ${JSON.stringify(table)}`);
  }
  if (!Array.isArray(migrations)) throw new TypeError('"migrations" expected an array');
  let previous = 0;
  for (const [i, migration] of migrations.entries()) {
    const { id, name, sql } = migration ?? ({} as Migration);
    if (!Number.isSafeInteger(id) || id <= previous || typeof name !== 'string' || typeof sql !== 'string') {
      throw new TypeError(
        `"migrations[${i}]" expected { id, name, sql } with an integer id above ${previous}, got ${JSON.stringify(migration)}`,
      );
    }
    previous = id;
  }
}

/**
 * Applies the migrations `db` lacks, in order, each in its own transaction under one advisory lock, recording
 * each in `options.table`; resolves to the ids it ran (concurrent starters may both run one: each is
 * idempotent). Throws `TypeError` for a bad `options.table` or a list whose ids do not increase.
 */
export async function migrate(db: PostgresDb, options: MigrateOptions = {}): Promise<number[]> {
  const { migrations = MIGRATIONS, table = 'boomerang_migrations' } = options;
  checkOptions(table, migrations);
  await runScript(
    db,
    `BEGIN;
     SELECT pg_advisory_xact_lock(${LOCK});
     CREATE TABLE IF NOT EXISTS ${table} (
       id integer PRIMARY KEY,
       name text NOT NULL,
       applied_at timestamptz NOT NULL DEFAULT now()
     );
     COMMIT;`,
  );
  const applied = new Set((await rowsOf(db, `SELECT id FROM ${table}`, [])).map((row) => Number(row.id)));
  const done: number[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.id)) continue;
    await runScript(
      db,
      `BEGIN;
       SELECT pg_advisory_xact_lock(${LOCK});
       ${migration.sql}
       INSERT INTO ${table} (id, name) VALUES (${migration.id}, '${migration.name.replaceAll("'", "''")}')
         ON CONFLICT (id) DO NOTHING;
       COMMIT;`,
    );
    done.push(migration.id);
  }
  return done;
}

/**
 * A function that migrates `db` on its first call and returns the same promise after (a failed attempt is
 * forgotten, so that the next call tries again): what a store or a notification source awaits before its first
 * statement.
 */
export function migrateOnce(db: PostgresDb): () => Promise<unknown> {
  let ready: Promise<unknown> | undefined;
  return () => {
    ready ??= migrate(db).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };
}
