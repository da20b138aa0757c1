// The flow store: SQL on PGlite (one process) or PostgreSQL (any number of processes), one schema for both.
// Every change of status is ONE conditional statement, so two people answering the same round, or two resumers
// reaching for the same flow, can never both win: PostgreSQL's row lock queues the writers and each re-checks
// the `WHERE` against the row the one before it committed (PGlite runs one statement at a time anyway).
import { randomUUID } from 'node:crypto';
import type { Continuation } from '@boomerang/client';
import type { PostgresDb } from '@boomerang/postgres';
import type { InputResponses } from '@boomerang/protocol';
import type { Flow, FlowRound, FlowStatus } from './flow.js';
import { schemaReady } from './migrations.js';

/** A flow as the worker records it: parked at a round that asks, answered at once, or failed at once. */
export interface NewFlow {
  readonly server: string;
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly note?: string;
  /** Who may answer; absent or empty: anyone signed in. */
  readonly answerers?: readonly string[];
  /** How long each round takes answers, in ms. */
  readonly roundMs: number;
  /** What `client.start()` returned: `{ continuation }`, `{ result }`, or the error it threw, in words. */
  readonly outcome:
    | { readonly continuation: Continuation<'tools/call'> }
    | { readonly result: unknown }
    | { readonly error: string };
}

/** Why an answer (or a drop) was not taken. */
export type AnswerRefusal =
  /** No flow has that id. */
  | 'not-found'
  /** Somebody answered this round first (or dropped the flow): `flow.answeredBy` says who. */
  | 'already-answered'
  /** The round's deadline passed. */
  | 'expired'
  /** The flow is at another round than the one answered (the page was stale). */
  | 'stale-round'
  /** The flow has ended. */
  | 'ended';

/** What {@link FlowStore.answer} and {@link FlowStore.drop} resolve to. */
export type AnswerOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: AnswerRefusal; readonly flow?: Flow };

/** How a resume ended, as {@link FlowStore.finish} records it. */
export type ResumeOutcome =
  | { readonly result: unknown }
  | { readonly continuation: Continuation<'tools/call'> }
  | { readonly status: 'failed' | 'rejected'; readonly error: string };

/** The store of flows; see the file comment for how it stays correct under concurrency. */
export interface FlowStore {
  /** Applies the schema's migrations (every other method does it first, once). */
  ready(): Promise<void>;
  /** Records a new flow; resolves to it as stored. */
  create(flow: NewFlow): Promise<Flow>;
  get(id: string): Promise<Flow | undefined>;
  /**
   * The flows in `statuses` (all when absent) that concern `person` (all when absent; see `concerns` in flow.ts),
   * most recently changed first, at most `limit` (default 200). The person is filtered in SQL, so the limit
   * counts only their flows.
   */
  list(filter?: {
    readonly statuses?: readonly FlowStatus[];
    readonly person?: string;
    readonly limit?: number;
  }): Promise<Flow[]>;
  /** How many flows are in each status. */
  counts(): Promise<Partial<Record<FlowStatus, number>>>;
  /** The answered rounds of a flow, oldest first. */
  rounds(id: string): Promise<FlowRound[]>;
  /**
   * Takes `person`'s answers to round `round` of flow `id`: one conditional UPDATE (`pending`, that round, before
   * its deadline) that also records the round. Exactly one of two concurrent answers wins; the other learns why.
   * Who may answer is the caller's check (`concerns` in flow.ts): it never changes during a flow.
   */
  answer(id: string, round: number, answers: InputResponses, person: string): Promise<AnswerOutcome>;
  /** Ends a pending flow without answering (`dropped`), under the same conditions as {@link answer}. */
  drop(id: string, round: number, person: string): Promise<AnswerOutcome>;
  /**
   * Claims up to `limit` answered flows for `resumer`, oldest first: `WITH picked AS (SELECT … FOR UPDATE SKIP
   * LOCKED) UPDATE … FROM picked … AND status = 'answered'`, so concurrent resumers take disjoint sets, and each
   * flow is claimed once: only the claimer may {@link finish} it.
   */
  claim(resumer: string, limit: number): Promise<Flow[]>;
  /**
   * Records how the resume of a claimed flow ended (and which resumer sent the round). Resolves to false when the
   * claim was lost meanwhile (the flow was declared failed by {@link failStale}): nothing is written then.
   */
  finish(flow: Flow, resumer: string, outcome: ResumeOutcome): Promise<boolean>;
  /** Marks every pending flow past its deadline `expired`; resolves to how many. */
  expireDue(): Promise<number>;
  /**
   * Marks `failed` every flow claimed longer ago than `leaseMs` (its resumer stopped half-way: whether the server
   * got the answers is unknown, so it is never sent again); resolves to how many.
   */
  failStale(leaseMs: number): Promise<number>;
}

/** Options of {@link flowStore}. */
export interface FlowStoreOptions {
  /** Epoch ms (tests move time with it). */
  readonly clock?: () => number;
}

type Row = Record<string, unknown>;

