// The client side of the extension against its server side: a `Client` with `tasks: true` calling task tools of
// an McpServer, in memory and over HTTP (the handler as the transport's fetch). The wire each client sends is
// recorded, so each test can tell polling from notifications.
import { Client, type ClientOptions, type InputRequestContext, isClientError } from '@boomerang/client';
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { type JSONRPCMessage, McpError } from '@boomerang/protocol';
import type { Transport } from '@boomerang/protocol/transport';
import { type NotificationSource, Server } from '@boomerang/server';
import { createHttpHandler, type FetchLike, StreamableHttpClientTransport } from '@boomerang/transport-http';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { memoryTaskStore } from './memory-store.js';
import { createTasks, type Tasks, type TasksOptions } from './runtime.js';
import type { TaskStore } from './store.js';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

/** What the slow tool saw: whether its round was stopped (a cancelled task aborts its handler). */
const observed = { aborted: 0 };

/**
 * The shop: `print_run` asks mid-task (its resolver), `slow` runs until stopped, `broken` fails with a JSON-RPC
 * error, `greet` is never a task. Tasks live in `store`; the server suggests polling every `pollIntervalMs`.
 */
function shop(options: Partial<TasksOptions> = {}) {
  const tasks = createTasks({ store: memoryTaskStore(), pollIntervalMs: 20, logger: {}, ...options });
  opened.push(tasks);
  const mcp = new McpServer({ name: 'shop', version: '1.0.0' }, { tasks });
  opened.push(mcp);
  const approve = resolver({ args: ['copies'] }, ({ copies }: { copies: number }) =>
    elicit(`Print ${copies} copies?`, z.object({ ok: z.boolean() })),
  );
  mcp.tool(
    'print_run',
    { input: z.object({ copies: z.number() }), task: 'optional', resolve: { approval: approve } },
    ({ copies }, { approval }) => ({
      content: [{ type: 'text', text: approval.ok ? `Printed ${copies}` : 'Not printed' }],
    }),
  );
  mcp.tool('slow', { task: 'required' }, async (_args, _resolved, ctx) => {
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
    observed.aborted++;
    return { content: [{ type: 'text', text: 'stopped (dropped: the task is cancelled)' }] };
  });
  mcp.tool('broken', { task: 'required' }, () => {
    throw new McpError(-32050, 'The press is jammed', { sheet: 12 });
  });
  mcp.tool('greet', {}, () => ({ content: [{ type: 'text', text: 'Hello' }] }));
  return { mcp, tasks };
}

type Served = McpServer | Server;

/** A client end in memory, recording the method of every request it sends. */
async function inMemory(server: Served, seen: string[]): Promise<Transport> {
  const [clientEnd, serverEnd] = createInMemoryPair();
  await server.connect(serverEnd);
  return {
    send: (message: JSONRPCMessage, options) => {
      if ('method' in message && 'id' in message) seen.push(String(message.method));
      return clientEnd.send(message, options);
    },
    messages: clientEnd.messages,
    close: () => clientEnd.close(),
    [Symbol.asyncDispose]: () => clientEnd.close(),
  };
}

/** A client transport over HTTP whose fetch is the server's handler, recording each POST's `Mcp-Method`. */
function overHttp(server: Served, seen: string[]) {
  const handler = createHttpHandler(server);
  const fetch: FetchLike = async (input, init) => {
    const request = new Request(input, init);
    const method = request.headers.get('mcp-method');
    if (method !== null) seen.push(method);
    return handler(request);
  };
  return new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', { fetch, onWarning: () => {} });
}

type Kind = 'memory' | 'HTTP';

/** A connected client of `server` over `kind`, answering every question with `ok` (and recording its context). */
async function connect(kind: Kind, server: Served, options: ClientOptions = {}) {
  const seen: string[] = [];
  const asked: InputRequestContext[] = [];
  const client = new Client(
    { name: 'host', version: '1.0.0' },
    {
      tasks: true,
      elicitation: async (_params, ctx) => {
        asked.push(ctx);
        return { action: 'accept', content: { ok: true } };
      },
      ...options,
    },
  );
  await client.connect(kind === 'memory' ? await inMemory(server, seen) : overHttp(server, seen));
  opened.push(client);
  return { client, seen, asked };
}

const count = (seen: readonly string[], method: string) => seen.filter((m) => m === method).length;

