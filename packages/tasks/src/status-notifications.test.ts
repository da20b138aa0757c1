import { elicitRequest, inputRequired } from '@boomerang/protocol';
import {
  createNotificationHub,
  type NotificationSource,
  type RequestContext,
  Server,
} from '@boomerang/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryTaskStore } from './memory-store.js';
import { createTasks, type Tasks } from './runtime.js';
import { TASKS_EXTENSION } from './schema.js';
import { MAX_LISTEN_TASK_IDS } from './status-notifications.js';
import type { TaskStore } from './store.js';
import { errorOf, listen, pollTask, resultOf, rpc } from './test-support/wire.js';

const alice = { token: 'a', issuer: 'https://as', clientId: 'c', subject: 'alice' };
const mallory = { token: 'm', issuer: 'https://as', clientId: 'c', subject: 'mallory' };
const ask = elicitRequest({ message: 'Go on?', requestedSchema: { type: 'object', properties: {} } });

/**
 * A server whose `gated` tool waits for `release()`, then asks once and finishes with the answer's action;
 * `slow` never finishes. Both run as tasks.
 */
function setup(source: NotificationSource = createNotificationHub(), store: TaskStore = memoryTaskStore()) {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tasks = createTasks({ store, logger: { warn: vi.fn(), error: vi.fn() } });
  opened.push(tasks);
  const server = new Server(
    { name: 'notifying', version: '1.0.0' },
    {
      notifications: source,
      extensions: [tasks.extension],
      onCallTool: tasks.wrapCallTool(
        async (params, ctx: RequestContext) => {
          if (params.name === 'slow') return new Promise(() => {});
          await gate;
          const answer = ctx.inputResponses?.go as { action?: string } | undefined;
          if (answer === undefined) return inputRequired({ inputRequests: { go: ask } });
          return { content: [{ type: 'text', text: `answer: ${answer.action}` }] };
        },
        { gated: 'required', slow: 'required' },
      ),
    },
  );
  servers.push(server);
  return { server, tasks, release };
}

const opened: Tasks[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(opened.splice(0).map((t) => t.close()));
});

async function create(server: Server, name: string, auth = alice): Promise<string> {
  const created = resultOf(await rpc(server, 'tools/call', { name, arguments: {} }, { auth }));
  return created.taskId as string;
}

/** `tasks/get`'s answer as a notification carries it: without `resultType` and the result `_meta`. */
async function current(server: Server, taskId: string) {
  const {
    resultType: _type,
    _meta: _m,
    ...task
  } = resultOf(await rpc(server, 'tasks/get', { taskId }, { auth: alice }));
  return task;
}

