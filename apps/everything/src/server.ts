// The conformance server: `node dist/server.js --port N [--data-dir DIR]` serves http://127.0.0.1:N/mcp
// (`--port 0`: a free port). Its tasks live in PGlite on disk: in DIR (kept, so a restart on it finds them), or in
// a temporary folder removed when the server stops. Prints `listening on <url>` once it accepts requests; stops
// on SIGTERM / SIGINT.
import { parseArgs } from 'node:util';
import { openTaskStore } from '@boomerang/demo-kit/task-store';
import { listen } from '@boomerang/transport-http/node';
import { createEverythingServer, everythingSkills, everythingTasks } from './everything-server.js';

/** The `--port` argument: a TCP port number, 0 for a free one. */
function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) {
    throw new RangeError(`"--port" expected a port number (0-65535), got ${text}`);
  }
  return port;
}

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, 'data-dir': { type: 'string' } },
});
const port = parsePort(values.port);
const storage = openTaskStore(values['data-dir']);
const tasks = everythingTasks(storage.store);
const mcp = createEverythingServer({ tasks, skills: await everythingSkills() });
// PGlite's start blocks the event loop for seconds on a busy machine: over before the first request comes.
await storage.ready();
const endpoint = await listen(mcp, { port });
console.log(`listening on ${endpoint.url.href}`);
console.log(`tasks in ${storage.dataDir} (PGlite; ${storage.temporary ? 'removed on exit' : 'kept'})`);

const stop = async () => {
  await mcp.close();
  await endpoint.close();
  await tasks.close();
  await storage.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
