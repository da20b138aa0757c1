// Where the flows live: PGlite on disk by default (one process: the inbox with its web page, worker and resumers),
// a PostgreSQL server when `DATABASE_URL` is set (any number of processes and machines: several resumers,
// several web pages). One schema for both (src/migrations.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PostgresDb } from '@boomerang/postgres';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** An open database. */
export interface InboxDatabase {
  readonly db: PostgresDb;
  /** `pglite` or `postgres`. */
  readonly kind: 'pglite' | 'postgres';
  /** The PGlite folder, or the server's URL without its password. */
  readonly where: string;
  /** True when the PGlite folder is a temporary one that {@link close} removes. */
  readonly temporary: boolean;
  /** Closes the database (and removes a temporary folder). */
  close(): Promise<void>;
}

/** Options of {@link openDatabase}. */
export interface DatabaseOptions {
  /** A `postgres://` URL: use that server through a `pg` Pool. Wins over `dataDir`. */
  readonly databaseUrl?: string | undefined;
  /** The PGlite folder (kept); without it, a temporary folder removed on close. */
  readonly dataDir?: string | undefined;
  /** Connections of the pg Pool (default 8). */
  readonly poolSize?: number;
}

/** The URL with its password replaced, for logs and the page. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.href;
  } catch {
    return 'postgres://…';
  }
}

/**
 * Opens the database: `pg` on `databaseUrl` when given (throws `TypeError` for one that is not a `postgres://` or
 * `postgresql://` URL), else PGlite in `dataDir` or in a new temporary folder.
 */
export async function openDatabase(options: DatabaseOptions = {}): Promise<InboxDatabase> {
  const { databaseUrl, dataDir } = options;
  if (databaseUrl !== undefined && databaseUrl !== '') {
    if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
      throw new TypeError(
        `DATABASE_URL expected a postgres:// URL, got ${JSON.stringify(redact(databaseUrl))}`,
      );
    }
    const pool = new pg.Pool({ connectionString: databaseUrl, max: options.poolSize ?? 8 });
    // An idle client that loses its server must not crash the process: the next query reports the failure.
    pool.on('error', () => {});
    return {
      db: pool,
      kind: 'postgres',
      where: redact(databaseUrl),
      temporary: false,
      close: () => pool.end(),
    };
  }
  const temporary = dataDir === undefined;
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'boomerang-inbox-'));
  const db = await PGlite.create(dir);
  return {
    db,
    kind: 'pglite',
    where: dir,
    temporary,
    async close() {
      try {
        await db.close();
      } finally {
        if (temporary) rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