describe('notifications/tasks on subscriptions/listen', () => {
  it('streams each change of the owner’s task as the DetailedTask tasks/get shows at that moment', async () => {
    const { server, release } = setup();
    const taskId = await create(server, 'gated');
    const stream = listen(server, { taskIds: [taskId] }, { auth: alice });
    expect(await stream.ack).toEqual({ taskIds: [taskId] });
    release();
    await vi.waitFor(() => expect(stream.sent).toHaveLength(1));
    expect(stream.sent[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: { ...(await current(server, taskId)), _meta: expect.any(Object) },
    });
    expect(stream.sent[0]?.params).toMatchObject({ taskId, status: 'input_required' });
    expect(Object.keys(stream.sent[0]?.params?.inputRequests as object)).toEqual(['1.go']);

    await rpc(
      server,
      'tasks/update',
      { taskId, inputResponses: { '1.go': { action: 'accept', content: {} } } },
      { auth: alice },
    );
    await vi.waitFor(() => expect(stream.sent.at(-1)?.params?.status).toBe('completed'));
    expect(stream.sent.map((n) => n.params?.status)).toEqual(['input_required', 'working', 'completed']);
    const { _meta, ...last } = stream.sent.at(-1)?.params ?? {};
    expect(last).toEqual(await current(server, taskId));
    expect(last).toMatchObject({ result: { content: [{ text: 'answer: accept' }] } });
    expect(_meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': expect.anything() });
  });

  it('another principal’s stream is agreed no task ids and hears nothing of them', async () => {
    const { server, release } = setup();
    const taskId = await create(server, 'gated');
    const own = listen(server, { taskIds: [taskId] }, { auth: alice });
    const foreign = listen(server, { taskIds: [taskId] }, { auth: mallory });
    const anonymous = listen(server, { taskIds: [taskId, 'unknown'] });
    expect(await foreign.ack).toEqual({});
    expect(await anonymous.ack).toEqual({});
    await own.ack;
    release();
    await vi.waitFor(() => expect(own.sent).toHaveLength(1));
    await rpc(server, 'tasks/cancel', { taskId }, { auth: alice });
    await vi.waitFor(() =>
      expect(own.sent.map((n) => n.params?.status)).toEqual(['input_required', 'cancelled']),
    );
    expect(foreign.sent).toEqual([]);
    expect(anonymous.sent).toEqual([]);
  });

  it('leaves ids no task could have (NUL, control characters, over 256 characters) out, unread', async () => {
    const store = memoryTaskStore();
    const { server } = setup(createNotificationHub(), store);
    const taskId = await create(server, 'slow');
    const read = vi.spyOn(store, 'get');
    const stream = listen(
      server,
      { taskIds: ['a\u0000b', 'tab\t', 'x'.repeat(257), taskId] },
      { auth: alice },
    );
    expect(await stream.ack).toEqual({ taskIds: [taskId] });
    expect(read.mock.calls).toEqual([[taskId]]);
  });

  it('reaches a stream on another instance sharing the source and the store', async () => {
    const hub = createNotificationHub();
    const store = memoryTaskStore();
    const a = setup(hub, store);
    const b = setup(hub, store);
    const taskId = await create(a.server, 'slow');
    const stream = listen(b.server, { taskIds: [taskId] }, { auth: alice });
    expect(await stream.ack).toEqual({ taskIds: [taskId] });
    await rpc(a.server, 'tasks/cancel', { taskId }, { auth: alice });
    // Published once per source, not once per server attached to it.
    await vi.waitFor(() => expect(stream.sent.map((n) => n.params?.status)).toEqual(['cancelled']));
    await pollTask(a.server, taskId, undefined, { auth: alice });
    expect(stream.sent).toHaveLength(1);
  });

  it('sends nothing for writes a client cannot see (lease renewals)', async () => {
    const { server } = setup();
    const taskId = await create(server, 'slow');
    const stream = listen(server, { taskIds: [taskId] }, { auth: alice });
    await stream.ack;
    await rpc(server, 'tasks/get', { taskId }, { auth: alice });
    expect(stream.sent).toEqual([]);
  });

  it('answers -32021 without the extension, -32602 for malformed or too many ids', async () => {
    const { server } = setup();
    const without = listen(server, { taskIds: ['x'], toolsListChanged: true }, { caps: {}, auth: alice });
    expect(errorOf(await without.response)).toEqual({
      code: -32021,
      message: `Missing required client capability: extensions["${TASKS_EXTENSION}"]`,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
    const malformed = listen(server, { taskIds: 'x' }, { auth: alice });
    expect(errorOf(await malformed.response)).toMatchObject({ code: -32602 });
    const many = Array.from({ length: MAX_LISTEN_TASK_IDS + 1 }, (_, i) => `t${i}`);
    const tooMany = listen(server, { taskIds: many }, { auth: alice });
    expect(errorOf(await tooMany.response).message).toMatch(/over this server's 100/);
    // A listen without taskIds needs no extension.
    const plain = listen(server, { toolsListChanged: true }, { caps: {} });
    expect(await plain.ack).toEqual({ toolsListChanged: true });
  });
});