describe.each<Kind>(['memory', 'HTTP'])('Client with tasks: true, %s', (kind) => {
  it('follows a task through notifications/tasks, answering its question through the callback', async () => {
    // Polling every 10 s: the call can only end this soon through the stream.
    const { mcp } = shop({ pollIntervalMs: 10_000 });
    const { client, seen, asked } = await connect(kind, mcp);
    const created: string[] = [];
    const result = await client.callTool(
      'print_run',
      { copies: 3 },
      { onTask: (task) => void created.push(task.taskId) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'Printed 3' }]);
    expect(created).toHaveLength(1);
    expect(asked).toEqual([
      expect.objectContaining({ method: 'tools/call', name: 'print_run', round: 1, taskId: created[0] }),
    ]);
    expect(seen).toContain('subscriptions/listen');
    expect(count(seen, 'tasks/update')).toBe(1);
    // The read right after the stream was agreed (which may already show the question), then one for each change
    // the client acts on (the question, the result): a notification wakes the client, tasks/get tells it what to do.
    expect(count(seen, 'tasks/get')).toBeGreaterThanOrEqual(2);
    expect(count(seen, 'tasks/get')).toBeLessThanOrEqual(3);
  });

  it('polls tasks/get at the server’s interval with tasks: { listen: false }', async () => {
    const { mcp } = shop();
    const { client, seen } = await connect(kind, mcp, { tasks: { listen: false } });
    expect((await client.callTool('print_run', { copies: 2 })).content).toEqual([
      { type: 'text', text: 'Printed 2' },
    ]);
    expect(seen).not.toContain('subscriptions/listen');
    expect(count(seen, 'tasks/get')).toBeGreaterThanOrEqual(2);
    expect(count(seen, 'tasks/update')).toBe(1);
  });

  it('rejects with the task’s JSON-RPC error when it failed', async () => {
    const { mcp } = shop();
    const { client } = await connect(kind, mcp);
    const failure = await client.callTool('broken').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect(failure).toMatchObject({ code: -32050, message: 'The press is jammed', data: { sheet: 12 } });
  });

  it('sends tasks/cancel when the call is aborted, and when it times out', async () => {
    const { mcp } = shop();
    const { client, seen } = await connect(kind, mcp);
    const { client: other } = await connect(kind, mcp);
    const controller = new AbortController();
    const ids: string[] = [];
    const call = client.callTool(
      'slow',
      {},
      {
        signal: controller.signal,
        onTask: (task) => {
          ids.push(task.taskId);
          setTimeout(() => controller.abort(new Error('user gave up')), 30);
        },
      },
    );
    await expect(call).rejects.toThrow('user gave up');
    await vi.waitFor(async () => expect((await other.tasks.get(ids[0] as string)).status).toBe('cancelled'));
    expect(seen).toContain('tasks/cancel');
    const timedOut = await client
      .callTool('slow', {}, { timeoutMs: 50, onTask: (task) => void ids.push(task.taskId) })
      .catch((error: unknown) => error);
    expect(isClientError(timedOut, 'timeout')).toBe(true);
    await vi.waitFor(async () => expect((await other.tasks.get(ids[1] as string)).status).toBe('cancelled'));
    await vi.waitFor(() => expect(observed.aborted).toBeGreaterThanOrEqual(2));
  });

  it('rejects with task-cancelled when another client cancels the task', async () => {
    const { mcp } = shop();
    const { client } = await connect(kind, mcp);
    const { client: other } = await connect(kind, mcp);
    const failure = await client
      .callTool('slow', {}, { onTask: (task) => void other.tasks.cancel(task.taskId) })
      .catch((error: unknown) => error);
    expect(isClientError(failure, 'task-cancelled')).toBe(true);
    expect((failure as Error).message).toMatch(
      /^Task \S+ of tools\/call "slow" was cancelled before it completed \(Cancelled by the client\)$/,
    );
  });

  it('a host that restarts: onTask hands out the id, a second client waits for the result with tasks.result', async () => {
    const { mcp } = shop();
    const stored: string[] = [];
    const { client: first } = await connect(kind, mcp, {
      onTask: (task) => void stored.push(task.taskId),
      // The first process dies before the user answers.
      elicitation: () => {
        throw new Error('process exited');
      },
    });
    const died = await first.callTool('print_run', { copies: 5 }).catch((error: unknown) => error);
    expect(isClientError(died, 'callback-failed')).toBe(true);
    expect((died as { taskId?: string }).taskId).toBe(stored[0]);
    await first.close();

    const { client: second, asked } = await connect(kind, mcp);
    const taskId = stored[0] as string;
    const waiting = await second.tasks.get(taskId);
    expect(waiting).toMatchObject({ taskId, status: 'input_required' });
    const result = await second.tasks.result(taskId);
    expect(result.content).toEqual([{ type: 'text', text: 'Printed 5' }]);
    expect(asked).toEqual([expect.objectContaining({ method: 'tools/call', taskId, round: 1 })]);
    expect(await second.tasks.get(taskId)).toMatchObject({ status: 'completed' });
  });

  it('by hand: tasks.get shows the question, tasks.update answers it, tasks.result reads the result', async () => {
    const { mcp } = shop();
    const stored: string[] = [];
    const { client: first } = await connect(kind, mcp, {
      onTask: (task) => {
        stored.push(task.taskId);
        throw new Error('no room to store it');
      },
    });
    const refused = await first.callTool('print_run', { copies: 1 }).catch((error: unknown) => error);
    expect(isClientError(refused, 'callback-failed')).toBe(true);
    expect((refused as Error).message).toMatch(/onTask hook threw .* the task was cancelled$/);
    const { client } = await connect(kind, mcp, { elicitation: undefined, tasks: { listen: false } });
    await vi.waitFor(async () =>
      expect((await client.tasks.get(stored[0] as string)).status).toBe('cancelled'),
    );

    const ids: string[] = [];
    const owner = await connect(kind, mcp, {
      onTask: (task) => void ids.push(task.taskId),
      elicitation: () => new Promise(() => {}), // nobody answers here
    });
    void owner.client.callTool('print_run', { copies: 7 }).catch(() => {});
    await vi.waitFor(() => expect(ids).toHaveLength(1));
    const taskId = ids[0] as string;
    let task = await client.tasks.get(taskId);
    await vi.waitFor(async () => {
      task = await client.tasks.get(taskId);
      expect(task.status).toBe('input_required');
    });
    const [key] = Object.keys(task.status === 'input_required' ? task.inputRequests : {});
    await client.tasks.update(taskId, { [key as string]: { action: 'accept', content: { ok: false } } });
    expect((await client.tasks.result(taskId)).content).toEqual([{ type: 'text', text: 'Not printed' }]);
    await expect(client.tasks.get('f'.repeat(43))).rejects.toMatchObject({
      code: -32602,
      message: 'Failed to retrieve task: Task not found',
    });
    await expect(client.tasks.cancel('')).rejects.toThrow(TypeError);
  });

  it('without tasks the same tool asks by ordinary rounds; a required task tool is -32021', async () => {
    const { mcp } = shop();
    const { client, seen } = await connect(kind, mcp, { tasks: false });
    expect((await client.callTool('print_run', { copies: 4 })).content).toEqual([
      { type: 'text', text: 'Printed 4' },
    ]);
    expect(seen.filter((m) => m.startsWith('tasks/'))).toEqual([]);
    await expect(client.callTool('slow')).rejects.toMatchObject({ code: -32021 });
    await expect(client.tasks.get('x')).rejects.toMatchObject({ code: -32021 });
  });

  it('a tool that is no task answers as usual', async () => {
    const { mcp } = shop();
    const { client } = await connect(kind, mcp);
    expect((await client.callTool('greet')).content).toEqual([{ type: 'text', text: 'Hello' }]);
  });
});

