// Tasks benchmark: tasks created + completed per second on each durable store of @boomerang/postgres: PGlite on
// disk (a temporary folder) and a PostgreSQL server this script starts itself (Debian's `postgresql`, initdb +
// pg_ctl on 127.0.0.1 in a temporary directory, fsync on) and stops afterwards. One flow is a `tools/call` that
// the tasks runtime turns into a task (stored before the CreateTaskResult is answered), whose handler returns at
// once, and whose completion is written to the store; the flow ends when the `notifications/tasks` of that
// completed write is published. Per task: one INSERT, one SELECT and one conditional UPDATE.
//
// Run after `pnpm build`:  node apps/bench/src/tasks.bench.mjs [--duration=3000] [--warmup=1000]
//   [--concurrency=1,32] [--stores=pglite,postgres] [--pool=16]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresTaskStore } from '@boomerang/postgres';
import { Server } from '@boomerang/server';
import { createTasks, TASKS_EXTENSION } from '@boomerang/tasks';
import { postgresMissing, startPostgres } from '@boomerang/test-kit/postgres';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { measure, summarize } from './flows/harness.mjs';

const options = parseOptions();
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
};

/**
 * A low-level server running `report` as a task on `store`. `call(n)` resolves once that task's completion is
 * stored: the runtime publishes each visible change into the server's notification source, so the source here
 * resolves the waiting flow instead of a `tasks/get` poll loop (which would add reads of its own).
 */
function makeServer(store) {
  const waiting = new Map();
  const finished = new Set();
  const source = {
    publish(notification) {
      if (notification.method !== 'notifications/tasks') return;
      const { taskId, status } = notification.params;
      if (status === 'working') return;
      const resolve = waiting.get(taskId);
      if (resolve === undefined) finished.add(taskId);
      else resolve(status);
      waiting.delete(taskId);
    },
    subscribe: () => () => {},
  };
  const tasks = createTasks({ store });
  const server = new Server(
    { name: 'tasks-bench', version: '1.0.0' },
    {
      notifications: source,
      extensions: [tasks.extension],
      onCallTool: tasks.wrapCallTool(
        (params) => ({ content: [{ type: 'text', text: `report ${params.arguments.n}` }] }),
        { report: 'required' },
      ),
    },
  );
  let id = 0;
  return {
    async call(n) {
      const response = await server.handle({
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/call',
        params: { _meta: META, name: 'report', arguments: { n } },
      });
      const { taskId, resultType } = response.result ?? {};
      if (resultType !== 'task') throw new Error(`no task: ${JSON.stringify(response)}`);
      const status = finished.delete(taskId)
        ? 'completed'
        : await new Promise((resolve) => waiting.set(taskId, resolve));
      if (status !== 'completed') throw new Error(`task ${taskId} ended ${status}`);
    },
    close: async () => {
      await tasks.close();
      await server.close();
    },
  };
}

/** Measures every concurrency on `store`; returns the table rows. */
async function bench(label, store) {
  const rows = [];
  for (const concurrency of options.concurrency) {
    const server = makeServer(store);
    try {
      await server.call(-1);
      const slice = await measure((_, i) => server.call(i), {
        concurrency,
        warmupMs: options.warmupMs,
        durationMs: options.durationMs,
      });
      const s = summarize([slice]);
      rows.push({
        store: label,
        concurrency,
        'tasks/s': Math.round(s.flowsPerSec),
        'p50 ms': s.p50.toFixed(2),
        'p99 ms': s.p99.toFixed(2),
        'CPU ms/task': s.cpuMsPerFlow.toFixed(3),
        errors: s.errors,
      });
      if (s.firstError !== undefined) console.log(`${label} c=${concurrency}: first error: ${s.firstError}`);
    } finally {
      await server.close();
    }
  }
  return rows;
}

console.log(
  `\ntasks: created + completed per second (tools/call → task stored → handler → completion stored) — node ` +
    `${process.version}, ${process.platform}/${process.arch}; ${options.warmupMs} ms warm-up + ` +
    `${options.durationMs} ms per cell`,
);
const rows = [];
if (options.stores.includes('pglite')) {
  const dir = mkdtempSync(join(tmpdir(), 'boomerang-bench-pglite-'));
  const db = await PGlite.create(dir);
  try {
    rows.push(...(await bench('PGlite (file)', postgresTaskStore(db))));
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
if (options.stores.includes('postgres')) {
  if (postgresMissing !== undefined) {
    console.log(`PostgreSQL skipped: ${postgresMissing}`);
  } else {
    const server = await startPostgres({ fsync: true });
    const pool = new pg.Pool({ connectionString: server.url, max: options.pool });
    try {
      rows.push(...(await bench(`PostgreSQL 15 (pool ${options.pool})`, postgresTaskStore(pool))));
    } finally {
      await pool.end();
      await server.stop();
    }
  }
}
console.table(rows);

function parseOptions() {
  const args = Object.fromEntries(
    process.argv
      .slice(2)
      .filter((a) => a.startsWith('--'))
      .map((a) => a.slice(2).split('=')),
  );
  const number = (value, fallback) => (value === undefined ? fallback : Number(value));
  return {
    durationMs: number(args.duration ?? process.env.TASKS_BENCH_DURATION_MS, 3000),
    warmupMs: number(args.warmup ?? process.env.TASKS_BENCH_WARMUP_MS, 1000),
    concurrency: (args.concurrency ?? '1,32').split(',').map(Number),
    stores: (args.stores ?? 'pglite,postgres').split(','),
    pool: number(args.pool, 16),
  };
}
