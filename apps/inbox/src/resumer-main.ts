#!/usr/bin/env node
// A resumer on its own, for deployments with several: it shares the flows through PostgreSQL (DATABASE_URL) with
// the inbox's page and with the other resumers, and resumes each answered flow it claims. Until SIGINT/SIGTERM,
// or until idle for --exit-when-idle ms. Prints `<id> ready` once polling, and its counts as JSON when it stops.
import { parseArgs } from 'node:util';
import { parseRoots, parseServers, positiveInt, UsageError } from './cli.js';
import { openDatabase } from './database.js';
import { createResumer } from './resumer.js';
import { createConnections } from './servers.js';
import { flowStore } from './store.js';

const USAGE = `Usage: DATABASE_URL=postgres://… node apps/inbox/dist/resumer.js --server <name=url> [options]
  --server <name=url>     an MCP server its flows name (repeatable, at least one)
  --id <name>             its name in the store (default: resumer- and a random suffix)
  --batch <n>             flows claimed and resumed at a time (default 8)
  --poll-ms <n>           wait between empty polls (default 250)
  --root <uri|path>       roots the inbox offers (repeatable; same as the inbox's, default the working directory)
  --exit-when-idle <ms>   stop once nothing was claimed for this long (batch runs, tests, benchmarks)
PGlite keeps its folder to one process: resumers of their own need PostgreSQL.`;

let config: {
  databaseUrl: string;
  servers: Record<string, string>;
  id: string | undefined;
  batch: number;
  pollMs: number;
  roots: ReturnType<typeof parseRoots>;
  idleMs: number | undefined;
};
try {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      server: { type: 'string', multiple: true },
      id: { type: 'string' },
      batch: { type: 'string' },
      'poll-ms': { type: 'string' },
      root: { type: 'string', multiple: true },
      'exit-when-idle': { type: 'string' },
    },
    strict: true,
  });
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl === undefined || databaseUrl === '') throw new UsageError('DATABASE_URL is not set');
  const servers = parseServers(values.server ?? []);
  if (Object.keys(servers).length === 0) throw new UsageError('--server is required');
  config = {
    databaseUrl,
    servers,
    id: values.id,
    batch: positiveInt(values.batch, '--batch', 8),
    pollMs: positiveInt(values['poll-ms'], '--poll-ms', 250),
    roots: parseRoots(values.root ?? []),
    idleMs:
      values['exit-when-idle'] === undefined
        ? undefined
        : positiveInt(values['exit-when-idle'], '--exit-when-idle', 1),
  };
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
  process.exit(2);
}

const database = await openDatabase({ databaseUrl: config.databaseUrl, poolSize: config.batch + 2 });
const store = flowStore(database.db);
await store.ready();
const connections = createConnections(config.servers, { roots: config.roots });
let lastClaim = Date.now();
const resumer = createResumer({
  store,
  connections,
  batch: config.batch,
  pollMs: config.pollMs,
  ...(config.id === undefined ? {} : { id: config.id }),
  onResumed: () => {
    lastClaim = Date.now();
  },
});
resumer.start();
process.stdout.write(`${resumer.id} ready\n`);

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  clearInterval(idle);
  await resumer.stop();
  await connections.close();
  await database.close();
  process.stdout.write(`${JSON.stringify({ id: resumer.id, ...resumer.stats })}\n`);
  process.exit(code);
}
const idle = setInterval(() => {
  if (config.idleMs !== undefined && Date.now() - lastClaim >= config.idleMs) void stop(0);
}, 50);
process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));
