// A print shop whose tasks live in PGlite on disk (or in a PostgreSQL server), served over stdio: the program
// durability.test.ts kills with SIGKILL and starts again on the same data directory, and processes.test.ts runs
// twice on one PostgreSQL. It runs the BUILT packages (plain Node).
// Usage: node print-shop.mjs <data-dir | postgres://…> [fail|rerun] [print-ms] [instance-name]
//   confirm_print { copies }: a task whose resolver asks "Print N copies?", then answers (naming the instance that
//                             ran the answering round, when it has a name).
//   long_print { copies }:    a task that prints for print-ms (default one minute), then answers.
// Leases are one second, so a task whose runner was killed counts as interrupted a second later.
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { postgresTaskStore } from '@boomerang/postgres';
import { createTasks } from '@boomerang/tasks';
import { StdioServerTransport } from '@boomerang/transport-stdio';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { z } from 'zod';

const [dataDir, interrupted = 'fail', printMs = '60000', name] = process.argv.slice(2);
if (dataDir === undefined) {
  process.stderr.write(
    'usage: node print-shop.mjs <data-dir | postgres://…> [fail|rerun] [print-ms] [instance-name]\n',
  );
  process.exit(2);
}
const db = /^postgres(ql)?:\/\//.test(dataDir)
  ? new pg.Pool({ connectionString: dataDir, max: 4 })
  : await PGlite.create(dataDir);
const store = postgresTaskStore(db);
// Migrations run before the first request: "ready" means the store answers.
await store.get('warm-up');
const tasks = createTasks({ store, leaseMs: 1_000, interrupted });
const mcp = new McpServer({ name: 'print-shop', version: '1.0.0' }, { tasks });

const approval = resolver({ args: ['copies'] }, ({ copies }) =>
  elicit(`Print ${copies} copies?`, z.object({ ok: z.boolean() })),
);
mcp.tool(
  'confirm_print',
  { input: z.object({ copies: z.number() }), task: 'required', resolve: { approval } },
  ({ copies }, { approval: answer }) => ({
    content: [
      {
        type: 'text',
        text: `${answer.ok ? `Printed ${copies} copies` : 'Nothing printed'}${name ? ` on ${name}` : ''}`,
      },
    ],
  }),
);
mcp.tool(
  'long_print',
  { input: z.object({ copies: z.number() }), task: 'required' },
  async ({ copies }, _r, ctx) => {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, Number(printMs));
      ctx.signal.addEventListener('abort', () => resolve(clearTimeout(timer)), { once: true });
    });
    return { content: [{ type: 'text', text: `Printed ${copies} copies (long run)` }] };
  },
);

await mcp.connect(new StdioServerTransport());
process.stderr.write('print-shop ready\n');
