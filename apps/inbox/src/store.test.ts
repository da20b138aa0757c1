// The flow store: one suite, run on PGlite on disk and on a real PostgreSQL 15 (separate pools there, so the
// concurrency checks race real connections).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PostgresDb } from '@boomerang/postgres';
import { type PostgresServer, postgresMissing, startPostgres } from '@boomerang/test-kit/postgres';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FlowStore, flowStore } from './store.js';
import { continuation, emptyStore, form, manualClock, pendingFlow } from './test-support/flows.js';

const yes = { ok: { action: 'accept' as const, content: { confirm: true } } };

/** Every check, against `db()` (and, for races, `connection()`: another connection to the same database). */
function storeChecks(db: () => PostgresDb, connection: () => PostgresDb) {
  const clock = manualClock();
  let store: FlowStore;
  beforeEach(async () => {
    clock.now = Date.parse('2026-07-28T10:00:00Z');
    store = flowStore(db(), { clock: clock.read });
    await emptyStore(db(), store);
  });

  it('records pending, completed and failed flows, and reads them back as written', async () => {
    const ordered = form('Ship how?', {
      zeta: { type: 'string' },
      alpha: { type: 'integer', minimum: 1 },
      mid: { type: 'boolean', default: false },
    });
    const pending = await store.create(
      pendingFlow({
        answerers: ['alice'],
        note: 'for the club',
        outcome: { continuation: continuation({ ship: ordered }) },
      }),
    );
    expect(pending).toMatchObject({
      status: 'pending',
      round: 1,
      server: 'bookshop',
      tool: 'order_book',
      arguments: { title: 'Solaris' },
      answerers: ['alice'],
      note: 'for the club',
      deadline: clock.now + 60_000,
      roundMs: 60_000,
      createdAt: clock.now,
    });
    const again = await store.get(pending.id);
    expect(again).toEqual(pending);
    // json, not jsonb: a form's fields keep the order the server wrote them in.
    const schema = again?.continuation?.inputRequests.ship?.params as {
      requestedSchema: { properties: object };
    };
    expect(Object.keys(schema.requestedSchema.properties)).toEqual(['zeta', 'alpha', 'mid']);
    const done = await store.create(pendingFlow({ outcome: { result: { content: [] } } }));
    expect(done).toMatchObject({ status: 'completed', round: 0, result: { content: [] } });
    expect(done.continuation).toBeUndefined();
    const failed = await store.create(pendingFlow({ outcome: { error: 'no such tool' } }));
    expect(failed).toMatchObject({ status: 'failed', error: 'no such tool' });
    expect(await store.counts()).toEqual({ pending: 1, completed: 1, failed: 1 });
    expect((await store.list({ statuses: ['pending', 'failed'] })).map((f) => f.status).sort()).toEqual([
      'failed',
      'pending',
    ]);
    expect(await store.list({ limit: 2 })).toHaveLength(2);
    expect(await store.get('nope')).toBeUndefined();
  });

  it('lists the flows that concern a person: those naming them, and those naming nobody', async () => {
    const everyone = await store.create(pendingFlow());
    const alices = await store.create(pendingFlow({ answerers: ['alice'] }));
    const both = await store.create(pendingFlow({ answerers: ['bob', 'alice'], outcome: { error: 'x' } }));
    await store.create(pendingFlow({ answerers: ['bob'] }));
    // A name that is a prefix, or another JSON shape of it, matches nothing.
    await store.create(pendingFlow({ answerers: ['alice2'] }));
    const ids = (flows: { id: string }[]) => flows.map((flow) => flow.id).sort();
    expect(ids(await store.list({ person: 'alice' }))).toEqual(ids([everyone, alices, both]));
    expect(ids(await store.list({ person: 'alice', statuses: ['failed'] }))).toEqual([both.id]);
    expect(await store.list({ person: 'carol' })).toEqual([await store.get(everyone.id)]);
    expect(await store.list({ person: "alice' OR true --" })).toHaveLength(1);
  });

  it('takes one answer per round and records it; the next answer learns who was first', async () => {
    const flow = await store.create(pendingFlow());
    expect(await store.answer(flow.id, 1, yes, 'alice')).toEqual({ ok: true });
    const answered = await store.get(flow.id);
    expect(answered).toMatchObject({ status: 'answered', answers: yes, answeredBy: 'alice' });
    expect(await store.answer(flow.id, 1, yes, 'bob')).toMatchObject({
      ok: false,
      reason: 'already-answered',
      flow: { answeredBy: 'alice' },
    });
    expect(await store.drop(flow.id, 1, 'bob')).toMatchObject({ ok: false, reason: 'already-answered' });
    expect(await store.rounds(flow.id)).toEqual([
      {
        flowId: flow.id,
        round: 1,
        questions: flow.continuation?.inputRequests,
        answers: yes,
        answeredBy: 'alice',
        answeredAt: clock.now,
      },
    ]);
  });

  it('refuses answers for a missing flow, another round, after the deadline, or after the end', async () => {
    expect(await store.answer('missing', 1, yes, 'alice')).toEqual({ ok: false, reason: 'not-found' });
    const flow = await store.create(pendingFlow());
    expect(await store.answer(flow.id, 2, yes, 'alice')).toMatchObject({ reason: 'stale-round' });
    clock.now += 60_000;
    const late = await store.answer(flow.id, 1, yes, 'alice');
    expect(late).toMatchObject({ ok: false, reason: 'expired', flow: { status: 'expired' } });
    expect((await store.get(flow.id))?.error).toMatch(/deadline/);
    const dropped = await store.create(pendingFlow());
    expect(await store.drop(dropped.id, 1, 'bob')).toEqual({ ok: true });
    expect(await store.get(dropped.id)).toMatchObject({ status: 'dropped', answeredBy: 'bob' });
    expect(await store.answer(dropped.id, 1, yes, 'alice')).toMatchObject({ reason: 'already-answered' });
    const done = await store.create(pendingFlow({ outcome: { result: {} } }));
    expect(await store.answer(done.id, 1, yes, 'alice')).toMatchObject({ reason: 'ended' });
  });

  it('expires pending flows past their deadline, and only those', async () => {
    const soon = await store.create(pendingFlow({ roundMs: 1000 }));
    const later = await store.create(pendingFlow({ roundMs: 5000 }));
    clock.now += 1000;
    expect(await store.expireDue()).toBe(1);
    expect((await store.get(soon.id))?.status).toBe('expired');
    expect((await store.get(soon.id))?.continuation).toBeUndefined();
    expect((await store.get(later.id))?.status).toBe('pending');
    expect(await store.expireDue()).toBe(0);
  });

  it('claims answered flows oldest first, each once; only the claimer finishes it', async () => {
    const a = await store.create(pendingFlow());
    const b = await store.create(pendingFlow());
    await store.create(pendingFlow()); // never answered: never claimed
    await store.answer(b.id, 1, yes, 'alice');
    clock.now += 1;
    await store.answer(a.id, 1, yes, 'bob');
    const first = await store.claim('r1', 1);
    expect(first.map((f) => f.id)).toEqual([b.id]);
    expect(first[0]).toMatchObject({ status: 'resuming', claimedBy: 'r1', answers: yes });
    const second = await store.claim('r2', 10);
    expect(second.map((f) => f.id)).toEqual([a.id]);
    expect(await store.claim('r3', 10)).toEqual([]);
    expect(await store.finish(first[0] as never, 'r2', { result: {} })).toBe(false);
    clock.now += 5;
    expect(
      await store.finish(first[0] as never, 'r1', { result: { content: [{ type: 'text', text: 'ok' }] } }),
    ).toBe(true);
    expect(await store.get(b.id)).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'ok' }] },
    });
    const done = await store.get(b.id);
    expect(done?.answers).toBeUndefined();
    expect(done?.claimedBy).toBeUndefined();
    expect(await store.rounds(b.id)).toMatchObject([
      { resumedBy: 'r1', resumedAt: clock.now, outcome: 'completed' },
    ]);
    expect(await store.finish(first[0] as never, 'r1', { result: {} })).toBe(false);
  });

  it('a resume that asks again parks the next round with a fresh deadline', async () => {
    const flow = await store.create(pendingFlow());
    await store.answer(flow.id, 1, yes, 'alice');
    const [claimed] = await store.claim('r1', 1);
    clock.now += 30_000;
    const next = continuation({ ship: form('Ship how?', { fast: { type: 'boolean' } }) }, 2);
    expect(await store.finish(claimed as never, 'r1', { continuation: next })).toBe(true);
    expect(await store.get(flow.id)).toMatchObject({
      status: 'pending',
      round: 2,
      deadline: clock.now + 60_000,
      continuation: next,
    });
    expect((await store.get(flow.id))?.answeredBy).toBeUndefined();
    expect(await store.rounds(flow.id)).toMatchObject([{ round: 1, outcome: 'next round (2)' }]);
    expect(await store.answer(flow.id, 1, yes, 'alice')).toMatchObject({ reason: 'stale-round' });
    expect(await store.answer(flow.id, 2, yes, 'bob')).toEqual({ ok: true });
  });

  it('records failures and refusals; a claim whose resumer vanished fails once its lease is out', async () => {
    const flow = await store.create(pendingFlow());
    await store.answer(flow.id, 1, yes, 'alice');
    const [claimed] = await store.claim('r1', 1);
    expect(await store.finish(claimed as never, 'r1', { status: 'rejected', error: 'refused' })).toBe(true);
    expect(await store.get(flow.id)).toMatchObject({ status: 'rejected', error: 'refused' });
    const stale = await store.create(pendingFlow());
    await store.answer(stale.id, 1, yes, 'alice');
    const [held] = await store.claim('r2', 1);
    clock.now += 999;
    expect(await store.failStale(1000)).toBe(0);
    clock.now += 1;
    expect(await store.failStale(1000)).toBe(1);
    expect((await store.get(stale.id))?.error).toMatch(/not sent again/);
    expect(await store.finish(held as never, 'r2', { result: {} })).toBe(false);
    expect((await store.get(stale.id))?.status).toBe('failed');
  });

  it('two answers to one round at the same time: exactly one is taken', async () => {
    const flows = await Promise.all(Array.from({ length: 20 }, () => store.create(pendingFlow())));
    const other = flowStore(connection(), { clock: clock.read });
    const outcomes = await Promise.all(
      flows.flatMap((flow) => [store.answer(flow.id, 1, yes, 'alice'), other.answer(flow.id, 1, yes, 'bob')]),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(20);
    expect(outcomes.filter((o) => !o.ok && o.reason === 'already-answered')).toHaveLength(20);
    for (const flow of flows) expect(await store.rounds(flow.id)).toHaveLength(1);
  });

  it('eight claimers racing over 300 answered flows: each flow is claimed exactly once', async () => {
    const flows = await Promise.all(Array.from({ length: 300 }, () => store.create(pendingFlow())));
    await Promise.all(flows.map((flow) => store.answer(flow.id, 1, yes, 'alice')));
    const claimers = Array.from({ length: 8 }, (_, i) => ({
      id: `r${i}`,
      store: flowStore(connection(), { clock: clock.read }),
      got: [] as string[],
    }));
    await Promise.all(
      claimers.map(async (claimer) => {
        for (;;) {
          const claimed = await claimer.store.claim(claimer.id, 5);
          if (claimed.length === 0) return;
          claimer.got.push(...claimed.map((f) => f.id));
        }
      }),
    );
    const all = claimers.flatMap((c) => c.got);
    expect(all).toHaveLength(300);
    expect(new Set(all).size).toBe(300);
    const byClaimer = await db().query(
      "SELECT claimed_by, count(*) AS n FROM inbox_flows WHERE status = 'resuming' GROUP BY claimed_by",
      [],
    );
    const counted = (byClaimer.rows as { claimed_by: string; n: unknown }[]).map((r) => Number(r.n));
    expect(counted.reduce((a, b) => a + b, 0)).toBe(300);
  });
}

