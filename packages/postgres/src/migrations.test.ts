// migrate(): the package's own schema by default; an app's list of migrations in a table of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, type Migration, migrate } from './migrations.js';

const dirs: string[] = [];
const opened: PGlite[] = [];
function fresh(dir = mkdtempSync(join(tmpdir(), 'boomerang-migrate-'))): { db: PGlite; dir: string } {
  dirs.push(dir);
  const db = new PGlite(dir);
  opened.push(db);
  return { db, dir };
}
afterAll(async () => {
  await Promise.all(opened.map((db) => db.close().catch(() => {})));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const NOTES: Migration[] = [
  { id: 1, name: "notes (the app's)", sql: 'CREATE TABLE IF NOT EXISTS notes (id text PRIMARY KEY);' },
  { id: 2, name: 'notes-body', sql: 'ALTER TABLE notes ADD COLUMN IF NOT EXISTS body text;' },
];

describe('migrate', () => {
  it('applies the package schema by default, once', async () => {
    const { db } = fresh();
    expect(await migrate(db)).toEqual(MIGRATIONS.map((m) => m.id));
    expect(await migrate(db)).toEqual([]);
  });

  it("applies an app's own list in its own table, beside the package's, and later additions only", async () => {
    const { db, dir } = fresh();
    expect(await migrate(db)).toEqual(MIGRATIONS.map((m) => m.id));
    expect(await migrate(db, { migrations: NOTES.slice(0, 1), table: 'notes_migrations' })).toEqual([1]);
    await db.query("INSERT INTO notes (id) VALUES ('a')");
    await db.close();
    const again = fresh(dir).db;
    expect(await migrate(again, { migrations: NOTES, table: 'notes_migrations' })).toEqual([2]);
    const { rows } = await again.query('SELECT id, name FROM notes_migrations ORDER BY id');
    expect(rows).toEqual(NOTES.map(({ id, name }) => ({ id, name })));
    expect((await again.query('SELECT id, body FROM notes')).rows).toEqual([{ id: 'a', body: null }]);
    expect(await migrate(again)).toEqual([]);
  });

  it.each<[string, unknown]>([
    ['a table name with SQL in it', { table: 'x; DROP TABLE notes' }],
    ['an upper-case table name', { table: 'Migrations' }],
    ['ids that do not increase', { migrations: [NOTES[1], NOTES[0]] }],
    ['a migration without sql', { migrations: [{ id: 1, name: 'x' }] }],
    ['migrations that are not a list', { migrations: 'CREATE TABLE x ()' }],
  ])('throws TypeError for %s, before touching the database', async (_, options) => {
    const query = async () => {
      throw new Error('touched');
    };
    await expect(migrate({ query }, options as never)).rejects.toThrow(TypeError);
  });
});
