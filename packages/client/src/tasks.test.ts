// The client side of the tasks extension against a scripted server: what it declares, how it reads each answer
// of the extension (a server's wrong answer is an `invalid-result` ClientError naming it), and how it follows a
// task when the server polls, streams, refuses answers or loses a race. The real server side: @boomerang/tasks.
import { McpError } from '@boomerang/protocol';
import { TASKS_EXTENSION } from '@boomerang/protocol/tasks';
import { describe, expect, it } from 'vitest';
import { Client } from './client.js';
import { type ClientError, isClientError } from './errors.js';
import { askFor, harness, NO_REPLY, type ReceivedRequest } from './test-support/fake-server.js';

const TASK_ID = 'task-1';
const base = {
  taskId: TASK_ID,
  createdAt: '2026-07-28T10:00:00Z',
  lastUpdatedAt: '2026-07-28T10:00:00Z',
  ttlMs: 60_000,
  pollIntervalMs: 40,
};
const created = { ...base, resultType: 'task', status: 'working' };
const got = (fields: Record<string, unknown>) => ({ ...base, resultType: 'complete', ...fields });
const completed = got({ status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } });

/**
 * A server whose `tools/call` creates the task and whose `tasks/get` answers `readings` in turn (the last one
 * again when they run out). `subscriptions/listen` is `-32601` unless `listen` serves it; `tasks/update` and
 * `tasks/cancel` are acknowledged unless `update` says otherwise.
 */
function taskServer(
  readings: unknown[],
  options: {
    listen?: (request: ReceivedRequest, send: (message: object) => Promise<void>) => unknown;
    update?: (request: ReceivedRequest) => unknown;
  } = {},
) {
  let read = 0;
  return (request: ReceivedRequest, _index: number, server: { send(m: object): Promise<void> }) => {
    switch (request.method) {
      case 'tools/call':
        return created;
      case 'tasks/get':
        return readings[Math.min(read++, readings.length - 1)];
      case 'tasks/update':
        return options.update?.(request) ?? { resultType: 'complete' };
      case 'tasks/cancel':
        return { resultType: 'complete' };
      case 'subscriptions/listen':
        if (options.listen === undefined) throw new McpError(-32601, 'Method not found');
        return options.listen(request, (message) => server.send(message as never));
      default:
        throw new McpError(-32601, 'Method not found');
    }
  };
}

/** A client that follows tasks, polls without waiting (recording the waits), and accepts every question. */
function options(extra: Record<string, unknown> = {}) {
  const waits: number[] = [];
  return {
    waits,
    client: {
      tasks: true,
      elicitation: async () => ({ action: 'accept' as const, content: { name: 'Ada' } }),
      sleep: async (ms: number) => {
        waits.push(ms);
      },
      ...extra,
    },
  };
}

async function failure(promise: Promise<unknown>): Promise<ClientError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isClientError(error)) throw new Error(`expected a ClientError, got ${String(error)}`);
  return error;
}

describe('declaring the extension', () => {
  it('tasks: true declares io.modelcontextprotocol/tasks in every request; without it nothing is declared', () => {
    const info = { name: 'h', version: '1' };
    expect(new Client(info, { tasks: true }).capabilities).toEqual({ extensions: { [TASKS_EXTENSION]: {} } });
    expect(new Client(info, { tasks: { listen: false } }).capabilities.extensions).toEqual({
      [TASKS_EXTENSION]: {},
    });
    expect(new Client(info).capabilities.extensions).toBeUndefined();
    expect(new Client(info, { tasks: false }).capabilities.extensions).toBeUndefined();
  });

  it('rejects a bad tasks or onTask option with TypeError', () => {
    const info = { name: 'h', version: '1' };
    expect(() => new Client(info, { tasks: 'yes' as never })).toThrow(
      '"tasks" expected a boolean or { listen? }, got string',
    );
    expect(() => new Client(info, { tasks: { listen: 1 as never } })).toThrow(TypeError);
    expect(() => new Client(info, { onTask: {} as never })).toThrow(
      '"onTask" expected a function, got object',
    );
  });

  it('sends the declaration in _meta, and the task methods’ params as the spec writes them', async () => {
    const { client } = options();
    await using h = await harness(taskServer([completed]), client);
    await h.client.callTool('job');
    expect(h.server.requests.map((r) => r.method)).toEqual([
      'tools/call',
      'subscriptions/listen',
      'tasks/get',
    ]);
    for (const request of h.server.requests) {
      expect(request.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions).toEqual({
        [TASKS_EXTENSION]: {},
      });
    }
    expect(h.server.requests[1]?.params.notifications).toEqual({ taskIds: [TASK_ID] });
    expect(h.server.requests[2]?.params).toMatchObject({ taskId: TASK_ID });
  });
});

