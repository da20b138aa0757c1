import { Client, isClientError } from '@boomerang/client';
import { within } from '@boomerang/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundleFixtures, type FixtureBundle } from '../test-fixtures/bundle.js';
import { Processes } from '../test-fixtures/support.js';
import { StdioClientTransport } from './index.js';

// @boomerang/client → StdioClientTransport → a child process running @boomerang/server on StdioServerTransport.

let fixtures: FixtureBundle;
const processes = new Processes();
beforeAll(async () => {
  fixtures = await bundleFixtures(['test-fixtures/mcp-server.mjs']);
});
afterAll(() => fixtures?.remove());
afterEach(() => processes.stopAll());

async function connect(
  stderr: 'ignore' | 'pipe' = 'ignore',
): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = processes.transport(
    new StdioClientTransport({ command: process.execPath, args: [fixtures.path('mcp-server')], stderr }),
  );
  const client = new Client({ name: 'stdio-e2e-host', version: '1.0.0' });
  await within('connect', client.connect(transport));
  return { client, transport };
}

describe('Client and Server over stdio', () => {
  it('lists and calls a tool, then shuts the server down cleanly', async () => {
    const { client, transport } = await connect();
    expect((await within('tools/list', client.listTools())).tools.map((tool) => tool.name)).toEqual([
      'echo',
      'slow',
      'crash',
    ]);
    const result = await within('tools/call', client.callTool('echo', { text: 'hello over stdio' }));
    expect(result.content).toEqual([{ type: 'text', text: 'hello over stdio' }]);
    await within('close', client.close());
    expect(transport.exit).toEqual({ code: 0, signal: null });
  });

  it('aborting a call sends notifications/cancelled, which stops the handler in the server process', async () => {
    const { client, transport } = await connect('pipe');
    const log: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString('utf8')));
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the request is in flight
    controller.abort(new Error('user cancelled'));
    expect(await call).toMatchObject({ message: 'user cancelled' });
    await within(
      'the server logs the cancellation',
      waitFor(() => log.join('').includes('slow was cancelled')),
    );
    const result = await within('the next call', client.callTool('echo', { text: 'still serving' }));
    expect(result.content).toEqual([{ type: 'text', text: 'still serving' }]);
    await client.close();
  });

  it('a server that dies fails every call in flight at once; a new transport restarts it', async () => {
    const { client, transport } = await connect();
    const inFlight = [1, 2, 3].map(() => client.callTool('slow', {}).catch((error: unknown) => error));
    const crash = client.callTool('crash', {}).catch((error: unknown) => error);
    const errors = await within('every call fails', Promise.all([...inFlight, crash]));
    for (const error of errors) expect(isClientError(error, 'closed')).toBe(true);
    expect(transport.exit).toEqual({ code: 3, signal: null });
    await client.close();

    const restarted = await connect();
    const result = await within('call after restart', restarted.client.callTool('echo', { text: 'again' }));
    expect(result.content).toEqual([{ type: 'text', text: 'again' }]);
    await restarted.client.close();
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}
