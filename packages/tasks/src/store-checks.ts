// The TaskStore contract as executable checks: one suite that every store runs (memory here; PGlite and
// PostgreSQL in @boomerang/postgres; a user's own store in their tests). No test framework: each check is an
// async function that throws an Error saying what broke.
import type { TaskRecord, TaskStore } from './store.js';

/** One check of the {@link TaskStore} contract: run it against a fresh, empty store. */
export interface TaskStoreCheck {
  /** What it checks, for the test's name. */
  readonly name: string;
  run(store: TaskStore): Promise<void>;
}

let serial = 0;

/** A complete record with every optional member set, so that a store that drops or reorders one is caught. */
export function sampleRecord(overrides: Partial<TaskRecord> = {}): TaskRecord {
  serial++;
  return {
    taskId: `check-${serial}-${Math.random().toString(36).slice(2)}`,
    owner: '["https://issuer.example","client-ü","subject \\"quoted\\""]',
    status: 'input_required',
    statusMessage: 'Waiting for approval ✓',
    createdAt: 1_750_000_000_000,
    lastUpdatedAt: 1_750_000_000_500,
    ttlMs: 60_000,
    pollIntervalMs: 1_000,
    version: 3,
    leaseUntil: null,
    method: 'tools/call',
    params: { name: 'print_run', arguments: { title: 'Dune', copies: 2, nested: { deep: [1, null, 'x'] } } },
    origin: {
      protocolVersion: '2026-07-28',
      clientCapabilities: { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } },
      clientInfo: { name: 'host', version: '1.0.0' },
      auth: { clientId: 'c', issuer: 'https://issuer.example', subject: 's', scopes: ['a', 'b'] },
    },
    round: 2,
    inputRequests: {
      '2.r0': {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Approve?',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        },
      },
    },
    inputResponses: { '2.r1': { action: 'accept', content: { name: 'Zoë' } } },
    requestState: '{"v":1,"answers":{},"asked":{"r0":"abc"}}',
    ...overrides,
  };
}

function fail(message: string): never {
  throw new Error(message);
}

/** Deep equality through canonical JSON (key order ignored here; one check asks for the order too). */
function same(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function expectSame(actual: unknown, expected: unknown, what: string): void {
  if (!same(actual, expected)) {
    fail(`${what}: expected ${canonical(expected)}, got ${canonical(actual)}`);
  }
}

/**
 * The checks every {@link TaskStore} must pass, each against a fresh empty store: records come back exactly as
 * written (members of every object in the order written), ids are unique, `update` is a compare-and-set of which exactly one of many concurrent writers wins,
 * and `deleteExpired` removes exactly the expired records.
 */
export function taskStoreChecks(): readonly TaskStoreCheck[] {
  return [
    {
      name: 'create then get returns the record exactly, from a copy',
      async run(store) {
        const record = sampleRecord();
        await store.create(record);
        const read = await store.get(record.taskId);
        expectSame(read, record, 'get after create');
        if (read === record) fail('get returned the very object given to create');
        const minimal = sampleRecord({
          status: 'working',
          statusMessage: undefined,
          inputRequests: undefined,
          inputResponses: undefined,
          requestState: undefined,
          ttlMs: null,
          leaseUntil: 1_750_000_030_000,
          origin: { protocolVersion: '2026-07-28', clientCapabilities: {} },
        });
        await store.create(minimal);
        expectSame(await store.get(minimal.taskId), minimal, 'get of a record without optional members');
      },
    },
    {
      name: 'keeps the members of every object in the order written (a form shows its fields in that order)',
      async run(store) {
        const properties = {
          zeta: { type: 'string', title: 'First field' },
          confirm: { type: 'boolean' },
          a: { type: 'number' },
        };
        const request = {
          method: 'elicitation/create',
          params: { mode: 'form', message: 'Fill in', requestedSchema: { type: 'object', properties } },
        };
        const record = sampleRecord({
          inputRequests: { '2.r0': request } as TaskRecord['inputRequests'],
          params: { name: 'x', arguments: { z: 1, b: 2 } },
        });
        await store.create(record);
        const read = await store.get(record.taskId);
        if (JSON.stringify(read) !== JSON.stringify(record)) {
          fail(
            `get after create reordered members: expected ${JSON.stringify(record)}, got ${JSON.stringify(read)}`,
          );
        }
      },
    },
    {
      name: 'get of an unknown id is undefined',
      async run(store) {
        if ((await store.get('no-such-task')) !== undefined) fail('get of an unknown id returned a record');
      },
    },
    {
      name: 'create rejects an id that exists, and keeps the first record',
      async run(store) {
        const record = sampleRecord();
        await store.create(record);
        let rejected = false;
        try {
          await store.create({ ...record, status: 'working' });
        } catch {
          rejected = true;
        }
        if (!rejected) fail('a second create with the same taskId did not reject');
        expectSame(await store.get(record.taskId), record, 'the first record');
      },
    },
    {
      name: 'update writes over the expected version only',
      async run(store) {
        const record = sampleRecord();
        await store.create(record);
        const next = { ...record, status: 'working' as const, version: record.version + 1, leaseUntil: 5 };
        if (!(await store.update(next, record.version))) fail('update at the current version returned false');
        expectSame(await store.get(record.taskId), next, 'the updated record');
        const stale = { ...record, status: 'cancelled' as const, version: record.version + 1 };
        if (await store.update(stale, record.version)) fail('update at a stale version returned true');
        expectSame(await store.get(record.taskId), next, 'the record after a stale update');
        if (await store.update({ ...record, taskId: 'no-such-task' }, 0)) {
          fail('update of an unknown task returned true');
        }
        if ((await store.get('no-such-task')) !== undefined) fail('update of an unknown task created it');
      },
    },
    {
      name: 'of concurrent updates at one version exactly one wins',
      async run(store) {
        const record = sampleRecord();
        await store.create(record);
        const writers = Array.from({ length: 8 }, (_, i) => ({
          ...record,
          statusMessage: `writer ${i}`,
          version: record.version + 1,
        }));
        const outcomes = await Promise.all(writers.map((next) => store.update(next, record.version)));
        const winners = outcomes.flatMap((won, i) => (won ? [i] : []));
        if (winners.length !== 1) fail(`expected exactly one winner, got ${winners.length}`);
        expectSame(await store.get(record.taskId), writers[winners[0] as number], 'the winner’s record');
      },
    },
    {
      name: 'deleteExpired removes exactly the records past createdAt + ttlMs',
      async run(store) {
        const now = 1_750_000_100_000;
        const expired = sampleRecord({ createdAt: now - 60_000, ttlMs: 60_000 });
        const live = sampleRecord({ createdAt: now - 59_999, ttlMs: 60_000 });
        const forever = sampleRecord({ createdAt: 0, ttlMs: null });
        for (const record of [expired, live, forever]) await store.create(record);
        const deleted = await store.deleteExpired(now);
        if (deleted !== 1) fail(`deleteExpired reported ${deleted} deletions, expected 1`);
        if ((await store.get(expired.taskId)) !== undefined) fail('the expired record is still there');
        expectSame(await store.get(live.taskId), live, 'the live record');
        expectSame(await store.get(forever.taskId), forever, 'the record without a TTL');
        if ((await store.deleteExpired(now)) !== 0) fail('a second deleteExpired deleted again');
      },
    },
  ];
}
