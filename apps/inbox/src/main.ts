#!/usr/bin/env node
// The inbox: the page, the resumers and one run of the worker, in one process, until SIGINT/SIGTERM.
// Usage: see USAGE.
import { parseArgs } from 'node:util';
import { parseRoots, parseServers, positiveInt, readJobs, secretKeys, UsageError } from './cli.js';
import { type InboxOptions, startInbox } from './inbox.js';

const USAGE = `Usage: node apps/inbox/dist/main.js [options]
  --port <n>            the page's port on 127.0.0.1 (default 4100; 0 picks a free one)
  --data-dir <dir>      keep the flows in PGlite in this folder (default: a temporary folder, removed on exit)
  --server <name=url>   an MCP server the worker calls (repeatable; default: a bookshop served in this process)
  --jobs <file>         the worker's calls: a JSON list of { tool, arguments?, server?, answerers?, roundSeconds?,
                        note? } (default: one call of each kind of question, on the default bookshop)
  --people <a,b,…>      who may sign in (default alice,bob); a sign-in link for each is printed
  --root <uri|path>     a root a person may share when a server asks (repeatable; default: the working directory)
  --resumers <n>        resumers in this process (default 1; 0 when resumers run elsewhere: dist/resumer.js)
  --round-seconds <n>   how long each round takes answers (default 600)
Environment: DATABASE_URL=postgres://… keeps the flows in PostgreSQL instead (several processes may share it);
INBOX_SECRET=<key,…> (hex or base64url, ≥ 32 bytes) keeps sign-in links and sessions valid across restarts.`;

function options(argv: string[]): InboxOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      server: { type: 'string', multiple: true },
      jobs: { type: 'string' },
      people: { type: 'string' },
      root: { type: 'string', multiple: true },
      resumers: { type: 'string' },
      'round-seconds': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help === true) throw new UsageError('');
  const port = positiveInt(values.port, '--port', 4100, true);
  if (port > 65_535) throw new UsageError(`--port expected 0–65535, got ${port}`);
  const servers = parseServers(values.server ?? []);
  const keys = secretKeys();
  return {
    port,
    dataDir: values['data-dir'],
    databaseUrl: process.env.DATABASE_URL,
    ...(Object.keys(servers).length > 0 ? { servers } : {}),
    ...(values.jobs === undefined ? {} : { jobs: readJobs(values.jobs) }),
    people: (values.people ?? 'alice,bob')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
    roots: parseRoots(values.root ?? []),
    resumers: positiveInt(values.resumers, '--resumers', 1, true),
    roundSeconds: positiveInt(values['round-seconds'], '--round-seconds', 600),
    ...(keys === undefined ? {} : { keys }),
  };
}

let parsed: InboxOptions;
try {
  parsed = options(process.argv.slice(2));
} catch (error) {
  const message = error instanceof UsageError || error instanceof TypeError ? error.message : String(error);
  process.stderr.write(`${message === '' ? '' : `${message}\n`}${USAGE}\n`);
  process.exit(message === '' ? 0 : 2);
}

try {
  const inbox = await startInbox(parsed);
  const { database } = inbox;
  const out = (line: string) => process.stdout.write(`${line}\n`);
  // The first line is the page: the tests read it.
  out(`Boomerang inbox on ${inbox.origin.href}`);
  out(
    `Flows in ${database.kind === 'pglite' ? `PGlite at ${database.where}${database.temporary ? ' (removed on exit)' : ''}` : `PostgreSQL at ${database.where}`}`,
  );
  for (const [name, url] of Object.entries(inbox.connections.servers)) {
    out(
      `MCP server ${name}: ${url}${inbox.bookshop === undefined ? '' : ' (the bookshop, in this process)'}`,
    );
  }
  const byStatus = new Map<string, number>();
  for (const flow of inbox.started) byStatus.set(flow.status, (byStatus.get(flow.status) ?? 0) + 1);
  out(
    inbox.started.length === 0
      ? `Worker: nothing to call${inbox.bookshop === undefined ? '' : ' (the store already has flows)'}; --jobs FILE gives it calls`
      : `Worker: ${inbox.started.length} calls → ${[...byStatus].map(([status, n]) => `${n} ${status}`).join(', ')}`,
  );
  out(`Resumers here: ${inbox.resumers.length}`);
  for (const name of inbox.people.names) out(`Sign in as ${name}: ${inbox.signInUrl(name)}`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await inbox.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  process.stderr.write(
    `The inbox could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
