#!/usr/bin/env node
// How many flows per second the resumers sustain, on PGlite (resumers in one process: PGlite is one process's)
// and on a PostgreSQL server this script starts itself (Debian's `postgresql`, fsync on) and stops: resumers in
// one process, and resumers as separate processes (dist/resumer.js). One flow = one claim (UPDATE … FOR UPDATE
// SKIP LOCKED), one `client.resume()` over Streamable HTTP to a counting MCP server (a sealed-state round of an
// McpServer resolver), one conditional UPDATE of the outcome. The flows are parked and answered before the clock
// starts (answered all at once, in one statement, once the resumers poll); the clock stops when the last one is
// completed. The server counts every resume it gets, so each run also checks that each flow was resumed once.
//
// Run after `pnpm build`:  node apps/inbox/dist/bench.js [--flows=1000] [--resumers=1,4] [--batch=8]
//   [--stores=pglite,postgres]
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { PostgresDb } from '@boomerang/postgres';
import { postgresMissing, startPostgres } from '@boomerang/test-kit/postgres';
import { type CountingServer, startCountingServer } from './counting-server.js';
import { openDatabase } from './database.js';
import { createResumer } from './resumer.js';
import { createConnections } from './servers.js';
import { type FlowStore, flowStore } from './store.js';
import { runJobs } from './worker.js';

function option(name: string, fallback: string): string {
  const found = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return found === undefined ? fallback : found.slice(name.length + 3);
}
const FLOWS = Number(option('flows', '1000'));
const RESUMERS = option('resumers', '1,4').split(',').map(Number);
const BATCH = Number(option('batch', '8'));
const STORES = option('stores', 'pglite,postgres').split(',');
const here = dirname(fileURLToPath(import.meta.url));

/** Parks `FLOWS` flows of `approve` (the worker's `client.start()` each), unanswered. */
async function park(store: FlowStore, server: CountingServer, offset: number): Promise<void> {
  const connections = createConnections({ approvals: server.url.href });
  const jobs = Array.from({ length: FLOWS }, (_, i) => ({ tool: 'approve', arguments: { n: offset + i } }));
  try {
    const flows = await runJobs(jobs, { store, connections, server: 'approvals' });
    const stuck = flows.filter((flow) => flow.status !== 'pending');
    if (stuck.length > 0) throw new Error(`${stuck.length} flows did not park: ${stuck[0]?.error}`);
  } finally {
    await connections.close();
  }
}

/** Answers every pending flow in one statement (the people's part, outside the measured time). */
async function answerAll(db: PostgresDb): Promise<number> {
  const { rows } = await db.query(
    `WITH answered AS (
       UPDATE inbox_flows SET status = 'answered', answered_by = 'bench', updated_at = $1,
           answers = json_build_object(
             (SELECT k FROM json_object_keys(continuation -> 'inputRequests') AS k LIMIT 1),
             json_build_object('action', 'accept', 'content', json_build_object('ok', true)))
         WHERE status = 'pending' RETURNING id, round, continuation, answers
     )
     INSERT INTO inbox_rounds (flow_id, round, questions, answers, answered_by, answered_at)
       SELECT id, round, continuation -> 'inputRequests', answers, 'bench', $1 FROM answered RETURNING flow_id`,
    [Date.now()],
  );
  return rows.length;
}

async function completed(db: PostgresDb): Promise<number> {
  const { rows } = await db.query(
    "SELECT count(*) AS n FROM inbox_flows WHERE status IN ('completed', 'failed', 'rejected')",
    [],
  );
  return Number((rows[0] as { n: unknown }).n);
}

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Resumers in this process; resolves to the elapsed ms from answering to the last completion. */
async function inProcess(
  db: PostgresDb,
  store: FlowStore,
  server: CountingServer,
  count: number,
  done: number,
) {
  const connections = createConnections({ approvals: server.url.href });
  const resumers = Array.from({ length: count }, (_, i) =>
    createResumer({ store, connections, id: `bench-${i + 1}`, batch: BATCH, pollMs: 20 }),
  );
  for (const resumer of resumers) resumer.start();
  const start = performance.now();
  await answerAll(db);
  await until(async () => (await completed(db)) >= done + FLOWS);
  const elapsed = performance.now() - start;
  await Promise.all(resumers.map((r) => r.stop()));
  await connections.close();
  return elapsed;
}

