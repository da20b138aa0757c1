import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { correlate } from '@boomerang/client';
import { requestTransportSuite, serveOverStream, streamTransportSuite, within } from '@boomerang/test-kit';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { bundleFixtures, type FixtureBundle } from '../test-fixtures/bundle.js';
import { Processes } from '../test-fixtures/support.js';
import { StdioClientTransport, StdioServerTransport } from './index.js';

// The transport suites over a real stdio link. The client end is a StdioClientTransport; it spawns the relay
// fixture, which serves a StdioServerTransport on its stdin/stdout and relays to the test process over TCP, where
// the suite's server end is a StdioServerTransport on the accepted socket. Every message crosses both transports
// and a process boundary; a close on either end reaches the other through EOF (stdin, stdout or the socket).
// The stream contract runs on the pair; the client's contract on the client end through the correlator.

let fixtures: FixtureBundle;
const processes = new Processes();
beforeAll(async () => {
  fixtures = await bundleFixtures(['test-fixtures/relay.mjs']);
});
afterAll(() => fixtures?.remove());
afterEach(() => processes.stopAll());

async function makePair(): Promise<readonly [StdioClientTransport, StdioServerTransport]> {
  const listener = createServer();
  listener.listen(0, '127.0.0.1');
  await once(listener, 'listening');
  const { port } = listener.address() as { port: number };
  const accepted = once(listener, 'connection') as Promise<[Socket]>;
  const client = processes.transport(
    new StdioClientTransport({ command: process.execPath, args: [fixtures.path('relay'), String(port)] }),
  );
  await client.start();
  const [socket] = await within('the relay connects', accepted);
  listener.close();
  return [client, new StdioServerTransport({ stdin: socket, stdout: socket })];
}

streamTransportSuite('stdio (child process ↔ StdioServerTransport)', makePair);

requestTransportSuite('stdio (child process ↔ StdioServerTransport), correlated', async (handler) => {
  const [client, server] = await makePair();
  serveOverStream(server, handler);
  return correlate(client);
});
