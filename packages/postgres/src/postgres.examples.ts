// Examples quoted into README.md (postgres.examples.test.ts runs them and checks the README quotes them).

import { McpServer } from '@boomerang/mcp-server';
import { createTasks } from '@boomerang/tasks';
import { PGlite } from '@electric-sql/pglite';
import { postgresTaskStore } from './index.js';

/** A server whose tasks live in PGlite under `dataDir`. */
export function printShop(dataDir: string) {
  // #region pglite
  const db = new PGlite(dataDir); // a folder on disk: tasks survive restarts
  const tasks = createTasks({ store: postgresTaskStore(db) });
  const mcp = new McpServer({ name: 'print-shop', version: '1.0.0' }, { tasks });
  mcp.tool('print_run', { task: 'optional' }, async () => ({
    content: [{ type: 'text', text: 'Printed' }],
  }));
  // #endregion pglite
  return { db, tasks, mcp };
}