describe('Client with tasks: true against a server without subscriptions/listen', () => {
  /** A low-level Server with the tasks extension and no notification source: listen is -32601. */
  function plain(store: TaskStore = memoryTaskStore(), source?: NotificationSource) {
    const tasks: Tasks = createTasks({ store, pollIntervalMs: 15, logger: {} });
    opened.push(tasks);
    const server = new Server(
      { name: 'plain', version: '1.0.0' },
      {
        ...(source === undefined ? {} : { notifications: source }),
        extensions: [tasks.extension],
        onCallTool: tasks.wrapCallTool(
          async (params) => ({ content: [{ type: 'text', text: `done ${String(params.arguments?.n)}` }] }),
          { job: 'required' },
        ),
      },
    );
    opened.push(server);
    return server;
  }

  it('polls instead, and does not try to listen again on that connection', async () => {
    const { client, seen } = await connect('memory', plain());
    expect((await client.callTool('job', { n: 1 })).content).toEqual([{ type: 'text', text: 'done 1' }]);
    expect((await client.callTool('job', { n: 2 })).content).toEqual([{ type: 'text', text: 'done 2' }]);
    expect(count(seen, 'subscriptions/listen')).toBe(1);
    expect(count(seen, 'tasks/get')).toBeGreaterThanOrEqual(2);
  });
});
