// The inbox's SQL schema, one list of numbered migrations that PGlite and PostgreSQL 15 both run, applied by
// `migrate()` of @boomerang/postgres and recorded in `inbox_migrations`. Never edit one that shipped: add the next.
import { type Migration, migrate, type PostgresDb } from '@boomerang/postgres';

/** The table that records which of {@link INBOX_MIGRATIONS} a database has. */
export const INBOX_MIGRATIONS_TABLE = 'inbox_migrations';

/** Every migration of the inbox, in order. */
export const INBOX_MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: 'flows and rounds',
    // `json`, not `jsonb`: a continuation's forms come back with their fields in the order the server wrote
    // them. Times are epoch ms. The partial indexes serve the resumers' queue (`answered`, oldest first), the
    // deadline sweep (`pending`) and the stale-claim sweep (`resuming`); `updated_at` orders the page's lists.
    // `inbox_rounds` keeps every answered round: who answered what, and which resumer sent it.
    sql: `
      CREATE TABLE IF NOT EXISTS inbox_flows (
        id text PRIMARY KEY,
        server text NOT NULL,
        tool text NOT NULL,
        arguments json NOT NULL,
        note text,
        status text NOT NULL CHECK (status IN
          ('pending', 'answered', 'resuming', 'completed', 'failed', 'rejected', 'expired', 'dropped')),
        round integer NOT NULL,
        continuation json,
        answerers json,
        deadline bigint NOT NULL,
        round_ms bigint NOT NULL,
        answers json,
        answered_by text,
        result json,
        error text,
        claimed_by text,
        claimed_at bigint,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL
      );
      CREATE INDEX IF NOT EXISTS inbox_flows_queue ON inbox_flows (updated_at, id) WHERE status = 'answered';
      CREATE INDEX IF NOT EXISTS inbox_flows_deadline ON inbox_flows (deadline) WHERE status = 'pending';
      CREATE INDEX IF NOT EXISTS inbox_flows_claimed ON inbox_flows (claimed_at) WHERE status = 'resuming';
      CREATE INDEX IF NOT EXISTS inbox_flows_updated ON inbox_flows (updated_at);
      CREATE TABLE IF NOT EXISTS inbox_rounds (
        flow_id text NOT NULL REFERENCES inbox_flows (id) ON DELETE CASCADE,
        round integer NOT NULL,
        questions json NOT NULL,
        answers json NOT NULL,
        answered_by text NOT NULL,
        answered_at bigint NOT NULL,
        resumed_by text,
        resumed_at bigint,
        outcome text,
        PRIMARY KEY (flow_id, round)
      );`,
  },
  {
    id: 2,
    name: 'revoked sessions',
    // A session signed out before its cookie expired, kept until that expiry (epoch ms): after it the cookie is
    // refused anyway, and the row is swept.
    sql: `
      CREATE TABLE IF NOT EXISTS inbox_revoked_sessions (
        id text PRIMARY KEY,
        expires_at bigint NOT NULL
      );
      CREATE INDEX IF NOT EXISTS inbox_revoked_sessions_expiry ON inbox_revoked_sessions (expires_at);`,
  },
];

/**
 * What every store of the inbox awaits before its first statement: {@link INBOX_MIGRATIONS} applied to `db`, once
 * per returned function (tried again after a failure). `migrate()` takes a lock, so stores and processes that
 * share a database may all call it.
 */
export function schemaReady(db: PostgresDb): () => Promise<void> {
  let migrated: Promise<unknown> | undefined;
  return () => {
    migrated ??= migrate(db, { migrations: INBOX_MIGRATIONS, table: INBOX_MIGRATIONS_TABLE }).catch(
      (error: unknown) => {
        migrated = undefined;
        throw error;
      },
    );
    return migrated.then(() => {});
  };
}
