#!/usr/bin/env node
// The worker on its own: runs a list of tool calls once, parks every question in the store, prints each flow,
// and exits. With DATABASE_URL the flows go to PostgreSQL (where the inbox's page and resumers find them); with
// --data-dir to a PGlite folder no other process has open.
import { parseArgs } from 'node:util';
import { parseRoots, parseServers, positiveInt, readJobs, UsageError } from './cli.js';
import { openDatabase } from './database.js';
import { createConnections } from './servers.js';
import { flowStore } from './store.js';
import { type Job, runJobs } from './worker.js';

const USAGE = `Usage: node apps/inbox/dist/worker.js --server <name=url> --jobs <file> [options]
  --server <name=url>    an MCP server (repeatable; jobs without "server" use the first)
  --jobs <file>          a JSON list of { tool, arguments?, server?, answerers?, roundSeconds?, note? }
  --round-seconds <n>    how long each round takes answers (default 600)
  --root <uri|path>      roots the inbox offers (repeatable; decides whether the roots capability is declared)
  --data-dir <dir>       a PGlite folder (when DATABASE_URL is not set; no other process may have it open)`;

let config: {
  servers: Record<string, string>;
  jobs: Job[];
  roundSeconds: number;
  roots: ReturnType<typeof parseRoots>;
  dataDir: string | undefined;
};
try {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      server: { type: 'string', multiple: true },
      jobs: { type: 'string' },
      'round-seconds': { type: 'string' },
      root: { type: 'string', multiple: true },
      'data-dir': { type: 'string' },
    },
    strict: true,
  });
  const servers = parseServers(values.server ?? []);
  if (Object.keys(servers).length === 0) throw new UsageError('--server is required');
  if (values.jobs === undefined) throw new UsageError('--jobs is required');
  if ((process.env.DATABASE_URL ?? '') === '' && values['data-dir'] === undefined) {
    throw new UsageError('set DATABASE_URL or --data-dir: a temporary folder would lose the flows');
  }
  config = {
    servers,
    jobs: readJobs(values.jobs),
    roundSeconds: positiveInt(values['round-seconds'], '--round-seconds', 600),
    roots: parseRoots(values.root ?? []),
    dataDir: values['data-dir'],
  };
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
  process.exit(2);
}

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: config.dataDir });
const connections = createConnections(config.servers, { roots: config.roots });
try {
  const flows = await runJobs(config.jobs, {
    store: flowStore(database.db),
    connections,
    server: Object.keys(config.servers)[0] as string,
    roundSeconds: config.roundSeconds,
  });
  for (const flow of flows) {
    process.stdout.write(
      `${JSON.stringify({ id: flow.id, tool: flow.tool, status: flow.status, round: flow.round, error: flow.error })}\n`,
    );
  }
} finally {
  await connections.close();
  await database.close();
}
