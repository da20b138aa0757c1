// Examples quoted into README.md and the docs' continuations guide (inbox.examples.test.ts runs them and checks
// the README quotes them).
import type { PostgresDb } from '@boomerang/postgres';
import { type RunningInbox, startInbox } from './inbox.js';
import { createResumer, type Resumer } from './resumer.js';
import { createConnections } from './servers.js';
import { flowStore } from './store.js';

/** An approval inbox in front of your own MCP server: its questions wait on a web page for alice. */
export async function approvals(serverUrl: string, dataDir: string): Promise<RunningInbox> {
  // #region embed
  const inbox = await startInbox({
    dataDir, // PGlite on disk; or databaseUrl: 'postgres://…' to share the flows with other processes
    servers: { deploy: serverUrl },
    jobs: [{ tool: 'approve', arguments: { n: 7 }, answerers: ['alice'], roundSeconds: 3600 }],
    people: ['alice', 'bob'],
  });
  console.log(`Questions for alice: ${inbox.signInUrl('alice')}`);
  // #endregion embed
  return inbox;
}

/** One more resumer for a fleet that shares its flows in PostgreSQL (`db` is a `pg` Pool on DATABASE_URL). */
export function extraResumer(db: PostgresDb, serverUrl: string): Resumer {
  // #region resumer
  const resumer = createResumer({
    store: flowStore(db), // the same tables every inbox process uses
    connections: createConnections({ deploy: serverUrl }),
    batch: 8, // flows claimed (FOR UPDATE SKIP LOCKED) and resumed at a time
  });
  resumer.start(); // each answered flow is resumed by exactly one resumer of the fleet
  // #endregion resumer
  return resumer;
}
