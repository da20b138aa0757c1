import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryTaskStore, type TaskStore } from '@boomerang/tasks';
import { taskStoreChecks } from '@boomerang/tasks/testing';
import { type PostgresServer, postgresMissing, startPostgres } from '@boomerang/test-kit/postgres';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from './migrations.js';
import { postgresTaskStore } from './task-store.js';

/** One suite, three stores: every check against memory, PGlite on disk and a real PostgreSQL 15. */
describe('memoryTaskStore', () => {
  for (const check of taskStoreChecks()) it(check.name, () => check.run(memoryTaskStore()));
});

describe('postgresTaskStore on PGlite (a folder on disk)', () => {
  const dirs: string[] = [];
  const opened: PGlite[] = [];
  const fresh = async (): Promise<TaskStore> => {
    const dir = mkdtempSync(join(tmpdir(), 'boomerang-pglite-'));
    dirs.push(dir);
    const db = new PGlite(dir);
    opened.push(db);
    return postgresTaskStore(db);
  };
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  for (const check of taskStoreChecks()) it(check.name, async () => check.run(await fresh()));

  it('keeps tasks across a close and reopen of the folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'boomerang-pglite-'));
    dirs.push(dir);
    const first = new PGlite(dir);
    const store = postgresTaskStore(first);
    const { sampleRecord } = await import('@boomerang/tasks/testing');
    const record = sampleRecord();
    await store.create(record);
    await first.close();
    const again = new PGlite(dir);
    opened.push(again);
    expect(await postgresTaskStore(again).get(record.taskId)).toEqual(record);
    expect(await migrate(again)).toEqual([]);
  });
});

describe.skipIf(postgresMissing !== undefined)(
  `postgresTaskStore on PostgreSQL 15 ${postgresMissing ?? ''}`,
  () => {
    let server: PostgresServer;
    const pools: pg.Pool[] = [];
    let database = 0;
    beforeAll(async () => {
      server = await startPostgres();
    }, 60_000);
    afterAll(async () => {
      await Promise.all(pools.map((pool) => pool.end()));
      await server?.stop();
    });
    /** A fresh database per check, so every check starts empty. */
    const fresh = async (): Promise<TaskStore> => {
      const admin = new pg.Pool({ connectionString: server.url, max: 1 });
      const name = `check_${++database}`;
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const pool = new pg.Pool({ connectionString: server.url.replace(/\/postgres$/, `/${name}`), max: 8 });
      pools.push(pool);
      return postgresTaskStore(pool);
    };
    for (const check of taskStoreChecks()) it(check.name, async () => check.run(await fresh()));

    it('applies the migrations once when several instances start together', async () => {
      const pool = new pg.Pool({ connectionString: server.url, max: 4 });
      pools.push(pool);
      await Promise.all([migrate(pool), migrate(pool), migrate(pool)]);
      const { rows } = await pool.query('SELECT id, name FROM boomerang_migrations ORDER BY id');
      expect(rows).toEqual(MIGRATIONS.map(({ id, name }) => ({ id, name })));
      expect(await migrate(pool)).toEqual([]);
    });
  },
);

describe('postgresTaskStore arguments', () => {
  it('rejects something that is not a driver', () => {
    expect(() => postgresTaskStore({} as never)).toThrow(TypeError);
  });
});