/** A json column as the driver returned it: parsed already (pg, PGlite) or as text. */
function json<T>(value: unknown): T | undefined {
  if (value === null || value === undefined) return undefined;
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

const int = (value: unknown): number => Number(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function flowOf(row: Row): Flow {
  const flow: { -readonly [K in keyof Flow]: Flow[K] } = {
    id: row.id as string,
    server: row.server as string,
    tool: row.tool as string,
    arguments: json(row.arguments) ?? {},
    status: row.status as FlowStatus,
    round: int(row.round),
    deadline: int(row.deadline),
    roundMs: int(row.round_ms),
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
  const optional = {
    note: text(row.note),
    continuation: json<Continuation<'tools/call'>>(row.continuation),
    answerers: json<string[]>(row.answerers),
    answers: json<InputResponses>(row.answers),
    answeredBy: text(row.answered_by),
    result: json(row.result),
    error: text(row.error),
    claimedBy: text(row.claimed_by),
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) (flow as Record<string, unknown>)[key] = value;
  }
  return flow;
}

function roundOf(row: Row): FlowRound {
  const round: { -readonly [K in keyof FlowRound]: FlowRound[K] } = {
    flowId: row.flow_id as string,
    round: int(row.round),
    questions: json(row.questions) ?? {},
    answers: json(row.answers) ?? {},
    answeredBy: row.answered_by as string,
    answeredAt: int(row.answered_at),
  };
  if (typeof row.resumed_by === 'string') round.resumedBy = row.resumed_by;
  if (row.resumed_at !== null && row.resumed_at !== undefined) round.resumedAt = int(row.resumed_at);
  if (typeof row.outcome === 'string') round.outcome = row.outcome;
  return round;
}

const EXPIRED = 'Nobody answered before the deadline.';
const INTERRUPTED =
  'The resumer stopped while sending the answers, so whether the server got them is unknown; the flow is not ' +
  'sent again (that could do its work twice).';

/** The flow store over `db`: a PGlite instance or a `pg` Pool. */
export function flowStore(db: PostgresDb, options: FlowStoreOptions = {}): FlowStore {
  const clock = options.clock ?? Date.now;
  const ready = schemaReady(db);
  const rows = async (sql: string, params: unknown[]): Promise<Row[]> => {
    await ready();
    return (await db.query(sql, params)).rows as Row[];
  };
  const get = async (id: string) => {
    const found = await rows('SELECT * FROM inbox_flows WHERE id = $1', [id]);
    return found[0] === undefined ? undefined : flowOf(found[0]);
  };

  /** Why an answer to round `round` of `id` was not taken, from the flow as it is now. */
  const refusal = async (id: string, round: number, now: number): Promise<AnswerOutcome> => {
    const flow = await get(id);
    if (flow === undefined) return { ok: false, reason: 'not-found' };
    if (flow.status === 'pending' && flow.round === round && flow.deadline <= now) {
      await expireDue();
      return { ok: false, reason: 'expired', flow: (await get(id)) ?? flow };
    }
    if (flow.status === 'expired') return { ok: false, reason: 'expired', flow };
    if (flow.status === 'pending') return { ok: false, reason: 'stale-round', flow };
    if (flow.round === round && ['answered', 'resuming', 'dropped'].includes(flow.status)) {
      return { ok: false, reason: 'already-answered', flow };
    }
    if (flow.round !== round && !['completed', 'failed', 'rejected'].includes(flow.status)) {
      return { ok: false, reason: 'stale-round', flow };
    }
    return { ok: false, reason: flow.round === round ? 'already-answered' : 'ended', flow };
  };

  const expireDue = async () => {
    const now = clock();
    const expired = await rows(
      `UPDATE inbox_flows SET status = 'expired', error = $2, continuation = NULL, updated_at = $1
         WHERE status = 'pending' AND deadline <= $1 RETURNING id`,
      [now, EXPIRED],
    );
    return expired.length;
  };

  return {
    ready,
    get,
    expireDue,

    async create(flow) {
      const now = clock();
      const { outcome } = flow;
      const status: FlowStatus =
        'continuation' in outcome ? 'pending' : 'result' in outcome ? 'completed' : 'failed';
      const created = await rows(
        `INSERT INTO inbox_flows (id, server, tool, arguments, note, status, round, continuation, answerers,
           deadline, round_ms, result, error, created_at, updated_at)
         VALUES ($1, $2, $3, $4::json, $5, $6, $7, $8::json, $9::json, $10, $11, $12::json, $13, $14, $14)
         RETURNING *`,
        [
          randomUUID(),
          flow.server,
          flow.tool,
          JSON.stringify(flow.arguments),
          flow.note ?? null,
          status,
          'continuation' in outcome ? outcome.continuation.round : 0,
          'continuation' in outcome ? JSON.stringify(outcome.continuation) : null,
          flow.answerers !== undefined && flow.answerers.length > 0 ? JSON.stringify(flow.answerers) : null,
          now + flow.roundMs,
          flow.roundMs,
          'result' in outcome ? JSON.stringify(outcome.result) : null,
          'error' in outcome ? outcome.error : null,
          now,
        ],
      );
      return flowOf(created[0] as Row);
    },

    async list(filter = {}) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.statuses !== undefined) {
        params.push([...filter.statuses]);
        where.push(`status = ANY($${params.length}::text[])`);
      }
      if (filter.person !== undefined) {
        // concerns(): no answerers (stored as NULL when empty), or the person among them.
        params.push(filter.person);
        where.push(`(answerers IS NULL OR answerers::jsonb ? $${params.length})`);
      }
      params.push(filter.limit ?? 200);
      const found = await rows(
        `SELECT * FROM inbox_flows ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`}
           ORDER BY updated_at DESC, id LIMIT $${params.length}`,
        params,
      );
      return found.map(flowOf);
    },

    async counts() {
      const found = await rows('SELECT status, count(*) AS n FROM inbox_flows GROUP BY status', []);
      return Object.fromEntries(found.map((row) => [row.status as FlowStatus, int(row.n)]));
    },

    async rounds(id) {
      const found = await rows('SELECT * FROM inbox_rounds WHERE flow_id = $1 ORDER BY round', [id]);
      return found.map(roundOf);
    },

    async answer(id, round, answers, person) {
      const now = clock();
      const taken = await rows(
        `WITH answered AS (
           UPDATE inbox_flows SET status = 'answered', answers = $3::json, answered_by = $4, updated_at = $5
             WHERE id = $1 AND round = $2 AND status = 'pending' AND deadline > $5
             RETURNING id, round, continuation
         )
         INSERT INTO inbox_rounds (flow_id, round, questions, answers, answered_by, answered_at)
           SELECT id, round, continuation -> 'inputRequests', $3::json, $4, $5 FROM answered
           RETURNING flow_id`,
        [id, round, JSON.stringify(answers), person, now],
      );
      return taken.length === 1 ? { ok: true } : refusal(id, round, now);
    },

    async drop(id, round, person) {
      const now = clock();
      const taken = await rows(
        `UPDATE inbox_flows SET status = 'dropped', answered_by = $3, error = $4, continuation = NULL,
             updated_at = $5
           WHERE id = $1 AND round = $2 AND status = 'pending' AND deadline > $5 RETURNING id`,
        [id, round, person, `Dropped by ${person} without answering.`, now],
      );
      return taken.length === 1 ? { ok: true } : refusal(id, round, now);
    },

    async claim(resumer, limit) {
      const now = clock();
      // The CTE runs once (a row-locking CTE is materialised): `WHERE id IN (SELECT … LIMIT n)` may be run again
      // by the planner, and return more than n rows, or other ones.
      const claimed = await rows(
        `WITH picked AS (
           SELECT id FROM inbox_flows WHERE status = 'answered' ORDER BY updated_at, id LIMIT $3
             FOR UPDATE SKIP LOCKED
         )
         UPDATE inbox_flows AS f SET status = 'resuming', claimed_by = $1, claimed_at = $2, updated_at = $2
           FROM picked WHERE f.id = picked.id AND f.status = 'answered'
           RETURNING f.*`,
        [resumer, now, limit],
      );
      return claimed.map(flowOf);
    },

    async finish(flow, resumer, outcome) {
      const now = clock();
      let set: string;
      let params: unknown[];
      let logged: string;
      if ('result' in outcome) {
        set = `status = 'completed', result = $4::json, continuation = NULL`;
        params = [JSON.stringify(outcome.result)];
        logged = 'completed';
      } else if ('continuation' in outcome) {
        set = `status = 'pending', round = $4, continuation = $5::json, deadline = $3 + round_ms`;
        params = [outcome.continuation.round, JSON.stringify(outcome.continuation)];
        logged = `next round (${outcome.continuation.round})`;
      } else {
        set = 'status = $4, error = $5, continuation = NULL';
        params = [outcome.status, outcome.error];
        logged = outcome.status;
      }
      const done = await rows(
        `WITH done AS (
           UPDATE inbox_flows SET ${set}, answers = NULL, answered_by = NULL, claimed_by = NULL,
               claimed_at = NULL, updated_at = $3
             WHERE id = $1 AND status = 'resuming' AND claimed_by = $2
             RETURNING id
         ), logged AS (
           UPDATE inbox_rounds SET resumed_by = $2, resumed_at = $3, outcome = '${logged.replaceAll("'", "''")}'
             WHERE flow_id IN (SELECT id FROM done) AND round = ${Number(flow.round)}
             RETURNING flow_id
         )
         SELECT id FROM done`,
        [flow.id, resumer, now, ...params],
      );
      return done.length === 1;
    },

    async failStale(leaseMs) {
      const now = clock();
      const failed = await rows(
        `UPDATE inbox_flows SET status = 'failed', error = $2, continuation = NULL, updated_at = $1
           WHERE status = 'resuming' AND claimed_at <= $3 RETURNING id`,
        [now, INTERRUPTED, now - leaseMs],
      );
      return failed.length;
    },
  };
}
