// Two print-shop processes (test-fixtures/print-shop.mjs, stdio) sharing one PostgreSQL server, each spoken to by
// its own `Client` with `tasks: true`: the task a client creates through process A is, once A is killed, polled,
// answered (by the second client's callback, through tasks/update) and completed through process B, which runs
// the answering round. Every process started here is stopped by the end of the test.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, isClientError } from '@boomerang/client';
import { ensureBuilt } from '@boomerang/testing/built';
import { type PostgresServer, postgresMissing, startPostgres } from '@boomerang/testing/postgres';
import { StdioClientTransport } from '@boomerang/transport-stdio';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresTaskStore } from './task-store.js';

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const program = join(packageDir, 'test-fixtures/print-shop.mjs');

describe.skipIf(postgresMissing !== undefined)(
  `processes sharing PostgreSQL ${postgresMissing ?? ''}`,
  () => {
    let server: PostgresServer | undefined;
    let unavailable: string | undefined;
    const clients: Client[] = [];
    beforeAll(async () => {
      unavailable = ensureBuilt({
        appDir: packageDir,
        runs: ['@boomerang/postgres', '@boomerang/mcp-server', '@boomerang/transport-stdio'],
      });
      server = await startPostgres();
      // Migrate once up front, so the two processes do not race to create the schema.
      const pool = new pg.Pool({ connectionString: server.url, max: 1 });
      await postgresTaskStore(pool).get('migrate');
      await pool.end();
    }, 300_000);
    afterAll(async () => {
      for (const client of clients) await client.close();
      await server?.stop();
    });

    /** A client of a new print-shop process named `name` on the shared server. */
    async function shop(name: string, options: ConstructorParameters<typeof Client>[1]) {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [program, (server as PostgresServer).url, 'fail', '60000', name],
        stderr: 'ignore',
      });
      const client = new Client(
        { name: `host-${name}`, version: '1.0.0' },
        { protocol: '2026-07-28', ...options },
      );
      clients.push(client);
      await client.connect(transport);
      return { client, transport };
    }

    it('a task created through process A is polled, answered and completed through process B', async (ctx) => {
      if (unavailable !== undefined) ctx.skip(unavailable);
      const created: string[] = [];
      const a = await shop('A', {
        tasks: true,
        onTask: (task) => void created.push(task.taskId),
        // The host dies before its user answers: it kept only the task id.
        elicitation: () => {
          throw new Error('host going down');
        },
      });
      const lost = await a.client.callTool('confirm_print', { copies: 3 }).catch((error: unknown) => error);
      expect(isClientError(lost, 'callback-failed')).toBe(true);
      const taskId = created[0] as string;
      expect((lost as { taskId?: string }).taskId).toBe(taskId);
      process.kill(a.transport.pid as number, 'SIGKILL');

      const asked: string[] = [];
      const b = await shop('B', {
        tasks: { listen: false },
        elicitation: async (params, info) => {
          asked.push(`${info.taskId === taskId ? 'task' : '?'}: ${params.message}`);
          return { action: 'accept', content: { ok: true } };
        },
      });
      expect(await b.client.tasks.get(taskId)).toMatchObject({ taskId, status: 'input_required' });
      const result = await b.client.tasks.result(taskId);
      expect(result.content).toEqual([{ type: 'text', text: 'Printed 3 copies on B' }]);
      expect(asked).toEqual(['task: Print 3 copies?']);
      expect(await b.client.tasks.get(taskId)).toMatchObject({ status: 'completed' });
    }, 60_000);
  },
);
