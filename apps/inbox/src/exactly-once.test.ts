// The exactly-once proof: four resumer PROCESSES (dist/resumer.js, each with its own pg Pool) share a real
// PostgreSQL 15 with 400 answered flows, and the MCP server they resume on counts what reaches it. Every flow
// must reach it exactly once, all four must have worked, and every answered round must name the one resumer
// that sent it.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '@boomerang/test-kit/built';
import { type PostgresServer, postgresMissing, startPostgres } from '@boomerang/test-kit/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CountingServer, startCountingServer } from './counting-server.js';
import type { Flow } from './flow.js';
import { type Connections, createConnections } from './servers.js';
import { type FlowStore, flowStore } from './store.js';
import { answersFor } from './test-support/world.js';
import { runJobs } from './worker.js';

const appDir = dirname(dirname(fileURLToPath(import.meta.url)));
const RESUMER = join(appDir, 'dist/resumer.js');
const FLOWS = 400;
const PROCESSES = 4;

interface Stats {
  id: string;
  claimed: number;
  completed: number;
  nextRound: number;
  failed: number;
  rejected: number;
}

describe.skipIf(postgresMissing !== undefined)(
  `exactly once, across processes ${postgresMissing ?? ''}`,
  () => {
    let unavailable: string | undefined;
    let server: PostgresServer;
    let pool: pg.Pool;
    let store: FlowStore;
    let counting: CountingServer;
    let connections: Connections;
    const children: ChildProcess[] = [];

    beforeAll(async () => {
      unavailable = ensureBuilt({ appDir, buildApp: true, needs: [RESUMER] });
      server = await startPostgres();
      pool = new pg.Pool({ connectionString: server.url, max: 8 });
      store = flowStore(pool);
      await store.ready();
      // 5 ms of work per resume: long enough for the four to overlap on every batch.
      counting = await startCountingServer({ workMs: 5 });
      connections = createConnections({ approvals: counting.url.href });
    }, 300_000);

    afterAll(async () => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      await connections?.close();
      await counting?.close();
      await pool?.end();
      await server?.stop();
    });

    it(`${PROCESSES} resumer processes over ${FLOWS} answered flows: each reaches the server exactly once`, async (ctx) => {
      if (unavailable !== undefined) return ctx.skip(unavailable);
      const jobs = Array.from({ length: FLOWS }, (_, n) => ({ tool: 'approve', arguments: { n } }));
      const parked = await runJobs(jobs, { store, connections, server: 'approvals' });
      expect(parked.every((flow) => flow.status === 'pending')).toBe(true);

      // Start the resumers first and wait until all four poll, so that they race for the flows from the start.
      const finals: Promise<Stats>[] = [];
      const ready: Promise<void>[] = [];
      for (let i = 1; i <= PROCESSES; i++) {
        const child = spawn(
          process.execPath,
          [RESUMER, '--server', `approvals=${counting.url.href}`, `--id=p${i}`, '--batch=4', '--poll-ms=20'],
          { env: { ...process.env, DATABASE_URL: server.url }, stdio: ['ignore', 'pipe', 'inherit'] },
        );
        children.push(child);
        const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
        ready.push(
          new Promise((resolve, reject) => {
            lines.on('line', (line) => line === `p${i} ready` && resolve());
            child.once('exit', (code) => reject(new Error(`p${i} exited with ${code} before it was ready`)));
          }),
        );
        finals.push(
          new Promise((resolve) =>
            lines.on('line', (line) => line.startsWith('{') && resolve(JSON.parse(line))),
          ),
        );
      }
      await Promise.all(ready);

      // The people's part: every flow answered, as fast as the page would take them.
      const started = performance.now();
      await Promise.all(
        parked.map((flow: Flow) =>
          store.answer(
            flow.id,
            1,
            answersFor(flow, [[/^Approve/, { action: 'accept', content: { ok: true } }]]),
            'alice',
          ),
        ),
      );
      for (;;) {
        const counts = await store.counts();
        if ((counts.completed ?? 0) + (counts.failed ?? 0) + (counts.rejected ?? 0) >= FLOWS) break;
        if (performance.now() - started > 120_000) throw new Error(`not done: ${JSON.stringify(counts)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const elapsed = performance.now() - started;
      for (const child of children) child.kill('SIGTERM');
      const stats = await Promise.all(finals);
      await Promise.all(children.map((child) => (child.exitCode === null ? once(child, 'exit') : undefined)));

      expect(await store.counts()).toEqual({ completed: FLOWS });
      // The server's count: every flow resumed once, none twice, none lost.
      expect(counting.total()).toBe(FLOWS);
      for (let n = 0; n < FLOWS; n++) expect(counting.runs.get(n), `flow #${n}`).toBe(1);
      // The resumers' count: the claims add up, and every process got some.
      expect(stats.reduce((sum, s) => sum + s.claimed, 0)).toBe(FLOWS);
      expect(stats.reduce((sum, s) => sum + s.completed, 0)).toBe(FLOWS);
      for (const s of stats) expect(s.claimed, `${s.id} claimed nothing`).toBeGreaterThan(0);
      // The store's count: each answered round names the one process that sent it.
      const { rows } = await pool.query(
        'SELECT resumed_by, count(*)::int AS n FROM inbox_rounds GROUP BY resumed_by ORDER BY resumed_by',
      );
      expect(rows).toEqual(
        stats
          .map((s) => ({ resumed_by: s.id, n: s.claimed }))
          .sort((a, b) => a.resumed_by.localeCompare(b.resumed_by)),
      );
      console.log(
        `exactly once: ${FLOWS} flows, ${PROCESSES} processes, ${counting.total()} resumes reached the server ` +
          `(0 twice); claims ${stats.map((s) => `${s.id}=${s.claimed}`).join(' ')}; ${Math.round(elapsed)} ms ` +
          `from the first answer to the last completion`,
      );
    }, 240_000);
  },
);
