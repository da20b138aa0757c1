import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inputRequired, McpError } from '@boomerang/protocol';
import { createNotificationHub, Server } from '@boomerang/server';
import { connectInMemory, createInMemoryPair } from '@boomerang/transport-memory';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  answer,
  clientFor,
  printRun,
  provision,
  resumePrintRun,
  searchIfSupported,
  start,
  watchTools,
} from './client.examples.js';
import { Client } from './client.js';
import { createMemoryCacheStore } from './index.js';
import { askFor, fakeServer, type Reply, textResult } from './test-support/fake-server.js';

/** The seed's provisioner, stateless: asks for a region, then provisions from what the retry carries. */
const provisioner: Reply = (request) => {
  const { inputResponses, requestState, arguments: args } = request.params;
  if (inputResponses === undefined) {
    return inputRequired({
      inputRequests: { region: askFor('region', 'Which region?') },
      requestState: `v1:${args.name}`,
    });
  }
  return textResult(`${requestState} provisioned in ${inputResponses.region.content.region}`);
};

function serve(reply: Reply) {
  const pair = createInMemoryPair();
  return { transport: pair[0], server: fakeServer(pair[1], reply, { answersProbe: true }) };
}

const dir = await mkdtemp(join(tmpdir(), 'boomerang-client-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('README examples', () => {
  it('automatic loop: provision() answers the question and returns the final result', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { transport, server } = serve(provisioner);
    const result = await provision(transport);
    expect(result.content).toEqual([{ type: 'text', text: 'v1:orders provisioned in eu-west-1' }]);
    expect(log).toHaveBeenCalledWith('tools/call asks (round 1): Which region?');
    expect(server.requests).toHaveLength(2);
    log.mockRestore();
  });

  it('manual loop: start() stores the continuation, answer() resumes it from another client', async () => {
    const file = join(dir, 'pending.json');
    expect(await start(serve(provisioner).transport, file)).toBeUndefined();
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
      version: 1,
      method: 'tools/call',
      params: { name: 'provision', arguments: { name: 'orders' } },
      inputRequests: { region: {} },
      requestState: 'v1:orders',
      round: 1,
    });
    const { transport, server } = serve(provisioner);
    const step = await answer(transport, file, 'us-east-2');
    expect(step).toEqual({ result: textResult('v1:orders provisioned in us-east-2') });
    expect(server.requests[0]?.params).toMatchObject({
      inputResponses: { region: { action: 'accept', content: { region: 'us-east-2' } } },
      requestState: 'v1:orders',
    });
  });

  it('start() returns the result when the server asks nothing', async () => {
    const { transport } = serve(() => textResult('done at once'));
    expect(await start(transport, join(dir, 'unused.json'))).toEqual(textResult('done at once'));
  });

  it('searchIfSupported: calls the vendor method only when the server declared its extension', async () => {
    const discover = (extensions: object) => ({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { extensions },
      ttlMs: 0,
      cacheScope: 'private',
    });
    const search: Reply = (request) =>
      request.method === 'server/discover'
        ? discover({ 'acme/search': {} })
        : { resultType: 'complete', hits: [{ title: `${request.params.query}!`, score: 1 }] };
    const pair = createInMemoryPair();
    const server = fakeServer(pair[1], search);
    expect(await searchIfSupported(pair[0], 'dune')).toEqual(['dune!']);
    expect(server.requests[1]?.params._meta['io.modelcontextprotocol/clientCapabilities']).toEqual({
      extensions: { 'acme/search': {} },
    });
    const without = createInMemoryPair();
    fakeServer(without[1], () => discover({}));
    expect(await searchIfSupported(without[0], 'dune')).toBeUndefined();
  });

  it('printRun stores the task id and returns the task’s result; resumePrintRun waits for it elsewhere', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    /** A print shop whose `print_run` is task T: it asks once, then completes with what the answer said. */
    const printer = (): Reply => {
      let answered: Record<string, unknown> | undefined;
      const task = {
        taskId: 'T',
        createdAt: '2026-07-28T10:00:00Z',
        lastUpdatedAt: '2026-07-28T10:00:00Z',
        ttlMs: 60_000,
        pollIntervalMs: 10,
      };
      return (request) => {
        switch (request.method) {
          case 'tools/call':
            return { ...task, resultType: 'task', status: 'working' };
          case 'tasks/get':
            return answered === undefined
              ? {
                  ...task,
                  resultType: 'complete',
                  status: 'input_required',
                  inputRequests: { '1.proof': askFor('confirm', 'Print 40 copies?') },
                }
              : {
                  ...task,
                  resultType: 'complete',
                  status: 'completed',
                  result: textResult(`Printed: ${JSON.stringify(answered)}`),
                };
          case 'tasks/update':
            answered = request.params.inputResponses['1.proof'].content;
            return { resultType: 'complete' };
          default:
            throw new McpError(-32601, 'Method not found');
        }
      };
    };
    const file = join(dir, 'task-id');
    const first = serve(printer());
    expect((await printRun(first.transport, file)).content).toEqual([
      { type: 'text', text: 'Printed: {"confirm":true}' },
    ]);
    expect(await readFile(file, 'utf8')).toBe('T');
    expect(log).toHaveBeenCalledWith('task T asks: Print 40 copies?');
    const second = serve(printer());
    expect((await resumePrintRun(second.transport, file)).content).toEqual([
      { type: 'text', text: 'Printed: {"confirm":true}' },
    ]);
    expect(second.server.requests.map((r) => r.method)).not.toContain('tools/call');
    log.mockRestore();
  });

  it('the README quotes every region of client.examples.ts verbatim', async () => {
    const source = await readFile(new URL('./client.examples.ts', import.meta.url), 'utf8');
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const regions = [...source.matchAll(/\/\/ #region (\w+)\n([\s\S]*?)\/\/ #endregion \1/g)];
    expect(regions.map((m) => m[1])).toEqual([
      'automatic',
      'manual',
      'extension',
      'listen',
      'cache',
      'tasks',
    ]);
    for (const [, , body] of regions) expect(readme).toContain(body);
  });

  it('watchTools: the cache answers until a list_changed, then the server does', async () => {
    const tools = [{ name: 'a', inputSchema: { type: 'object' as const } }];
    let lists = 0;
    const server = new Server(
      { name: 'catalog', version: '1.0.0' },
      {
        notifications: createNotificationHub(),
        cache: { methods: { 'tools/list': { ttlMs: 60_000, cacheScope: 'public' } } },
        onListTools: () => {
          lists++;
          return { tools };
        },
      },
    );
    const client = new Client({ name: 'host', version: '1.0.0' });
    await using _link = await connectInMemory(client, server);
    await client.listTools(); // cached from here on
    const seen: string[][] = [];
    const watching = watchTools(client, (names) => seen.push(names), new AbortController().signal);
    await vi.waitFor(() => expect(seen).toEqual([['a']]));
    expect(lists).toBe(1);
    tools.push({ name: 'b', inputSchema: { type: 'object' } });
    await server.notifyListChanged('tools');
    await vi.waitFor(() => expect(seen).toEqual([['a'], ['a', 'b']]));
    expect(lists).toBe(2);
    await server.close();
    await watching;
  });

  it('clientFor: users share public results through the store, not private ones', async () => {
    const store = createMemoryCacheStore();
    const reply: Reply = (request) =>
      request.method === 'tools/list'
        ? { resultType: 'complete', tools: [], ttlMs: 60_000, cacheScope: 'public' }
        : { resultType: 'complete', contents: [], ttlMs: 60_000, cacheScope: 'private' };
    const ann = serve(reply);
    const bob = serve(reply);
    const annClient = clientFor('ann', store);
    const bobClient = clientFor('bob', store);
    await annClient.connect(ann.transport);
    await bobClient.connect(bob.transport);
    for (const client of [annClient, bobClient]) {
      await client.listTools();
      await client.readResource('me://inbox');
    }
    expect(bob.server.requests.map((r) => r.method)).toEqual(['resources/read']);
    await annClient.close();
    await bobClient.close();
  });
});
