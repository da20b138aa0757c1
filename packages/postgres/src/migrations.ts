// The one SQL schema of the stores, as numbered migrations applied on start. PostgreSQL 15 and PGlite run the
// same statements. Each migration is idempotent and runs under an advisory transaction lock, so instances that
// start together apply it once; `boomerang_migrations` records what is applied.
import { argumentError } from '@boomerang/protocol';
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
  {
    id: 4,
    name: 'tasks-params-and-open-counts',
    // A task's params get a column of their own, written once by create: status and lease writes set `version`,
    // `expires_at`, `record` (now small: `"params": null` in their place) and the two columns below, and
    // PostgreSQL keeps the untouched params where they are (TOAST), so a write no longer copies megabytes of
    // arguments. Rows written before (their `params` column null) keep their params in `record` and are read and
    // written whole, as before, until they expire.
    // `owner` and `is_open` (not terminal) are written by the store beside `record`; nothing parses `record` in
    // SQL (`->>` refuses a document holding a `\u0000` escape or half a surrogate pair anywhere, both valid in
    // what a client may send). For older rows they are read once here from the record's text: its first
    // `"owner"` and `"status"` members, which the runtime writes first.
    // `boomerang_task_counts` holds the open tasks per owner (`o:<owner>`) and in total (`total`), kept by
    // triggers on every insert, finish and delete, so a limit check reads two rows whatever the table holds;
    // `boomerang_task_create` checks the limits and inserts in one statement. Every path takes the `total` row
    // before an owner's row (a delete's counts are taken after its rows), so concurrent creations, finishes and
    // sweeps never deadlock. Idempotent: columns and the table are added if missing, the older rows' columns
    // filled where still null, functions and triggers replaced, the counts recomputed from the rows.
    sql: `
      ALTER TABLE boomerang_tasks ADD COLUMN IF NOT EXISTS params json;
      ALTER TABLE boomerang_tasks ADD COLUMN IF NOT EXISTS owner text;
      ALTER TABLE boomerang_tasks ADD COLUMN IF NOT EXISTS is_open boolean;
      UPDATE boomerang_tasks SET
        owner = (
          SELECT ('"' || found[1] || '"')::json #>> '{}'
          FROM regexp_match(record::text, '"owner":"((?:[^"\\\\]|\\\\.)*)"') AS found
        ),
        is_open = COALESCE(
          (regexp_match(record::text, '"status":"([a-z_]+)"'))[1] IN ('working', 'input_required'),
          false
        )
        WHERE owner IS NULL;
      CREATE TABLE IF NOT EXISTS boomerang_task_counts (
        scope text PRIMARY KEY,
        open_tasks integer NOT NULL
      );
      UPDATE boomerang_task_counts SET open_tasks = 0;
      INSERT INTO boomerang_task_counts (scope, open_tasks)
        SELECT 'total', count(*) FROM boomerang_tasks WHERE is_open
        UNION ALL
        SELECT 'o:' || owner, count(*) FROM boomerang_tasks WHERE is_open GROUP BY owner
        ON CONFLICT (scope) DO UPDATE SET open_tasks = EXCLUDED.open_tasks;

      -- An insert of an open task counts it; an update that opens or closes one counts it or releases it (a row
      -- that was never counted, its is_open null, is not released).
      CREATE OR REPLACE FUNCTION boomerang_task_counted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.is_open THEN
          INSERT INTO boomerang_task_counts AS c (scope, open_tasks) VALUES ('total', 1), ('o:' || NEW.owner, 1)
            ON CONFLICT (scope) DO UPDATE SET open_tasks = c.open_tasks + 1;
        ELSIF TG_OP = 'UPDATE' AND OLD.is_open THEN
          UPDATE boomerang_task_counts SET open_tasks = open_tasks - 1 WHERE scope = 'total';
          UPDATE boomerang_task_counts SET open_tasks = open_tasks - 1 WHERE scope = 'o:' || OLD.owner;
        END IF;
        RETURN NULL;
      END $$;
      CREATE OR REPLACE TRIGGER boomerang_tasks_opened AFTER INSERT ON boomerang_tasks
        FOR EACH ROW WHEN (NEW.is_open) EXECUTE FUNCTION boomerang_task_counted();
      CREATE OR REPLACE TRIGGER boomerang_tasks_opened_or_closed AFTER UPDATE ON boomerang_tasks
        FOR EACH ROW WHEN (OLD.is_open IS DISTINCT FROM NEW.is_open) EXECUTE FUNCTION boomerang_task_counted();

      -- A delete releases the open tasks it removed, once per statement (after every row of it is locked).
      CREATE OR REPLACE FUNCTION boomerang_task_released() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE boomerang_task_counts SET open_tasks = open_tasks - gone.n
          FROM (SELECT count(*) AS n FROM boomerang_tasks_gone WHERE is_open) gone
          WHERE scope = 'total' AND gone.n > 0;
        UPDATE boomerang_task_counts c SET open_tasks = c.open_tasks - gone.n
          FROM (
            SELECT 'o:' || owner AS scope, count(*) AS n FROM boomerang_tasks_gone WHERE is_open GROUP BY owner
          ) gone
          WHERE c.scope = gone.scope;
        RETURN NULL;
      END $$;
      CREATE OR REPLACE TRIGGER boomerang_tasks_deleted AFTER DELETE ON boomerang_tasks
        REFERENCING OLD TABLE AS boomerang_tasks_gone
        FOR EACH STATEMENT EXECUTE FUNCTION boomerang_task_released();

      -- Inserts a task unless an open-task limit refuses it: NULL when inserted, 'total' or 'owner' when refused
      -- (nothing written). A limit is NULL for none; with both NULL no count is read or locked. The counts are
      -- locked (total, then the owner's) until the statement commits, so each check sees every creation and
      -- finish committed before it.
      CREATE OR REPLACE FUNCTION boomerang_task_create(
        p_task_id text, p_version integer, p_expires_at bigint, p_record json, p_params json,
        p_owner text, p_open boolean, p_per_owner integer, p_total integer
      ) RETURNS text LANGUAGE plpgsql AS $$
      DECLARE
        v_scope text := 'o:' || p_owner;
        v_total integer;
        v_owned integer;
      BEGIN
        IF p_per_owner IS NOT NULL OR p_total IS NOT NULL THEN
          FOR attempt IN 1..100 LOOP
            -- The rows must exist to be locked; a sweep may delete an owner's row at zero in between: again.
            INSERT INTO boomerang_task_counts (scope, open_tasks) VALUES ('total', 0), (v_scope, 0)
              ON CONFLICT (scope) DO NOTHING;
            SELECT open_tasks INTO v_total FROM boomerang_task_counts WHERE scope = 'total' FOR UPDATE;
            SELECT open_tasks INTO v_owned FROM boomerang_task_counts WHERE scope = v_scope FOR UPDATE;
            EXIT WHEN FOUND;
          END LOOP;
          IF p_total IS NOT NULL AND v_total >= p_total THEN
            RETURN 'total';
          END IF;
          IF p_per_owner IS NOT NULL AND COALESCE(v_owned, 0) >= p_per_owner THEN
            RETURN 'owner';
          END IF;
        END IF;
        INSERT INTO boomerang_tasks (task_id, version, expires_at, record, params, owner, is_open)
          VALUES (p_task_id, p_version, p_expires_at, p_record, p_params, p_owner, p_open);
        RETURN NULL;
      END $$;`,
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
    throw argumentError('table', 'a lower-case SQL identifier', table);
  }
  if (!Array.isArray(migrations)) throw argumentError('migrations', 'an array', migrations);
  let previous = 0;
  for (const [i, migration] of migrations.entries()) {
    const { id, name, sql }: Partial<Migration> = migration ?? {};
    if (
      typeof id !== 'number' ||
      !Number.isSafeInteger(id) ||
      id <= previous ||
      typeof name !== 'string' ||
      typeof sql !== 'string'
    ) {
      throw argumentError(
        `migrations[${i}]`,
        `{ id, name, sql } with an integer id above ${previous}`,
        migration,
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
