// The whole inbox in one process: the store, the MCP connections, the web page, the resumers and one run of the
// worker. main.ts reads the command line into these options; the browser tests start it the same way.
import { type ListeningBookshop, listenBookshop } from '@boomerang/bookshop';
import type { Root } from '@boomerang/protocol';
import { BOOKSHOP_PLAN } from './bookshop-plan.js';
import { type InboxDatabase, openDatabase } from './database.js';
import type { Flow } from './flow.js';
import { createResumer, type Resumer, type ResumerOptions } from './resumer.js';
import { type Connections, createConnections } from './servers.js';
import { revokedSessions } from './sessions.js';
import { type FlowStore, flowStore } from './store.js';
import { createInboxApp } from './web/app.js';
import { createPeople, type People } from './web/people.js';
import { serve } from './web/serve.js';
import { type Job, runJobs } from './worker.js';

/** Options of {@link startInbox}. */
export interface InboxOptions {
  /** A PostgreSQL server (`postgres://…`); wins over `dataDir`. */
  readonly databaseUrl?: string | undefined;
  /** The PGlite folder (kept); default: a temporary folder removed on close. */
  readonly dataDir?: string | undefined;
  /** The page's port (default 0: a free one) and address (default 127.0.0.1). */
  readonly port?: number;
  readonly host?: string;
  /** MCP servers by name; default: a bookshop served in this process, named `bookshop`. */
  readonly servers?: Readonly<Record<string, string>>;
  /**
   * What the worker calls once started (default: the bookshop plan, when the default bookshop runs and the store
   * has no flow yet, so a restart on the same data does not ask everything again).
   */
  readonly jobs?: readonly Job[];
  /** Who may sign in (default `alice`, `bob`). */
  readonly people?: readonly string[];
  /** Keys of the sign-in links and sessions (default: made for this run). */
  readonly keys?: readonly Uint8Array[];
  /** Roots a person may share. */
  readonly roots?: readonly Root[];
  /** Resumers in this process (default 1). */
  readonly resumers?: number;
  /** How long each round takes answers, in seconds (default 600). */
  readonly roundSeconds?: number;
  /** Tuning of the resumers of this process. */
  readonly resumer?: Pick<ResumerOptions, 'batch' | 'pollMs' | 'leaseMs' | 'timeoutMs'>;
}

/** A running inbox. */
export interface RunningInbox {
  /** Where the page is, e.g. `http://127.0.0.1:4100`. */
  readonly origin: URL;
  readonly store: FlowStore;
  readonly database: InboxDatabase;
  readonly connections: Connections;
  readonly people: People;
  readonly resumers: readonly Resumer[];
  /** The bookshop served in this process, when no server was given. */
  readonly bookshop?: ListeningBookshop;
  /** The flows of the worker's run at start. */
  readonly started: readonly Flow[];
  /** The full sign-in URL of `name`. */
  signInUrl(name: string): string;
  /** Runs more jobs through the worker (default server: the first configured). */
  runJobs(jobs: readonly Job[], options?: { readonly roundSeconds?: number }): Promise<Flow[]>;
  /** Stops the resumers, the page, the connections, the bookshop and the database, in that order. */
  close(): Promise<void>;
}

/** Starts the inbox (see {@link InboxOptions} for every default). */
export async function startInbox(options: InboxOptions = {}): Promise<RunningInbox> {
  const opened: { close(): Promise<void> }[] = [];
  const closeAll = async () => {
    for (const item of opened.reverse()) await item.close().catch(() => {});
  };
  try {
    const database = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir });
    opened.push(database);
    const store = flowStore(database.db);
    await store.ready();
    let bookshop: ListeningBookshop | undefined;
    let servers = options.servers;
    if (servers === undefined || Object.keys(servers).length === 0) {
      const shop = await listenBookshop(
        { logger: { warn: () => {}, error: console.error } },
        { port: 0, host: '127.0.0.1' },
      );
      bookshop = shop;
      opened.push({ close: () => shop.endpoint.close() });
      servers = { bookshop: shop.endpoint.url.href };
    }
    const roots = options.roots ?? [];
    const connections = createConnections(servers, { roots });
    opened.push(connections);
    const people = createPeople({
      names: options.people ?? ['alice', 'bob'],
      ...(options.keys === undefined ? {} : { keys: options.keys }),
      // Sign-outs in the flows' database: every process serving the page from it refuses a signed-out cookie.
      revoked: revokedSessions(database.db),
    });
    const resumers = Array.from({ length: options.resumers ?? 1 }, (_, i) =>
      createResumer({ store, connections, id: `resumer-${i + 1}`, ...options.resumer }),
    );
    const web = await serve(
      (origin) =>
        createInboxApp({
          store,
          people,
          origin,
          roots,
          onAnswered: () => {
            for (const resumer of resumers) resumer.wake();
          },
        }),
      { port: options.port ?? 0, host: options.host ?? '127.0.0.1' },
    );
    opened.push(web);
    for (const resumer of resumers) resumer.start();
    opened.push({ close: async () => void (await Promise.all(resumers.map((r) => r.stop()))) });
    const defaultServer = Object.keys(servers)[0] as string;
    const run = (jobs: readonly Job[], roundSeconds = options.roundSeconds) =>
      runJobs(jobs, {
        store,
        connections,
        server: defaultServer,
        ...(roundSeconds === undefined ? {} : { roundSeconds }),
      });
    let jobs = options.jobs;
    if (jobs === undefined && bookshop !== undefined && (await store.list({ limit: 1 })).length === 0) {
      jobs = BOOKSHOP_PLAN;
    }
    const started = jobs === undefined ? [] : await run(jobs);
    return {
      origin: web.origin,
      store,
      database,
      connections,
      people,
      resumers,
      ...(bookshop === undefined ? {} : { bookshop }),
      started,
      signInUrl: (name) => new URL(people.signInPath(name), web.origin).href,
      runJobs: (more, o) => run(more, o?.roundSeconds),
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
