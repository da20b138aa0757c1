// Sessions signed out before their cookie expired. A session cookie is sealed and valid for 12 hours wherever it
// is presented; signing out deletes it from the browser, but a copy taken before (a shared machine, a proxy log, a
// stolen cookie jar) would still open the inbox. So signing out records the session's id as revoked until the
// cookie expires anyway, in the database the flows are in: every inbox process that shares it refuses the cookie
// from then on, and a restart (with the same INBOX_SECRET, sessions survive one) does not forget it.
import type { PostgresDb } from '@boomerang/postgres';
import { schemaReady } from './migrations.js';

/** The sessions signed out before their cookie expired. */
export interface RevokedSessions {
  /**
   * Records session `id` as revoked until `expiresAt` (epoch ms: when its cookie expires anyway, after which the
   * record is swept). Revoking a session twice keeps the first record.
   */
  revoke(id: string, expiresAt: number): Promise<void>;
  /** True when session `id` was revoked. */
  isRevoked(id: string): Promise<boolean>;
}

/** Options of {@link revokedSessions}. */
export interface RevokedSessionsOptions {
  /** Epoch ms (tests move time with it). */
  readonly clock?: () => number;
}

/**
 * The revoked sessions in `db` (table `inbox_revoked_sessions`), shared by every process on that database. Each
 * revocation also sweeps the records whose cookies have expired, so the table holds at most the sessions signed
 * out within one session lifetime.
 */
export function revokedSessions(db: PostgresDb, options: RevokedSessionsOptions = {}): RevokedSessions {
  const clock = options.clock ?? Date.now;
  const ready = schemaReady(db);
  return {
    async revoke(id, expiresAt) {
      await ready();
      await db.query(
        'INSERT INTO inbox_revoked_sessions (id, expires_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING',
        [id, expiresAt],
      );
      await db.query('DELETE FROM inbox_revoked_sessions WHERE expires_at <= $1', [clock()]);
    },
    async isRevoked(id) {
      await ready();
      const found = await db.query('SELECT 1 FROM inbox_revoked_sessions WHERE id = $1', [id]);
      return found.rows.length > 0;
    },
  };
}

/**
 * Revoked sessions kept in this process's memory: for an inbox whose page runs in one process without a database
 * of its own to share (tests, an embedded page). A restart forgets them.
 */
export function memoryRevokedSessions(options: RevokedSessionsOptions = {}): RevokedSessions {
  const clock = options.clock ?? Date.now;
  const revoked = new Map<string, number>();
  return {
    async revoke(id, expiresAt) {
      if (!revoked.has(id)) revoked.set(id, expiresAt);
      const now = clock();
      for (const [key, expiry] of revoked) if (expiry <= now) revoked.delete(key);
    },
    async isRevoked(id) {
      return revoked.has(id);
    },
  };
}
