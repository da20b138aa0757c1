// The TaskStore contract as executable checks: one suite that every store runs (memory here; PGlite and
// PostgreSQL in @boomerang/postgres; a user's own store in their tests). No test framework: each check is an
// async function that throws an Error saying what broke.
import { TaskLimitError, type TaskLimits, type TaskRecord, type TaskStore } from './store.js';

/** One check of the {@link TaskStore} contract: run it against a fresh, empty store. */
export interface TaskStoreCheck {
  /** What it checks, for the test's name. */
  readonly name: string;
  run(store: TaskStore): Promise<void>;
}

let serial = 0;

/**
 * A complete record with every optional member set, so that a store that drops or reorders one is caught; its
 * strings include a NUL and half a surrogate pair (valid in JSON, refused by some database functions).
 */
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
    // A client may send any JSON string: a NUL and half a surrogate pair must come back as sent.
    inputResponses: {
      '2.r1': { action: 'accept', content: { name: 'Zoë', note: 'nul \u0000, half a pair \ud800' } },
    },
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

/** Creates `record` under `limits`: `'created'`, or the scope of the {@link TaskLimitError} it was refused with. */
async function admit(store: TaskStore, record: TaskRecord, limits: TaskLimits): Promise<string> {
  try {
    await store.create(record, limits);
    return 'created';
  } catch (error) {
    if (error instanceof TaskLimitError) return error.scope;
    throw error;
  }
}

/** An open record of `owner` (for the limit checks). */
function openRecord(owner: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
  return sampleRecord({ owner, status: 'working', leaseUntil: 1_750_000_030_000, ...overrides });
}

/**
 * The checks every {@link TaskStore} must pass, each against a fresh empty store: records come back exactly as
 * written (members of every object in the order written), ids are unique, `update` is a compare-and-set of which
 * exactly one of many concurrent writers wins and keeps the params as created, `create` enforces the open-task
 * limits atomically (also against concurrent creations), and `deleteExpired` removes exactly the expired records.
 */
export function taskStoreChecks(): readonly TaskStoreCheck[] {
  return [...recordChecks(), ...updateChecks(), ...limitChecks(), ...expiryChecks()];
}

/** Records come back exactly as written (every member, members in order, from a copy); ids are unique. */
function recordChecks(): TaskStoreCheck[] {
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
  ];
}

/**
 * `update` is a compare-and-set: it writes over the expected version only, exactly one of many concurrent writers
 * wins, and the params stay as created.
 */
function updateChecks(): TaskStoreCheck[] {
  return [
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
      name: 'update after update keeps the params as created, members in order',
      async run(store) {
        const record = sampleRecord({ params: { name: 'x', arguments: { z: 1, a: [{ b: 2, a: 1 }] } } });
        await store.create(record);
        let current = record;
        for (const status of ['working', 'input_required', 'completed'] as const) {
          const next = { ...current, status, version: current.version + 1 };
          if (!(await store.update(next, current.version))) fail(`update to ${status} returned false`);
          current = next;
        }
        const read = await store.get(record.taskId);
        if (JSON.stringify(read) !== JSON.stringify(current)) {
          fail(`after three updates: expected ${JSON.stringify(current)}, got ${JSON.stringify(read)}`);
        }
      },
    },
  ];
}

/**
 * `create` enforces the open-task limits atomically (also against concurrent creations), and counts only the open
 * tasks still there: a task made terminal or deleted as expired no longer counts.
 */
function limitChecks(): TaskStoreCheck[] {
  return [
    {
      name: 'create refuses an open task past the limit per owner or in total, with a TaskLimitError',
      async run(store) {
        const limits = { perOwner: 2, total: 3 };
        const outcomes = [];
        for (const owner of ['alice', 'alice', 'alice', 'bob', 'carol']) {
          outcomes.push(await admit(store, openRecord(owner), limits));
        }
        expectSame(
          outcomes,
          ['created', 'created', 'owner', 'created', 'total'],
          'outcomes (alice ×3, bob, carol)',
        );
        if ((await admit(store, openRecord('carol'), { perOwner: 2, total: null })) !== 'created') {
          fail('a limit of null still limited');
        }
        const finished = sampleRecord({ owner: 'alice', status: 'completed' });
        if ((await admit(store, finished, limits)) !== 'created')
          fail('a record created terminal was refused');
        const error = await store.create(openRecord('alice'), { perOwner: 2, total: null }).then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        if (!(error instanceof TaskLimitError) || error.scope !== 'owner' || error.limit !== 2) {
          fail(`expected TaskLimitError { scope: "owner", limit: 2 }, got ${String(error)}`);
        }
      },
    },
    {
      name: 'a task made terminal or deleted as expired no longer counts toward the limits',
      async run(store) {
        const limits = { perOwner: 1, total: null };
        const now = 1_750_000_100_000;
        const first = openRecord('alice', { createdAt: now - 60_000, ttlMs: 60_000 });
        await store.create(first, limits);
        if ((await admit(store, openRecord('alice'), limits)) !== 'owner')
          fail('the limit of 1 let a second in');
        await store.deleteExpired(now);
        const second = openRecord('alice');
        if ((await admit(store, second, limits)) !== 'created') fail('a deleted open task still counted');
        const waiting = { ...second, status: 'input_required' as const, version: second.version + 1 };
        await store.update(waiting, second.version);
        if ((await admit(store, openRecord('alice'), limits)) !== 'owner') {
          fail('a task waiting for input stopped counting (it is still open)');
        }
        const done = { ...waiting, status: 'cancelled' as const, version: waiting.version + 1 };
        await store.update(done, waiting.version);
        if ((await admit(store, openRecord('alice'), limits)) !== 'created')
          fail('a cancelled task still counted');
      },
    },
    {
      name: 'of concurrent creations racing one limit, exactly as many as it allows succeed',
      async run(store) {
        const perOwner = await Promise.all(
          Array.from({ length: 24 }, () => admit(store, openRecord('mallory'), { perOwner: 5, total: null })),
        );
        const owned = perOwner.filter((outcome) => outcome === 'created').length;
        if (owned !== 5) fail(`24 concurrent creations under a limit of 5 per owner: ${owned} succeeded`);
        const total = await Promise.all(
          Array.from({ length: 24 }, (_, i) =>
            admit(store, openRecord(`owner-${i}`), { perOwner: 5, total: 12 }),
          ),
        );
        const created = total.filter((outcome) => outcome === 'created').length;
        if (created !== 7)
          fail(`24 concurrent creations with 5 of 12 open: ${created} succeeded, expected 7`);
      },
    },
  ];
}

/** `deleteExpired` removes exactly the expired records. */
function expiryChecks(): TaskStoreCheck[] {
  return [
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
