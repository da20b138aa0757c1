// The one seam between the stores and the two drivers: PGlite (`@electric-sql/pglite`) and `pg` (a Pool or a
// Client) both have `query(text, params)` resolving to `{ rows }`; scripts of several statements go through
// PGlite's `exec` or pg's simple-query `query(text)`. Nothing here imports a driver.
import { argumentError } from '@boomerang/protocol';

/** A PGlite instance, or a `pg` Pool or Client: whatever has these two shapes. */
export interface PostgresDb {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  /** PGlite's multi-statement entry point; `pg` has none (its `query` without params runs a script). */
  exec?(script: string): Promise<unknown>;
}

/** Runs one parameterised statement; resolves to its rows. */
export async function rowsOf(
  db: PostgresDb,
  text: string,
  params: unknown[],
): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query(text, params);
  return rows as Record<string, unknown>[];
}

/** Runs a script of several statements (in one implicit transaction on pg's simple-query protocol). */
export async function runScript(db: PostgresDb, script: string): Promise<void> {
  if (typeof db.exec === 'function') await db.exec(script);
  else await db.query(script);
}

/**
 * True for PGlite (it has `exec`; `pg` has none): the database runs inside this process, one connection, and no
 * background worker (no autovacuum).
 */
export function isPGlite(db: PostgresDb): boolean {
  return typeof db.exec === 'function';
}

/** Throws `TypeError` unless `db` looks like one of the two drivers. */
export function checkDb(db: unknown): asserts db is PostgresDb {
  if (typeof db !== 'object' || db === null || !('query' in db) || typeof db.query !== 'function') {
    throw argumentError('db', 'a PGlite instance or a pg Pool / Client', db);
  }
}
