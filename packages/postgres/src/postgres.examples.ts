// Examples quoted into README.md (postgres.examples.test.ts runs them and checks the README quotes them).

import { McpServer } from '@boomerang/mcp-server';
import { createTasks } from '@boomerang/tasks';
import { PGlite } from '@electric-sql/pglite';
import { type PostgresDb, postgresNotifications, postgresTaskStore } from './index.js';

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

/**
 * Two instances of a fleet sharing one database: their notifications travel on LISTEN/NOTIFY. `keys` are the
 * fleet's shared operator secrets (`parseKeys(process.env.SEAL_KEYS)` of `@boomerang/seal`).
 */
export function fleetOfTwo(db: PostgresDb, keys: readonly Uint8Array[]) {
  // #region notifications
  // Every instance: the same database (a pg Pool at scale, PGlite in one process), one source each, and the same
  // keys: messages are sealed, so a database role that can NOTIFY the channel cannot make an instance deliver.
  const notifications = postgresNotifications(db, { keys });
  const mcp = new McpServer({ name: 'print-shop', version: '1.0.0' }, { notifications });
  // #endregion notifications
  const other = postgresNotifications(db, { keys });
  const second = new McpServer({ name: 'print-shop', version: '1.0.0' }, { notifications: other });
  return { first: mcp, second, sources: [notifications, other] };
}