describe('flowStore on PGlite (a folder on disk)', () => {
  let dir: string;
  let db: PGlite;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'inbox-store-'));
    db = await PGlite.create(dir);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  storeChecks(
    () => db,
    () => db,
  );

  it('keeps its flows across a close and a reopen of the folder', async () => {
    const store = flowStore(db);
    const flow = await store.create(pendingFlow());
    await db.close();
    db = await PGlite.create(dir);
    expect(await flowStore(db).get(flow.id)).toEqual(flow);
  }, 60_000);
});

describe.skipIf(postgresMissing !== undefined)(`flowStore on PostgreSQL 15 ${postgresMissing ?? ''}`, () => {
  let server: PostgresServer;
  const pools: pg.Pool[] = [];
  const pool = () => {
    const made = new pg.Pool({ connectionString: server.url, max: 4 });
    pools.push(made);
    return made;
  };
  let main: pg.Pool;
  beforeAll(async () => {
    server = await startPostgres();
    main = pool();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await server?.stop();
  });
  storeChecks(() => main, pool);

  it('several inboxes starting together on a new database migrate its schema once', async () => {
    await main.query('CREATE DATABASE fresh_inbox');
    const url = server.url.replace(/\/postgres$/, '/fresh_inbox');
    const fresh = Array.from({ length: 4 }, () => {
      const made = new pg.Pool({ connectionString: url, max: 2 });
      pools.push(made);
      return made;
    });
    await Promise.all(fresh.map((p) => flowStore(p).ready()));
    const { rows } = await (fresh[0] as pg.Pool).query('SELECT id, name FROM inbox_migrations ORDER BY id');
    expect(rows).toEqual([
      { id: 1, name: 'flows and rounds' },
      { id: 2, name: 'revoked sessions' },
    ]);
    expect((await (fresh[1] as pg.Pool).query('SELECT count(*) AS n FROM inbox_flows')).rows).toEqual([
      { n: '0' },
    ]);
  });
});
