// McpServer with the tasks runtime: `task` on a tool, resolvers asking through the task, `askFirst`.
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { memoryTaskStore } from './memory-store.js';
import { createTasks, type Tasks } from './runtime.js';
import { errorOf, listen, pollTask, resultOf, rpc } from './test-support/wire.js';

const opened: Tasks[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((t) => t.close()));
});

function shop(store = memoryTaskStore()) {
  const tasks = createTasks({ store });
  opened.push(tasks);
  const mcp = new McpServer({ name: 'shop', version: '1.0.0' }, { tasks });
  const approve = resolver({ args: ['copies'] }, ({ copies }: { copies: number }) =>
    elicit(`Print ${copies} copies?`, z.object({ ok: z.boolean() })),
  );
  const askName = resolver({}, () => elicit('Your name?', z.object({ name: z.string() })));
  mcp.tool(
    'print_run',
    { input: z.object({ copies: z.number() }), task: 'optional', resolve: { approval: approve } },
    ({ copies }, { approval }) => ({
      content: [{ type: 'text', text: approval.ok ? `Printed ${copies}` : 'Not printed' }],
    }),
  );
  mcp.tool(
    'greet_later',
    {
      task: { support: 'required', askFirst: ['who'] },
      resolve: { who: askName, approval: approve },
      input: z.object({ copies: z.number() }),
    },
    (_args, { who, approval }) => ({
      content: [{ type: 'text', text: `Hello ${who.name} (${approval.ok})` }],
    }),
  );
  return { mcp, tasks };
}

describe('McpServer with tasks', () => {
  it('answers a call whose arguments do not validate at once with the isError result: no task is stored', async () => {
    const store = memoryTaskStore();
    const create = vi.spyOn(store, 'create');
    const { mcp } = shop(store);
    const junk = 'x'.repeat(512 * 1024);
    const answered = resultOf(
      await rpc(mcp, 'tools/call', { name: 'print_run', arguments: { copies: 'three', junk } }),
    );
    expect(answered.resultType).toBe('complete');
    expect(answered.isError).toBe(true);
    expect(JSON.stringify(answered.content)).toContain("Invalid arguments for tool 'print_run'");
    expect(create).not.toHaveBeenCalled();
    // Valid arguments still become a task.
    const created = resultOf(await rpc(mcp, 'tools/call', { name: 'print_run', arguments: { copies: 2 } }));
    expect(created.resultType).toBe('task');
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('runs a task tool in the background; its resolver asks through tasks/get and tasks/update', async () => {
    const { mcp } = shop();
    const created = resultOf(await rpc(mcp, 'tools/call', { name: 'print_run', arguments: { copies: 3 } }));
    expect(created.resultType).toBe('task');
    const taskId = created.taskId as string;
    const waiting = await pollTask(mcp, taskId, (t) => t.status === 'input_required');
    const [key] = Object.keys(waiting.inputRequests as object);
    expect(waiting.inputRequests).toMatchObject({
      [key as string]: { method: 'elicitation/create', params: { message: 'Print 3 copies?' } },
    });
    await rpc(mcp, 'tasks/update', {
      taskId,
      inputResponses: { [key as string]: { action: 'accept', content: { ok: true } } },
    });
    expect(await pollTask(mcp, taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'Printed 3' }] },
    });
  });

  it('streams notifications/tasks through its own notification source', async () => {
    const { mcp } = shop();
    const created = resultOf(await rpc(mcp, 'tools/call', { name: 'print_run', arguments: { copies: 2 } }));
    const taskId = created.taskId as string;
    const waiting = await pollTask(mcp, taskId, (t) => t.status === 'input_required');
    const stream = listen(mcp, { taskIds: [taskId] });
    expect(await stream.ack).toEqual({ taskIds: [taskId] });
    const [key] = Object.keys(waiting.inputRequests as object);
    await rpc(mcp, 'tasks/update', {
      taskId,
      inputResponses: { [key as string]: { action: 'accept', content: { ok: true } } },
    });
    await vi.waitFor(() =>
      expect(stream.sent.map((n) => n.params?.status)).toEqual(['working', 'completed']),
    );
    await mcp.close();
  });

  it('without the extension an optional tool asks by ordinary rounds, a required one is -32021', async () => {
    const { mcp } = shop();
    const caps = { elicitation: { form: {} } };
    const round = resultOf(
      await rpc(mcp, 'tools/call', { name: 'print_run', arguments: { copies: 1 } }, { caps }),
    );
    expect(round.resultType).toBe('input_required');
    expect(
      errorOf(await rpc(mcp, 'tools/call', { name: 'greet_later', arguments: { copies: 1 } }, { caps })).code,
    ).toBe(-32021);
  });

  it('askFirst: the named resolver asks on the request, then the task asks the rest', async () => {
    const { mcp } = shop();
    const first = resultOf(await rpc(mcp, 'tools/call', { name: 'greet_later', arguments: { copies: 2 } }));
    expect(first.resultType).toBe('input_required');
    expect(first).not.toHaveProperty('taskId');
    const [key] = Object.keys(first.inputRequests as object);
    const created = resultOf(
      await rpc(mcp, 'tools/call', {
        name: 'greet_later',
        arguments: { copies: 2 },
        inputResponses: { [key as string]: { action: 'accept', content: { name: 'Alice' } } },
        requestState: first.requestState,
      }),
    );
    expect(created.resultType).toBe('task');
    expect(created).not.toHaveProperty('requestState');
    const taskId = created.taskId as string;
    const waiting = await pollTask(mcp, taskId, (t) => t.status === 'input_required');
    const keys = Object.keys(waiting.inputRequests as object);
    expect(keys).toHaveLength(1);
    expect(
      (waiting.inputRequests as Record<string, { params: { message: string } }>)[keys[0] as string]?.params
        .message,
    ).toBe('Print 2 copies?');
    await rpc(mcp, 'tasks/update', {
      taskId,
      inputResponses: { [keys[0] as string]: { action: 'accept', content: { ok: false } } },
    });
    expect(await pollTask(mcp, taskId)).toMatchObject({
      result: { content: [{ text: 'Hello Alice (false)' }] },
    });
  });

  it('a tool with `task` needs the tasks option; bad task settings throw TypeError', () => {
    const mcp = new McpServer({ name: 'plain', version: '1.0.0' });
    expect(() => mcp.tool('t', { task: 'optional' }, () => ({ content: [] }))).toThrow(
      /needs the "tasks" option/,
    );
    const { mcp: withTasks } = shop();
    expect(() => withTasks.tool('u', { task: 'always' as never }, () => ({ content: [] }))).toThrow(
      TypeError,
    );
    expect(() =>
      withTasks.tool('v', { task: { support: 'optional', askFirst: ['nope'] } }, () => ({ content: [] })),
    ).toThrow(/askFirst/);
    expect(() => new McpServer({ name: 'x', version: '1' }, { tasks: {} as never })).toThrow(TypeError);
  });
});
