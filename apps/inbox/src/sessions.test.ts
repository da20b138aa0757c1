// Revoked sessions in the flows' database (PGlite on disk): shared by every process on it, kept across a restart,
// swept once their cookies have expired.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryRevokedSessions, revokedSessions } from './sessions.js';
import { manualClock } from './test-support/flows.js';
import { createPeople } from './web/people.js';

const key = new Uint8Array(32).fill(5);
let dir: string;
let db: PGlite;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'inbox-sessions-'));
  db = await PGlite.create(dir);
});
afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

const withCookie = (setCookie: string) =>
  new Request('http://127.0.0.1/', { headers: { cookie: setCookie.split(';')[0] as string } });

describe('revokedSessions', () => {
  it('a sign-out through one page process is refused by every other on the same database, and after a restart', async () => {
    const clock = manualClock();
    const page = (revoked = revokedSessions(db, { clock: clock.read })) =>
      createPeople({ names: ['alice'], keys: [key], clock: clock.read, revoked });
    const one = page();
    const two = page();
    const cookie = withCookie(one.sessionCookie('alice', false));
    expect(await two.personOf(cookie)).toBe('alice');
    await one.endSession(cookie);
    expect(await one.personOf(cookie)).toBeUndefined();
    expect(await two.personOf(cookie)).toBeUndefined();
    expect(await page().personOf(cookie)).toBeUndefined(); // a new process, same database
    expect(await page(memoryRevokedSessions()).personOf(cookie)).toBe('alice'); // what memory alone would do
  });

  it('keeps a record until its cookie expires, then sweeps it', async () => {
    const clock = manualClock();
    const revoked = revokedSessions(db, { clock: clock.read });
    await revoked.revoke('s-1', clock.now + 1000);
    await revoked.revoke('s-1', clock.now + 5); // twice: the first record stays
    expect(await revoked.isRevoked('s-1')).toBe(true);
    expect(await revoked.isRevoked('s-2')).toBe(false);
    clock.now += 999;
    await revoked.revoke('s-2', clock.now + 1000);
    expect(await revoked.isRevoked('s-1')).toBe(true);
    clock.now += 1;
    await revoked.revoke('s-3', clock.now + 1000);
    expect(await revoked.isRevoked('s-1')).toBe(false);
    expect(await revoked.isRevoked('s-2')).toBe(true);
    const { rows } = await db.query("SELECT id FROM inbox_revoked_sessions WHERE id LIKE 's-%' ORDER BY id");
    expect(rows).toEqual([{ id: 's-2' }, { id: 's-3' }]);
  });
});

describe('memoryRevokedSessions', () => {
  it('remembers revocations in this process until they expire', async () => {
    const clock = manualClock();
    const revoked = memoryRevokedSessions({ clock: clock.read });
    await revoked.revoke('s-1', clock.now + 10);
    expect(await revoked.isRevoked('s-1')).toBe(true);
    clock.now += 10;
    await revoked.revoke('s-2', clock.now + 10);
    expect([await revoked.isRevoked('s-1'), await revoked.isRevoked('s-2')]).toEqual([false, true]);
  });
});
