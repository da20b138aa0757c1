import { Client } from '@boomerang/client';
import { within } from '@boomerang/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundleFixtures, type FixtureBundle } from '../test-fixtures/bundle.js';
import { Processes } from '../test-fixtures/support.js';
import { StdioClientTransport } from './index.js';

// subscriptions/listen over stdio: a child process serving a Server with a notification hub.

let fixtures: FixtureBundle;
const processes = new Processes();
beforeAll(async () => {
  fixtures = await bundleFixtures(['test-fixtures/listen-server.mjs']);
});
afterAll(() => fixtures?.remove());
afterEach(() => processes.stopAll());

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('client.listen() over stdio', () => {
  it('acks, receives, unsubscribes on break (notifications/cancelled), and ends on server.close()', async () => {
    const transport = processes.transport(
      new StdioClientTransport({
        command: process.execPath,
        args: [fixtures.path('listen-server')],
        stderr: 'pipe',
      }),
    );
    const client = new Client({ name: 'stdio-listen-host', version: '1.0.0' });
    await within('connect', client.connect(transport));
    const log: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString('utf8')));

    const first = client.listen({ toolsListChanged: true });
    expect(await within('ack', first.acknowledged)).toEqual({ toolsListChanged: true });
    await within('change', client.callTool('change'));
    for await (const notification of first) {
      expect(notification.method).toBe('notifications/tools/list_changed');
      break;
    }
    await within(
      'unsubscribed',
      waitFor(() => log.join('').includes('unsubscribed')),
    );

    const second = client.listen({ toolsListChanged: true });
    await within('second ack', second.acknowledged);
    await within('end', client.callTool('end'));
    const rest = [];
    for await (const notification of second) rest.push(notification);
    expect(rest).toEqual([]);
    await client.close();
  });
});