/** Resumers as processes (dist/resumer.js); resolves to the elapsed ms from answering to the last completion. */
async function processes(db: PostgresDb, url: string, server: CountingServer, count: number, done: number) {
  const children: ChildProcess[] = [];
  try {
    const ready = Array.from({ length: count }, (_, i) => {
      const child = spawn(
        process.execPath,
        [
          join(here, 'resumer.js'),
          '--server',
          `approvals=${server.url.href}`,
          `--id=proc-${i + 1}`,
          `--batch=${BATCH}`,
          '--poll-ms=20',
        ],
        { env: { ...process.env, DATABASE_URL: url }, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      children.push(child);
      return new Promise<void>((resolve, reject) => {
        child.once('exit', (code) =>
          reject(new Error(`resumer ${i + 1} exited (${code}) before it was ready`)),
        );
        createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
          if (line.endsWith(' ready')) resolve();
        });
      });
    });
    await Promise.all(ready);
    const start = performance.now();
    await answerAll(db);
    await until(async () => (await completed(db)) >= done + FLOWS);
    return performance.now() - start;
  } finally {
    for (const child of children) {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
  }
}

interface Row {
  store: string;
  resumers: string;
  flows: number;
  'flows/s': number;
  'ms/flow (per resumer)': string;
  'resumed once': string;
}

async function benchStore(
  label: string,
  opened: { db: PostgresDb },
  url: string | undefined,
): Promise<Row[]> {
  const rows: Row[] = [];
  const server = await startCountingServer();
  const store = flowStore(opened.db);
  await store.ready();
  let done = 0;
  const modes: { name: string; count: number; separate: boolean }[] = [];
  for (const count of RESUMERS) {
    modes.push({ name: `${count} in one process`, count, separate: false });
    if (url !== undefined && count > 1) modes.push({ name: `${count} processes`, count, separate: true });
  }
  try {
    for (const mode of modes) {
      await park(store, server, done);
      const before = server.total();
      const elapsed = mode.separate
        ? await processes(opened.db, url as string, server, mode.count, done)
        : await inProcess(opened.db, store, server, mode.count, done);
      const resumed = server.total() - before;
      const twice = [...server.runs.values()].filter((n) => n > 1).length;
      rows.push({
        store: label,
        resumers: mode.name,
        flows: FLOWS,
        'flows/s': Math.round((FLOWS / elapsed) * 1000),
        'ms/flow (per resumer)': ((elapsed * mode.count) / FLOWS).toFixed(2),
        'resumed once':
          resumed === FLOWS && twice === 0 ? `yes (${resumed})` : `NO: ${resumed} resumes, ${twice} twice`,
      });
      done += FLOWS;
    }
  } finally {
    await server.close();
  }
  return rows;
}

console.log(
  `\ninbox resumers: answered flows resumed per second (claim → client.resume over HTTP → outcome stored) — node ` +
    `${process.version}, ${process.platform}/${process.arch}; ${FLOWS} flows per cell, batch ${BATCH}`,
);
const table: Row[] = [];
if (STORES.includes('pglite')) {
  const opened = await openDatabase();
  try {
    table.push(...(await benchStore('PGlite (disk)', opened, undefined)));
  } finally {
    await opened.close();
  }
}
if (STORES.includes('postgres')) {
  if (postgresMissing !== undefined) {
    console.log(`PostgreSQL skipped: ${postgresMissing}`);
  } else {
    const pgServer = await startPostgres({ fsync: true });
    const opened = await openDatabase({ databaseUrl: pgServer.url, poolSize: 16 });
    try {
      table.push(...(await benchStore('PostgreSQL 15 (fsync on)', opened, pgServer.url)));
    } finally {
      await opened.close();
      await pgServer.stop();
    }
  }
}
console.table(table);
