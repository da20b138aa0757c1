// Test helpers: continuations and flows made by hand (no server needed), and an empty store per test.
import type { Continuation } from '@boomerang/client';
import type { PostgresDb } from '@boomerang/postgres';
import type { ElicitRequest, InputRequest } from '@boomerang/protocol';
import type { FlowStore, NewFlow } from '../store.js';

/** A form elicitation asking `fields` (property order kept). */
export function form(
  message: string,
  properties: Record<string, Record<string, unknown>>,
  required: string[] = [],
): ElicitRequest {
  return {
    method: 'elicitation/create',
    params: { mode: 'form', message, requestedSchema: { type: 'object', properties, required } },
  } as ElicitRequest;
}

/** A continuation of `tools/call tool(args)` at `round`, asking `questions`. */
export function continuation(
  questions: Record<string, InputRequest>,
  round = 1,
  tool = 'order_book',
  args: Record<string, unknown> = { title: 'Solaris' },
): Continuation<'tools/call'> {
  return {
    version: 1,
    method: 'tools/call',
    params: { name: tool, arguments: args },
    inputRequests: questions,
    requestState: `state-of-round-${round}`,
    round,
    createdAt: '2026-07-28T10:00:00.000Z',
  };
}

/** A pending flow asking one yes/no form, unless told otherwise. */
export function pendingFlow(overrides: Partial<NewFlow> = {}): NewFlow {
  return {
    server: 'bookshop',
    tool: 'order_book',
    arguments: { title: 'Solaris' },
    roundMs: 60_000,
    outcome: {
      continuation: continuation({
        ok: form('Backorder it?', { confirm: { type: 'boolean' } }, ['confirm']),
      }),
    },
    ...overrides,
  };
}

/** Empties the inbox's tables (the schema stays). */
export async function emptyStore(db: PostgresDb, store: FlowStore): Promise<void> {
  await store.ready();
  await db.query('DELETE FROM inbox_rounds', []);
  await db.query('DELETE FROM inbox_flows', []);
}

/** A clock tests move by hand. */
export function manualClock(start = Date.parse('2026-07-28T10:00:00Z')) {
  const clock = { now: start, read: () => clock.now };
  return clock;
}
