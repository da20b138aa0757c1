// Where the apps keep their tasks: PGlite on disk (the embedded default wherever something must survive a restart),
// in a folder the user names (`--data-dir`), or in a temporary folder removed when the app stops.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresTaskStore } from '@boomerang/postgres';
import type { TaskStore } from '@boomerang/tasks';
import { PGlite } from '@electric-sql/pglite';

/** An open task store and its folder. */
export interface AppTaskStore {
  readonly store: TaskStore;
  /** The PGlite data folder. */
  readonly dataDir: string;
  /** True when the folder is a temporary one that {@link AppTaskStore.close} removes. */
  readonly temporary: boolean;
  /**
   * Resolves once the database has started. Its start blocks the event loop for a while (WebAssembly), so a
   * server that must answer its first request promptly (the conformance runs) waits for it before listening.
   */
  ready(): Promise<void>;
  /** Closes the database, then removes the folder when it is temporary. */
  close(): Promise<void>;
}

/**
 * Opens PGlite in `dataDir` (created when missing; kept on close, so a restart on it finds every task), or in a
 * new temporary folder when `dataDir` is `undefined` (removed on close). The database starts in the background:
 * the server answers at once and the first task request waits for it (or await {@link AppTaskStore.ready}).
 */
export function openTaskStore(dataDir?: string): AppTaskStore {
  const temporary = dataDir === undefined;
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'boomerang-tasks-'));
  const db = new PGlite(dir);
  return {
    store: postgresTaskStore(db),
    dataDir: dir,
    temporary,
    ready: () => db.waitReady,
    async close() {
      try {
        await db.close();
      } finally {
        if (temporary) rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
