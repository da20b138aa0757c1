import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  expiresAt,
  memoryTaskStore,
  TaskLimitError,
  type TaskRecord,
  type TaskStore,
} from '@boomerang/tasks';
import { sampleRecord, taskStoreChecks } from '@boomerang/tasks/testing';
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

describe('postgresTaskStore on PGlite: params written once, open tasks counted by the database', () => {
  const dirs: string[] = [];
  const opened: PGlite[] = [];
  const open = (): PGlite => {
    const dir = mkdtempSync(join(tmpdir(), 'boomerang-pglite-'));
    dirs.push(dir);
    const db = new PGlite(dir);
    opened.push(db);
    return db;
  };
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  /** Bytes of write-ahead log `write` produced: what the database wrote for it. */
  const walBytes = async (db: PGlite, write: () => Promise<unknown>): Promise<number> => {
    const lsn = async () => (await db.query<{ l: string }>('SELECT pg_current_wal_lsn() AS l')).rows[0]?.l;
    const before = await lsn();
    await write();
    const after = await lsn();
    const { rows } = await db.query<{ d: string }>('SELECT pg_wal_lsn_diff($1, $2) AS d', [after, before]);
    return Number(rows[0]?.d);
  };
  /** A record whose arguments are 512 KiB of incompressible text. */
  const heavy = () =>
    sampleRecord({
      status: 'working',
      leaseUntil: 1,
      params: { name: 'x', arguments: { junk: randomBytes(384 * 1024).toString('base64') } },
    });

  it('a status or lease write does not rewrite the params (20 writes of a 512 KiB task: under 256 KiB)', async () => {
    const db = open();
    const store = postgresTaskStore(db);
    let current = heavy();
    const created = await walBytes(db, () => store.create(current));
    expect(created).toBeGreaterThan(512 * 1024);
    const written = await walBytes(db, async () => {
      for (let i = 0; i < 20; i++) {
        const next = { ...current, version: current.version + 1, leaseUntil: i, statusMessage: `step ${i}` };
        expect(await store.update(next, current.version)).toBe(true);
        current = next;
      }
    });
    expect(written).toBeLessThan(256 * 1024);
    expect(await store.get(current.taskId)).toEqual(current);
  });

  /** Inserts `record` as a store without migration 4 did: the whole record in one column. */
  const insertOld = (db: PGlite, record: TaskRecord) =>
    db.query('INSERT INTO boomerang_tasks (task_id, version, expires_at, record) VALUES ($1, $2, $3, $4)', [
      record.taskId,
      record.version,
      expiresAt(record),
      JSON.stringify(record),
    ]);

  it('migration 4 counts the open tasks of older rows, which are read and written whole as before', async () => {
    const db = open();
    await migrate(db, { migrations: MIGRATIONS.filter((m) => m.id < 4) });
    const owner = JSON.stringify(['https://as', 'cli"ent', 'nul \u0000 \ud800']);
    const working = sampleRecord({ owner, status: 'working', leaseUntil: 1 });
    const done = sampleRecord({ owner, status: 'completed' });
    for (const record of [working, done]) await insertOld(db, record);
    const store = postgresTaskStore(db);
    expect(await store.get(working.taskId)).toEqual(working);
    const { rows } = await db.query('SELECT scope, open_tasks FROM boomerang_task_counts ORDER BY scope');
    expect(rows).toEqual([
      { scope: `o:${owner}`, open_tasks: 1 },
      { scope: 'total', open_tasks: 1 },
    ]);
    const limits = { perOwner: 1, total: null };
    await expect(store.create(sampleRecord({ owner, status: 'working' }), limits)).rejects.toBeInstanceOf(
      TaskLimitError,
    );
    const next = { ...working, status: 'completed' as const, version: working.version + 1 };
    expect(await store.update(next, working.version)).toBe(true);
    expect(await store.update(next, working.version)).toBe(false);
    expect(await store.get(working.taskId)).toEqual(next);
    await store.create(sampleRecord({ owner, status: 'working' }), { perOwner: 1, total: 1 });
    expect(await migrate(db)).toEqual([]);
  });

  it('reads, updates and counts a row an instance without migration 4 wrote after it ran', async () => {
    const db = open();
    const store = postgresTaskStore(db);
    await store.get('warm-up');
    const old = sampleRecord({ owner: 'bob', status: 'working', leaseUntil: 1 });
    await insertOld(db, old);
    expect(await store.get(old.taskId)).toEqual(old);
    const next = { ...old, statusMessage: 'moved', version: old.version + 1 };
    expect(await store.update(next, old.version)).toBe(true);
    expect(await store.get(old.taskId)).toEqual(next);
    // Counted from its first write by this version on.
    await expect(
      store.create(sampleRecord({ owner: 'bob', status: 'working' }), { perOwner: 1, total: null }),
    ).rejects.toBeInstanceOf(TaskLimitError);
  });

  it('the space of swept tasks is reused (PGlite runs no autovacuum: the sweep vacuums)', async () => {
    const db = open();
    const store = postgresTaskStore(db);
    const size = async () =>
      Number(
        (await db.query<{ s: string }>("SELECT pg_total_relation_size('boomerang_tasks') AS s")).rows[0]?.s,
      );
    const batch = async (createdAt: number) => {
      for (let i = 0; i < 12; i++) await store.create({ ...heavy(), createdAt, ttlMs: 1_000 });
    };
    await batch(0);
    const first = await size();
    expect(first).toBeGreaterThan(12 * 512 * 1024);
    expect(await store.deleteExpired(1_000)).toBe(12);
    await batch(1_000);
    expect(await size()).toBeLessThan(first * 1.25);
  });

  it('a sweep forgets owners left with no open task, and the next creation counts them again', async () => {
    const db = open();
    const store = postgresTaskStore(db);
    const now = 1_750_000_100_000;
    const limits = { perOwner: 1, total: null };
    const expiring = sampleRecord({ owner: 'carol', status: 'working', createdAt: now - 60_000, ttlMs: 1 });
    await store.create(expiring, limits);
    expect(await store.deleteExpired(now)).toBe(1);
    const { rows } = await db.query('SELECT scope, open_tasks FROM boomerang_task_counts ORDER BY scope');
    expect(rows).toEqual([{ scope: 'total', open_tasks: 0 }]);
    await store.create(sampleRecord({ owner: 'carol', status: 'working' }), limits);
    await expect(store.create(sampleRecord({ owner: 'carol', status: 'working' }), limits)).rejects.toThrow(
      TaskLimitError,
    );
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
