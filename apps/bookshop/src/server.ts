#!/usr/bin/env node
// Serves the bookshop on http://127.0.0.1:<port>/mcp (its sign-in page at /sign-in) until SIGINT/SIGTERM. Usage: node dist/server.js [--port N]
import { listenBookshop } from './bookshop.js';

const USAGE = 'Usage: node apps/bookshop/dist/server.js [--port <n>]   (0, the default, picks a free port)';

function parsePort(argv: readonly string[]): number | undefined {
  if (argv.length === 0) return 0;
  const [flag, inline] = (argv[0] as string).split('=', 2);
  const value = inline ?? argv[1];
  if (flag !== '--port' || value === undefined || argv.length > (inline === undefined ? 2 : 1))
    return undefined;
  const port = Number(value);
  return Number.isInteger(port) && port >= 0 && port < 65536 ? port : undefined;
}

const port = parsePort(process.argv.slice(2));
if (port === undefined) {
  process.stderr.write(`${USAGE}\n`);
  process.exitCode = 2;
} else {
  const logger = { warn: console.error, error: console.error };
  const endpoint = await listenBookshop({ logger }, { port, host: '127.0.0.1' });
  // The first line is the endpoint: `demo.js --spawn` and the tests read it.
  process.stdout.write(`Bookshop MCP server listening on ${endpoint.url.href}\n`);
  const stop = () => {
    void endpoint.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
