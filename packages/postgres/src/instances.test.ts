// Two instances (two McpServers, two pg pools, one PostgreSQL): a task created through A is polled, answered and
// completed through B; concurrent answers through A and B: exactly one wins.
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import type { MessageHandler } from '@boomerang/protocol/transport';
import { createTasks, TASKS_EXTENSION, type Tasks } from '@boomerang/tasks';
import { type PostgresServer, postgresMissing, startPostgres } from '@boomerang/testing/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { postgresTaskStore } from './task-store.js';

const caps = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };
let id = 0;
async function call(server: MessageHandler, method: string, params: Record<string, unknown> = {}) {
  const response = (await server.handle({
    jsonrpc: '2.0',
    id: ++id,
    method,
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': caps,
      },
      ...params,
    },
  })) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
  return response;
}

async function until(server: MessageHandler, taskId: string, done: (t: Record<string, unknown>) => boolean) {
  for (let i = 0; i < 500; i++) {
    const task = (await call(server, 'tasks/get', { taskId })).result as Record<string, unknown>;
    if (done(task)) return task;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`task ${taskId} never got there`);
}

describe.skipIf(postgresMissing !== undefined)(
  `instances sharing PostgreSQL ${postgresMissing ?? ''}`,
  () => {
    let server: PostgresServer;
    const pools: pg.Pool[] = [];
    const runtimes: Tasks[] = [];
    beforeAll(async () => {
      server = await startPostgres();
    }, 60_000);
    afterAll(async () => {
      await Promise.all(runtimes.map((t) => t.close()));
      await Promise.all(pools.map((p) => p.end()));
      await server?.stop();
    });

    function instance(name: string) {
      const pool = new pg.Pool({ connectionString: server.url, max: 4 });
      pools.push(pool);
      const tasks = createTasks({ store: postgresTaskStore(pool) });
      runtimes.push(tasks);
      const mcp = new McpServer({ name: 'print-shop', version: '1.0.0' }, { tasks });
      const approve = resolver({ args: ['copies'] }, ({ copies }) =>
        elicit(`Print ${copies} copies?`, z.object({ ok: z.boolean() })),
      );
      mcp.tool(
        'print_run',
        { input: z.object({ copies: z.number() }), task: 'required', resolve: { approval: approve } },
        ({ copies }, { approval }) => ({
          content: [{ type: 'text', text: `${approval.ok ? 'Printed' : 'Skipped'} ${copies} on ${name}` }],
        }),
      );
      return { mcp, tasks };
    }

    it('A creates the task; B polls, answers and completes it', async () => {
      const a = instance('A');
      const b = instance('B');
      const created = (await call(a.mcp, 'tools/call', { name: 'print_run', arguments: { copies: 5 } }))
        .result;
      expect(created?.resultType).toBe('task');
      const taskId = created?.taskId as string;
      expect((await call(b.mcp, 'tasks/get', { taskId })).result?.taskId).toBe(taskId);
      const waiting = await until(b.mcp, taskId, (t) => t.status === 'input_required');
      const [key] = Object.keys(waiting.inputRequests as object);
      await a.tasks.close();
      const ack = await call(b.mcp, 'tasks/update', {
        taskId,
        inputResponses: { [key as string]: { action: 'accept', content: { ok: true } } },
      });
      expect(ack.result?.resultType).toBe('complete');
      const done = await until(b.mcp, taskId, (t) => t.status === 'completed');
      expect(done.result).toMatchObject({ content: [{ text: 'Printed 5 on B' }] });
    });

    it('concurrent tasks/update through A and B: exactly one wins, the other gets a clear error', async () => {
      const a = instance('A');
      const b = instance('B');
      const taskId = (await call(a.mcp, 'tools/call', { name: 'print_run', arguments: { copies: 1 } })).result
        ?.taskId as string;
      const waiting = await until(a.mcp, taskId, (t) => t.status === 'input_required');
      const [key] = Object.keys(waiting.inputRequests as object);
      const answer = (ok: boolean) => ({
        taskId,
        inputResponses: { [key as string]: { action: 'accept', content: { ok } } },
      });
      const outcomes = await Promise.all([
        call(a.mcp, 'tasks/update', answer(true)),
        call(b.mcp, 'tasks/update', answer(false)),
      ]);
      const errors = outcomes.filter((o) => o.error !== undefined);
      // Both may read before either writes (one then loses the compare-and-set), or one reads after the other's
      // write (it then finds the task no longer waiting for input): either way one answer, one -32602.
      expect(errors).toHaveLength(1);
      expect(errors[0]?.error?.code).toBe(-32602);
      const done = await until(b.mcp, taskId, (t) => t.status === 'completed');
      const won = outcomes.findIndex((o) => o.error === undefined);
      expect(done.result).toMatchObject({
        content: [{ text: expect.stringMatching(won === 0 ? /^Printed/ : /^Skipped/) }],
      });
    });
  },
);
