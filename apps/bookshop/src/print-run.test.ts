import { Client } from '@boomerang/client';
import type { MessageHandler } from '@boomerang/protocol/transport';
import { createTasks, memoryTaskStore, TASKS_EXTENSION, type Tasks } from '@boomerang/tasks';
import { connectInMemory } from '@boomerang/transport-memory';
import { afterEach, describe, expect, it } from 'vitest';
import { createBookshopServer } from './bookshop.js';

const runtimes: Tasks[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((tasks) => tasks.close()));
});

function shop(batchMs = 1) {
  const tasks = createTasks({ store: memoryTaskStore(), pollIntervalMs: 200 });
  runtimes.push(tasks);
  return createBookshopServer({ tasks, printBatchMs: batchMs, logger: {} });
}

const caps = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };
let nextId = 1;
async function rpc(server: MessageHandler, method: string, params: Record<string, unknown>) {
  const response = (await server.handle({
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': caps,
      },
      ...params,
    },
  })) as { result?: Record<string, unknown>; error?: unknown };
  if (response.result === undefined) throw new Error(`${method}: ${JSON.stringify(response.error)}`);
  return response.result;
}

/** Polls `tasks/get` until `until` holds; collects every status message seen on the way. */
async function poll(
  server: MessageHandler,
  taskId: string,
  until: (task: Record<string, unknown>) => boolean,
) {
  const messages: string[] = [];
  for (let i = 0; i < 500; i++) {
    const task = await rpc(server, 'tasks/get', { taskId });
    const message = task.statusMessage as string | undefined;
    if (message !== undefined && messages.at(-1) !== message) messages.push(message);
    if (until(task)) return { task, messages };
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`task ${taskId} never got there`);
}

async function start(server: MessageHandler, args: Record<string, unknown>) {
  const created = await rpc(server, 'tools/call', { name: 'print_run', arguments: args });
  expect(created).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 200 });
  const taskId = created.taskId as string;
  const { task } = await poll(server, taskId, (t) => t.status === 'input_required');
  const [key] = Object.keys(task.inputRequests as object);
  return { taskId, key: key as string, task };
}

describe('print_run: the long-running tool, as a task', () => {
  it('asks to approve the proof mid-task, prints batch by batch as status messages, and completes', async () => {
    const server = shop(5);
    const { taskId, key, task } = await start(server, { title: 'Dune', copies: 25 });
    expect(task.inputRequests).toEqual({
      [key]: {
        method: 'elicitation/create',
        params: expect.objectContaining({ message: 'The proof of "Dune" is ready. Print 25 copies?' }),
      },
    });
    await rpc(server, 'tasks/update', {
      taskId,
      inputResponses: { [key]: { action: 'accept', content: { confirm: true, paper: 'gloss' } } },
    });
    const done = await poll(server, taskId, (t) => t.status === 'completed');
    expect(done.task.result).toMatchObject({
      content: [{ type: 'text', text: 'Printed 25 copies of "Dune" on gloss paper.' }],
    });
    // Polled every 2 ms while batches take 5: some of the progress shows as the status message.
    expect(done.messages.filter((m) => /^Printed \d+ of 25 copies$/.test(m)).length).toBeGreaterThan(0);
  });

  it('stops at a refused proof, and is an error for a title the shop does not carry', async () => {
    const server = shop();
    const refused = await start(server, { title: 'Dune', copies: 5 });
    await rpc(server, 'tasks/update', {
      taskId: refused.taskId,
      inputResponses: { [refused.key]: { action: 'accept', content: { confirm: false } } },
    });
    expect((await poll(server, refused.taskId, (t) => t.status === 'completed')).task.result).toMatchObject({
      content: [{ text: 'Print run of "Dune" stopped at the proof: nothing printed.' }],
    });
    const unknown = await start(server, { title: 'Ulysses', copies: 1 });
    await rpc(server, 'tasks/update', {
      taskId: unknown.taskId,
      inputResponses: { [unknown.key]: { action: 'accept', content: { confirm: true } } },
    });
    expect((await poll(server, unknown.taskId, (t) => t.status === 'completed')).task.result).toMatchObject({
      isError: true,
      content: [{ text: '"Ulysses" is not in our catalogue.' }],
    });
  });

  it('stops printing when the task is cancelled', async () => {
    const server = shop(50);
    const { taskId, key } = await start(server, { title: 'Dune', copies: 500 });
    await rpc(server, 'tasks/update', {
      taskId,
      inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
    });
    await poll(server, taskId, (t) => t.status === 'working');
    await rpc(server, 'tasks/cancel', { taskId });
    expect((await rpc(server, 'tasks/get', { taskId })).status).toBe('cancelled');
  });

  it('without the extension, the same resolvers ask by ordinary rounds and the call returns the result', async () => {
    const client = new Client(
      { name: 'no-tasks', version: '1.0.0' },
      { elicitation: () => ({ action: 'accept', content: { confirm: true } }) },
    );
    await using _link = await connectInMemory(client, shop());
    const result = await client.callTool('print_run', { title: 'Neuromancer', copies: 12 });
    expect(result.content).toEqual([
      { type: 'text', text: 'Printed 12 copies of "Neuromancer" on matte paper.' },
    ]);
  });

  it('is offered only by a bookshop with a tasks runtime', async () => {
    const client = new Client({ name: 'lister', version: '1.0.0' });
    await using _plain = await connectInMemory(client, createBookshopServer());
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('print_run');
  });
});
