// A node:http server of your own, quoted by the mounting guide and run by node-http.test.ts.
// #region node-http
import { createServer } from 'node:http';
import { toNodeHandler } from '@boomerang/transport-http/node';
import { createGreeter } from './greeter.examples.mjs';

export const mcp = toNodeHandler(createGreeter(), { path: '/mcp', maxBodyBytes: 1024 * 1024 });

export const server = createServer((req, res) =>
  mcp(req, res, () => {
    // every other path: the rest of your app
    res.writeHead(200, { 'content-type': 'text/plain' }).end('the rest of your app');
  }),
);

/** Stops serving: the 2025-11-25 sessions first (their streams end), then the server. */
export async function stop(): Promise<void> {
  await mcp.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
// #endregion node-http
