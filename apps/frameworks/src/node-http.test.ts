// A node:http server of the test's own: the recipe of node-http.examples.ts through the mount suite.
import { server, stop } from './node-http.examples.js';
import { mountSuite } from './test-support/mount-suite.js';
import { onSocket } from './test-support/sockets.js';

mountSuite(
  'node:http: createServer((req, res) => mcp(req, res, next))',
  () => onSocket(server, '/mcp', stop),
  { maxBodyBytes: 1024 * 1024, other: { path: '/health', body: 'the rest of your app' } },
);
