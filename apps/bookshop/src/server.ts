#!/usr/bin/env node
// Serves the bookshop on http://127.0.0.1:<port>/mcp (its sign-in page at /sign-in) until SIGINT/SIGTERM.
// Usage: node dist/server.js [--port N] [--data-dir DIR]
// `print_run`'s tasks live in PGlite on disk: in DIR (kept across restarts), or in a temporary folder removed on
// exit.
import { parseArgs } from 'node:util';
import { openTaskStore } from '@boomerang/demo-kit/task-store';
import { createTasks } from '@boomerang/tasks';
import { listenBookshop } from './bookshop.js';

const USAGE =
  'Usage: node apps/bookshop/dist/server.js [--port <n>] [--data-dir <dir>]   (port 0, the default, picks a free one)';

/** The options, or `undefined` when the command line is not one of the usage's. */
function parse(argv: string[]): { port: number; dataDir: string | undefined } | undefined {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { port: { type: 'string', default: '0' }, 'data-dir': { type: 'string' } },
    });
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port >= 65536) return undefined;
    return { port, dataDir: values['data-dir'] };
  } catch {
    return undefined;
  }
}

const cli = parse(process.argv.slice(2));
if (cli === undefined) {
  process.stderr.write(`${USAGE}\n`);
  process.exitCode = 2;
} else {
  const storage = openTaskStore(cli.dataDir);
  const tasks = createTasks({ store: storage.store, pollIntervalMs: 200 });
  const logger = { warn: console.error, error: console.error };
  const { server: mcp, endpoint } = await listenBookshop(
    { logger, tasks },
    { port: cli.port, host: '127.0.0.1' },
  );
  // The first line is the endpoint: `demo.js --spawn` and the tests read it.
  process.stdout.write(`Bookshop MCP server listening on ${endpoint.url.href}\n`);
  process.stdout.write(
    `print_run tasks in ${storage.dataDir} (PGlite; ${storage.temporary ? 'removed on exit' : 'kept'})\n`,
  );
  const stop = async () => {
    await mcp.close();
    await endpoint.close();
    await tasks.close();
    await storage.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
