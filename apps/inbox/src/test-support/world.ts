// A test world: PGlite in a temporary folder with the flow store, the bookshop and the counting server over HTTP
// on 127.0.0.1, and connections to both. One per test file (PGlite takes seconds to start); `reset()` empties
// the store between tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ListeningBookshop, listenBookshop } from '@boomerang/bookshop';
import type { ElicitResult, InputRequest, InputResponses, Root } from '@boomerang/protocol';
import { PGlite } from '@electric-sql/pglite';
import { type CountingServer, startCountingServer } from '../counting-server.js';
import type { Flow } from '../flow.js';
import { type Connections, createConnections } from '../servers.js';
import { type FlowStore, flowStore } from '../store.js';
import { emptyStore } from './flows.js';

export interface World {
  readonly db: PGlite;
  readonly store: FlowStore;
  readonly bookshop: ListeningBookshop;
  readonly counting: CountingServer;
  readonly connections: Connections;
  readonly roots: readonly Root[];
  reset(): Promise<void>;
  close(): Promise<void>;
}

export const ROOTS: readonly Root[] = [
  { uri: 'file:///srv/shared', name: 'shared' },
  { uri: 'file:///home/alice/books', name: 'books' },
];

export async function startWorld(options: { countingTtlSeconds?: number; countingWorkMs?: number } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'inbox-world-'));
  const db = await PGlite.create(dir);
  const store = flowStore(db);
  await store.ready();
  const bookshop = await listenBookshop({ logger: { warn: () => {} } }, { port: 0, host: '127.0.0.1' });
  const counting = await startCountingServer({
    ...(options.countingTtlSeconds === undefined ? {} : { ttlSeconds: options.countingTtlSeconds }),
    ...(options.countingWorkMs === undefined ? {} : { workMs: options.countingWorkMs }),
  });
  const connections = createConnections(
    { bookshop: bookshop.endpoint.url.href, approvals: counting.url.href },
    { roots: ROOTS },
  );
  const world: World = {
    db,
    store,
    bookshop,
    counting,
    connections,
    roots: ROOTS,
    reset: () => emptyStore(db, store),
    async close() {
      await connections.close();
      await counting.close();
      await bookshop.endpoint.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return world;
}

/** The message of a question (form and URL elicitations), else its method. */
export function messageOf(question: InputRequest): string {
  return question.method === 'elicitation/create' ? question.params.message : question.method;
}

/** Answers each question of the flow's round with the answer picked by its message (a regexp match). */
export function answersFor(flow: Flow, byMessage: [RegExp, ElicitResult | object][]): InputResponses {
  const answers: InputResponses = {};
  for (const [key, question] of Object.entries(flow.continuation?.inputRequests ?? {})) {
    const found = byMessage.find(([pattern]) => pattern.test(messageOf(question)));
    if (found === undefined) throw new Error(`no answer for "${messageOf(question)}"`);
    answers[key] = found[1] as never;
  }
  return answers;
}
