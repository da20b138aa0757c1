// The conformance server: `node dist/server.js --port N` serves http://127.0.0.1:N/mcp (`--port 0`: a free
// port). Prints `listening on <url>` once it accepts requests; stops on SIGTERM / SIGINT.
import { listen } from '@boomerang/transport-http/node';
import { createEverythingServer } from './everything-server.js';

/** The `--port` argument: a TCP port number, 0 for a free one. */
function parsePort(argv: readonly string[]): number {
  const index = argv.indexOf('--port');
  const text = index === -1 ? '0' : argv[index + 1];
  const port = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || port > 65_535) {
    throw new RangeError(`"--port" expected a port number (0-65535), got ${text}`);
  }
  return port;
}

const endpoint = await listen(createEverythingServer(), { port: parsePort(process.argv.slice(2)) });
console.log(`listening on ${endpoint.url.href}`);

const stop = async () => {
  await endpoint.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