describe('bad answers from the server: an invalid-result ClientError', () => {
  it('resultType "task" when the client did not declare the extension', async () => {
    await using h = await harness(() => created);
    const error = await failure(h.client.callTool('job'));
    expect(error.reason).toBe('invalid-result');
    expect(error.message).toBe('Invalid result for tools/call: unknown resultType "task"');
  });

  it('resultType "task" on a method that cannot create tasks', async () => {
    const { client } = options();
    await using h = await harness(() => created, client);
    const error = await failure(h.client.getPrompt('p'));
    expect(error.message).toBe(
      'Invalid result for prompts/get: resultType "task" is only allowed on tools/call',
    );
  });

  it('a CreateTaskResult without a task id, or carrying a result', async () => {
    const { client } = options();
    const { taskId: _id, ...nameless } = created;
    await using h = await harness(() => nameless, client);
    const error = await failure(h.client.callTool('job'));
    expect(error.message).toMatch(
      /^Invalid result for tools\/call: the CreateTaskResult does not match its schema \(result\.taskId: /,
    );
    await using h2 = await harness(() => ({ ...created, result: {} }), client);
    expect((await failure(h2.client.callTool('job'))).message).toMatch(/carries no result, error/);
  });

  it('an unknown task status', async () => {
    const { client } = options();
    await using h = await harness(taskServer([got({ status: 'paused' })]), client);
    const error = await failure(h.client.callTool('job'));
    expect(error.reason).toBe('invalid-result');
    expect(error.message).toBe(
      `Invalid result for tasks/get: unknown task status "paused" (task ${TASK_ID})`,
    );
    expect(error.taskId).toBe(TASK_ID);
    expect(error.result).toMatchObject({ status: 'paused' });
  });

  it('a completed task whose result fails the method’s validation, or is not final', async () => {
    const { client } = options();
    await using h = await harness(
      taskServer([got({ status: 'completed', result: { content: 'nope' } })]),
      client,
    );
    const error = await failure(h.client.callTool('job'));
    expect(error.reason).toBe('invalid-result');
    expect(error.message).toMatch(
      /^Invalid result for tools\/call: the result does not match its schema .*\(task task-1\)$/,
    );
    expect(error.taskId).toBe(TASK_ID);
    const asks = { resultType: 'input_required', inputRequests: { q: askFor('name') } };
    await using h2 = await harness(taskServer([got({ status: 'completed', result: asks })]), client);
    expect((await failure(h2.client.callTool('job'))).message).toMatch(/a task's result must be complete/);
  });

  it('a reading of another task, a reading that is not complete, a failed task without its error', async () => {
    const { client } = options();
    for (const [reading, problem] of [
      [{ ...completed, taskId: 'task-2' }, /it describes task task-2, not task-1/],
      [{ ...completed, resultType: 'task' }, /resultType "task" \(expected "complete"\)/],
      [got({ status: 'failed' }), /the task does not match its schema \(result\.error: /],
      [
        got({ status: 'input_required', inputRequests: { q: { method: 'x/y' } } }),
        /does not match its schema/,
      ],
    ] as const) {
      await using h = await harness(taskServer([reading]), client);
      const error = await failure(h.client.callTool('job'));
      expect(error.reason).toBe('invalid-result');
      expect(error.message).toMatch(problem);
    }
  });

  it('a notification whose task has an unknown status', async () => {
    const { client } = options({ sleep: () => new Promise(() => {}) });
    await using h = await harness(
      // The streamed completion only wakes the client: the result it returns is the one tasks/get reads.
      taskServer([got({ status: 'working' }), completed], {
        listen: (request, send) => {
          const meta = { 'io.modelcontextprotocol/subscriptionId': request.id };
          void send({
            jsonrpc: '2.0',
            method: 'notifications/subscriptions/acknowledged',
            params: { _meta: meta, notifications: { taskIds: [TASK_ID] } },
          }).then(() =>
            setTimeout(
              () =>
                void send({
                  jsonrpc: '2.0',
                  method: 'notifications/tasks',
                  params: { _meta: meta, ...base, status: 'exploded' },
                }),
              10,
            ),
          );
          return NO_REPLY;
        },
      }),
      client,
    );
    const error = await failure(h.client.callTool('job'));
    expect(error.message).toBe(
      `Invalid result for notifications/tasks: unknown task status "exploded" (task ${TASK_ID})`,
    );
  });
});

describe('following a task', () => {
  it('waits the task’s pollIntervalMs between reads (at least 10 ms), and answers each question once', async () => {
    const { client, waits } = options();
    const asking = got({
      status: 'input_required',
      pollIntervalMs: 0,
      inputRequests: { '1.name': askFor('name') },
    });
    let answered = 0;
    await using h = await harness(
      taskServer([got({ status: 'working' }), asking, asking, asking, completed], {
        update: () => {
          answered++;
          return { resultType: 'complete' };
        },
      }),
      client,
    );
    expect((await h.client.callTool('job')).content).toEqual([{ type: 'text', text: 'done' }]);
    expect(answered).toBe(1);
    expect(waits).toEqual([40, 40, 10, 10, 10]);
    const update = h.server.requests.find((r) => r.method === 'tasks/update');
    expect(update?.params).toMatchObject({
      taskId: TASK_ID,
      inputResponses: { '1.name': { action: 'accept', content: { name: 'Ada' } } },
    });
  });

  it('a -32602 to tasks/update while the task still asks the same question: the answer was refused', async () => {
    const { client } = options();
    const asking = got({ status: 'input_required', inputRequests: { '1.name': askFor('name') } });
    await using h = await harness(
      taskServer([asking], {
        update: () => {
          throw new McpError(-32602, 'Invalid params: inputResponses["1.name"] does not fill the form');
        },
      }),
      client,
    );
    const error = await failure(h.client.callTool('job'));
    expect(error.reason).toBe('callback-failed');
    expect(error.message).toBe(
      'The server refused the answers to "1.name" of task task-1 of tools/call "job": Invalid params: inputResponses["1.name"] does not fill the form',
    );
    expect(error).toMatchObject({
      taskId: TASK_ID,
      key: '1.name',
      keys: ['1.name'],
      inputMethod: 'elicitation/create',
    });
    expect(error.cause).toBeInstanceOf(McpError);
  });

  it('a -32602 to tasks/update after someone else answered: the task is followed on', async () => {
    const { client } = options();
    const asking = got({ status: 'input_required', inputRequests: { '1.name': askFor('name') } });
    await using h = await harness(
      taskServer([asking, got({ status: 'working' }), completed], {
        update: () => {
          throw new McpError(-32602, 'Task is not waiting for input (its status is working)');
        },
      }),
      client,
    );
    expect((await h.client.callTool('job')).content).toEqual([{ type: 'text', text: 'done' }]);
  });

  it('follows through the stream when the server agrees to it, and polls when the acknowledgement leaves it out', async () => {
    const { client } = options({
      sleep: (_ms: number, signal: AbortSignal) =>
        new Promise((_r, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    });
    await using h = await harness(
      // The streamed completion only wakes the client: the result it returns is the one tasks/get reads.
      taskServer([got({ status: 'working' }), completed], {
        listen: (request, send) => {
          const meta = { 'io.modelcontextprotocol/subscriptionId': request.id };
          const note = (method: string, params: object) =>
            send({ jsonrpc: '2.0', method, params: { _meta: meta, ...params } });
          void (async () => {
            await note('notifications/subscriptions/acknowledged', { notifications: { taskIds: [TASK_ID] } });
            await new Promise((resolve) => setTimeout(resolve, 10));
            await note('notifications/tasks', { ...base, status: 'working', statusMessage: 'Printing' });
            await note('notifications/tasks', {
              ...completed,
              result: { content: [{ type: 'text', text: 'forged' }] },
              resultType: undefined,
            });
          })();
          return NO_REPLY;
        },
      }),
      client,
    );
    expect((await h.client.callTool('job')).content).toEqual([{ type: 'text', text: 'done' }]);
    // The stream was cancelled once the task ended.
    await h.server.waitForNotification('notifications/cancelled');

    const { client: polling, waits } = options();
    await using h2 = await harness(
      taskServer([got({ status: 'working' }), completed], {
        listen: (request, send) => {
          void send({
            jsonrpc: '2.0',
            method: 'notifications/subscriptions/acknowledged',
            params: { _meta: { 'io.modelcontextprotocol/subscriptionId': request.id }, notifications: {} },
          });
          return NO_REPLY;
        },
      }),
      polling,
    );
    expect((await h2.client.callTool('job')).content).toEqual([{ type: 'text', text: 'done' }]);
    expect(waits).toEqual([40, 40]);
  });
});

describe('maxInputRequests on the task path', () => {
  it('a tasks/get asking 100,000 questions fails the call before any callback runs (and before validation)', async () => {
    const inputRequests: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) inputRequests[`q${i}`] = askFor('q');
    let calls = 0;
    let waits = 0;
    const { client } = options({
      elicitation: async () => {
        calls++;
        return { action: 'accept' as const, content: { name: 'Ada' } };
      },
      // Without the cap the client would answer them all, then poll on: a bounded wait keeps such a run finite.
      sleep: async () => {
        if (++waits > 3) throw new Error('kept following the flood');
      },
    });
    await using h = await harness(taskServer([got({ status: 'input_required', inputRequests })]), client);
    const error = await failure(h.client.callTool('flood'));
    expect(error).toMatchObject({
      reason: 'too-many-input-requests',
      maxInputRequests: 64,
      taskId: TASK_ID,
    });
    // What the server sent, as received: the cap was applied before the reading was validated.
    expect(Object.keys((error.result as { inputRequests: object }).inputRequests)).toHaveLength(100_000);
    expect(calls).toBe(0);
    expect(h.server.requests.map((r) => r.method)).not.toContain('tasks/update');
  });

  it('follows the option, also for client.tasks.result()', async () => {
    const three = { a: askFor('a'), b: askFor('b'), c: askFor('c') };
    let waits = 0;
    const { client } = options({
      maxInputRequests: 2,
      sleep: async () => {
        if (++waits > 3) throw new Error('kept following');
      },
    });
    await using h = await harness(
      taskServer([got({ status: 'input_required', inputRequests: three })]),
      client,
    );
    await expect(h.client.callTool('three')).rejects.toMatchObject({ reason: 'too-many-input-requests' });
    await expect(h.client.tasks.result(TASK_ID)).rejects.toMatchObject({
      reason: 'too-many-input-requests',
      maxInputRequests: 2,
    });
    expect(h.server.requests.map((r) => r.method)).not.toContain('tasks/update');
  });
});

describe('when the stream or a hook never answers', () => {
  it('polls when the server takes the listen request but never acknowledges it (1 s at least)', async () => {
    const { client, waits } = options();
    await using h = await harness(
      taskServer([got({ status: 'working' }), completed], { listen: () => NO_REPLY }),
      client,
    );
    const started = Date.now();
    expect((await h.client.callTool('job')).content).toEqual([{ type: 'text', text: 'done' }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    expect(waits).toEqual([40, 40]);
    // The unacknowledged listen request was cancelled.
    await h.server.waitForNotification('notifications/cancelled');
  });

  it('a hung onTask hook does not outlive the call’s timeout; the task is cancelled', async () => {
    const { client } = options({ onTask: () => new Promise(() => {}) });
    await using h = await harness(taskServer([completed]), client);
    const error = await failure(h.client.callTool('job', {}, { timeoutMs: 50 }));
    expect(error.reason).toBe('timeout');
    await h.server.waitForRequests(2);
    expect(h.server.requests.map((r) => [r.method, r.params.taskId])).toEqual([
      ['tools/call', undefined],
      ['tasks/cancel', TASK_ID],
    ]);
  });
});

describe('client.tasks by hand', () => {
  it('checks its arguments', async () => {
    const { client } = options();
    await using h = await harness(taskServer([completed]), client);
    await expect(h.client.tasks.get(5 as never)).rejects.toThrow(
      '"taskId" expected a non-empty string, got number',
    );
    await expect(h.client.tasks.result('')).rejects.toThrow(TypeError);
    await expect(h.client.tasks.update(TASK_ID, [] as never)).rejects.toThrow(
      '"inputResponses" expected an object of answers by key, got array',
    );
    expect(h.server.requests).toEqual([]);
  });

  it('get, update and cancel: one request each, read and validated', async () => {
    const { client } = options();
    await using h = await harness(
      taskServer([completed], { update: () => ({ resultType: 'input_required' }) }),
      client,
    );
    expect(await h.client.tasks.get(TASK_ID)).toEqual({
      ...base,
      status: 'completed',
      result: { content: [{ type: 'text', text: 'done' }] },
    });
    const error = await failure(h.client.tasks.update(TASK_ID, {}));
    expect(error.message).toBe(
      'Invalid result for tasks/update: resultType "input_required" (expected "complete")',
    );
    await h.client.tasks.cancel(TASK_ID);
    expect(h.server.requests.map((r) => [r.method, r.params.taskId])).toEqual([
      ['tasks/get', TASK_ID],
      ['tasks/update', TASK_ID],
      ['tasks/cancel', TASK_ID],
    ]);
  });

  it('result() on a failed task rejects with its McpError; aborting it sends no tasks/cancel', async () => {
    const { client } = options();
    await using h = await harness(
      taskServer([got({ status: 'failed', error: { code: -32000, message: 'Out of paper' } })]),
      client,
    );
    await expect(h.client.tasks.result(TASK_ID)).rejects.toMatchObject({
      code: -32000,
      message: 'Out of paper',
    });
    const { client: waiting } = options({ sleep: () => new Promise(() => {}) });
    await using h2 = await harness(taskServer([got({ status: 'working' })]), waiting);
    const controller = new AbortController();
    const result = h2.client.tasks.result(TASK_ID, { signal: controller.signal });
    await h2.server.waitForRequests(2);
    controller.abort(new Error('stop waiting'));
    await expect(result).rejects.toThrow('stop waiting');
    expect(h2.server.requests.map((r) => r.method)).not.toContain('tasks/cancel');
  });
});
