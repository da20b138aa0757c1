import { elicitRequest, inputRequired, McpError } from '@boomerang/protocol';
import { type RequestContext, Server } from '@boomerang/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryTaskStore } from './memory-store.js';
import {
  type CallToolHandler,
  createTasks,
  INTERRUPTED,
  TASK_QUOTA_EXCEEDED,
  type Tasks,
  type TasksOptions,
} from './runtime.js';
import { TASKS_EXTENSION } from './schema.js';
import type { TaskStore } from './store.js';
import { errorOf, pollTask, resultOf, rpc, WITH_TASKS } from './test-support/wire.js';

const NO_TASKS = { elicitation: { form: {} } };
const ask = (message: string) =>
  elicitRequest({ message, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** A low-level server whose tools/call runs `tools` (by name), with `policy` deciding which become tasks. */
function setup(
  tools: Record<string, (args: Record<string, unknown>, ctx: RequestContext) => unknown>,
  policy: Record<string, 'optional' | 'required'>,
  options: Partial<TasksOptions> = {},
) {
  const store = options.store ?? memoryTaskStore();
  const logger = { warn: vi.fn(), error: vi.fn() };
  const tasks = createTasks({ store, logger, ...options });
  const inner: CallToolHandler = async (params, ctx) => {
    const tool = tools[params.name];
    if (tool === undefined) throw new McpError(-32602, `Unknown tool: ${params.name}`);
    return (await tool(params.arguments ?? {}, ctx)) as never;
  };
  const server = new Server(
    { name: 'tasks-test', version: '1.0.0' },
    { extensions: [tasks.extension], onCallTool: tasks.wrapCallTool(inner, policy), logger },
  );
  opened.push(tasks);
  return { server, tasks, store, logger };
}

const opened: Tasks[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((t) => t.close()));
});

async function create(server: Server, name: string, args: Record<string, unknown> = {}, auth?: object) {
  const created = resultOf(await rpc(server, 'tools/call', { name, arguments: args }, auth ? { auth } : {}));
  expect(created.resultType).toBe('task');
  return created.taskId as string;
}

describe('task creation', () => {
  it('answers a flat CreateTaskResult once the task is stored, then completes it in the background', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { server, store } = setup(
      {
        slow: async () => {
          await gate;
          return text('done');
        },
      },
      { slow: 'optional' },
    );
    const created = resultOf(await rpc(server, 'tools/call', { name: 'slow', arguments: {} }));
    expect(created).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: 3_600_000,
      pollIntervalMs: 1_000,
    });
    expect(Object.keys(created).sort()).toEqual(
      [
        '_meta',
        'createdAt',
        'lastUpdatedAt',
        'pollIntervalMs',
        'resultType',
        'status',
        'taskId',
        'ttlMs',
      ].sort(),
    );
    expect(created.taskId).toMatch(/^[0-9a-f]{64}$/);
    expect(await store.get(created.taskId as string)).toMatchObject({ status: 'working' });
    expect(resultOf(await rpc(server, 'tasks/get', { taskId: created.taskId }))).toMatchObject({
      resultType: 'complete',
      status: 'working',
    });
    release();
    const done = await pollTask(server, created.taskId as string);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ text: 'done' }] } });
    expect(done).not.toHaveProperty('requestState');
  });

  it('runs an optional tool synchronously for a client without the extension; a required one is -32021', async () => {
    const { server } = setup(
      { opt: () => text('now'), req: () => text('never') },
      { opt: 'optional', req: 'required' },
    );
    expect(resultOf(await rpc(server, 'tools/call', { name: 'opt' }, { caps: NO_TASKS }))).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'now' }],
    });
    expect(errorOf(await rpc(server, 'tools/call', { name: 'req' }, { caps: NO_TASKS }))).toEqual({
      code: -32021,
      message: `Missing required client capability: extensions["${TASKS_EXTENSION}"]`,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
  });

  it('leaves tools outside the policy alone, and ignores a legacy `task` param', async () => {
    const { server } = setup({ greet: () => text('hi') }, {});
    const result = resultOf(await rpc(server, 'tools/call', { name: 'greet', task: { ttl: 1 } }));
    expect(result).toMatchObject({ resultType: 'complete', content: [{ text: 'hi' }] });
  });

  it('advertises the extension and answers -32601 for the removed tasks/result and tasks/list', async () => {
    const { server } = setup({}, {});
    const discover = resultOf(await rpc(server, 'server/discover'));
    expect(discover.capabilities).toMatchObject({ extensions: { [TASKS_EXTENSION]: {} } });
    expect(errorOf(await rpc(server, 'tasks/result', { taskId: 'x' })).code).toBe(-32601);
    expect(errorOf(await rpc(server, 'tasks/list')).code).toBe(-32601);
  });
});

describe('outcomes', () => {
  it('stores an isError result as completed, a JSON-RPC error as failed, anything else as -32603', async () => {
    const { server, logger } = setup(
      {
        tool_error: () => ({ ...text('bad input'), isError: true }),
        rpc_error: () => {
          throw new McpError(-32000, 'rate limited', { retryAfter: 5 });
        },
        crash: () => {
          throw new Error('secret detail');
        },
        invalid: () => ({ content: 'not an array' }),
      },
      { tool_error: 'required', rpc_error: 'required', crash: 'required', invalid: 'required' },
    );
    expect(await pollTask(server, await create(server, 'tool_error'))).toMatchObject({
      status: 'completed',
      result: { isError: true },
    });
    const failed = await pollTask(server, await create(server, 'rpc_error'));
    expect(failed).toMatchObject({
      status: 'failed',
      statusMessage: 'rate limited',
      error: { code: -32000, message: 'rate limited', data: { retryAfter: 5 } },
    });
    expect(failed).not.toHaveProperty('result');
    const crashed = await pollTask(server, await create(server, 'crash'));
    expect(crashed.error).toEqual({ code: -32603, message: 'Internal error' });
    expect(JSON.stringify(crashed)).not.toContain('secret');
    expect((await pollTask(server, await create(server, 'invalid'))).status).toBe('failed');
    expect(logger.error).toHaveBeenCalledTimes(2);
  });

  it('fails a task whose question needs a capability the creating request did not declare', async () => {
    const { server } = setup(
      { asks: () => inputRequired({ inputRequests: { q: ask('ok?') } }) },
      { asks: 'required' },
    );
    const taskId = resultOf(
      await rpc(server, 'tools/call', { name: 'asks' }, { caps: { extensions: { [TASKS_EXTENSION]: {} } } }),
    ).taskId as string;
    const task = await pollTask(server, taskId, undefined, {});
    expect(task).toMatchObject({ status: 'failed', error: { code: -32021 } });
  });

  it('turns progress messages into status messages, and sends no notifications', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { server } = setup(
      {
        steps: async (_args, ctx) => {
          await ctx.sendProgress(1, 2, 'Printing proofs');
          await ctx.log('info', 'not sent');
          await gate;
          return text('printed');
        },
      },
      { steps: 'required' },
    );
    const taskId = await create(server, 'steps');
    const working = await pollTask(server, taskId, (t) => t.statusMessage === 'Printing proofs');
    expect(working.status).toBe('working');
    release();
    expect(await pollTask(server, taskId)).toMatchObject({ status: 'completed' });
  });
});

describe('input mid-task', () => {
  /** Asks `a` and `b` in round 1, then `c` in round 2 (a key reused by the handler), then finishes. */
  const interview = (_args: Record<string, unknown>, ctx: RequestContext) => {
    const answers = ctx.inputResponses ?? {};
    if (ctx.requestState === undefined) {
      return inputRequired({ inputRequests: { a: ask('A?'), b: ask('B?') }, requestState: 'r1' });
    }
    if (ctx.requestState === 'r1') {
      return inputRequired({
        inputRequests: { a: ask('C?') },
        requestState: `r2:${JSON.stringify([answers.a, answers.b])}`,
      });
    }
    return text(`${ctx.requestState} + ${JSON.stringify(answers.a)}`);
  };
  const yes = { action: 'accept', content: { ok: true } };

  it('asks through tasks/get, takes partial answers, re-runs with all of them, keys unique per round', async () => {
    const { server } = setup({ interview }, { interview: 'required' });
    const taskId = await create(server, 'interview');
    const first = await pollTask(server, taskId, (t) => t.status === 'input_required');
    expect(Object.keys(first.inputRequests as object)).toEqual(['1.a', '1.b']);
    expect(first.statusMessage).toBe('A?');
    expect(resultOf(await rpc(server, 'tasks/update', { taskId, inputResponses: { '1.a': yes } }))).toEqual({
      resultType: 'complete',
      _meta: expect.any(Object),
    });
    const partial = resultOf(await rpc(server, 'tasks/get', { taskId }));
    expect(partial.status).toBe('input_required');
    expect(Object.keys(partial.inputRequests as object)).toEqual(['1.b']);
    await rpc(server, 'tasks/update', { taskId, inputResponses: { '1.b': { action: 'decline' } } });
    const second = await pollTask(
      server,
      taskId,
      (t) => t.status === 'input_required' && '2.a' in (t.inputRequests as object),
    );
    expect(Object.keys(second.inputRequests as object)).toEqual(['2.a']);
    await rpc(server, 'tasks/update', {
      taskId,
      inputResponses: { '2.a': { action: 'accept', content: { ok: false } } },
    });
    const done = await pollTask(server, taskId);
    expect(done.result).toMatchObject({
      content: [
        {
          text: `r2:[{"action":"accept","content":{"ok":true}},{"action":"decline"}] + {"action":"accept","content":{"ok":false}}`,
        },
      ],
    });
  });

  it('re-runs on another instance sharing the store (the first one may be gone)', async () => {
    const store = memoryTaskStore();
    const a = setup({ interview }, { interview: 'required' }, { store });
    const b = setup({ interview }, { interview: 'required' }, { store });
    const taskId = await create(a.server, 'interview');
    await pollTask(b.server, taskId, (t) => t.status === 'input_required');
    await a.tasks.close();
    await rpc(b.server, 'tasks/update', { taskId, inputResponses: { '1.a': yes, '1.b': yes } });
    await pollTask(
      b.server,
      taskId,
      (t) => t.status === 'input_required' && '2.a' in (t.inputRequests as object),
    );
    await rpc(b.server, 'tasks/update', { taskId, inputResponses: { '2.a': yes } });
    expect((await pollTask(b.server, taskId)).status).toBe('completed');
  });

  it('runs `before` on the request: its InputRequiredResult is a plain round, its TaskStart the first run’s input', async () => {
    const store = memoryTaskStore();
    const tasks = createTasks({ store });
    opened.push(tasks);
    const seen: unknown[] = [];
    const server = new Server(
      { name: 'before', version: '1.0.0' },
      {
        extensions: [tasks.extension],
        onCallTool: tasks.wrapCallTool(
          (_params, ctx) => {
            seen.push([ctx.inputResponses, ctx.requestState]);
            return text('ran');
          },
          () => ({
            support: 'required',
            before: (_params, ctx) =>
              ctx.inputResponses === undefined
                ? inputRequired({ inputRequests: { name: ask('Name?') }, requestState: 'pre' })
                : { inputResponses: ctx.inputResponses, requestState: 'carried' },
          }),
        ),
      },
    );
    const round = resultOf(await rpc(server, 'tools/call', { name: 't' }));
    expect(round).toMatchObject({ resultType: 'input_required', requestState: 'pre' });
    expect(await store.get('anything')).toBeUndefined();
    const created = resultOf(
      await rpc(server, 'tools/call', { name: 't', inputResponses: { name: yes }, requestState: 'pre' }),
    );
    expect(created.resultType).toBe('task');
    await pollTask(server, created.taskId as string);
    expect(seen).toEqual([[{ name: yes }, 'carried']]);
  });
});

describe('cancellation', () => {
  it('cancels a working task at once, aborts its handler and drops what it returns', async () => {
    let aborted = false;
    const { server } = setup(
      {
        slow: (_args, ctx) =>
          new Promise((resolve) =>
            ctx.signal.addEventListener('abort', () => {
              aborted = true;
              resolve(text('too late'));
            }),
          ),
      },
      { slow: 'required' },
    );
    const taskId = await create(server, 'slow');
    expect(resultOf(await rpc(server, 'tasks/cancel', { taskId }))).toEqual({
      resultType: 'complete',
      _meta: expect.any(Object),
    });
    expect(resultOf(await rpc(server, 'tasks/get', { taskId }))).toMatchObject({
      status: 'cancelled',
      statusMessage: 'Cancelled by the client',
    });
    await vi.waitFor(() => expect(aborted).toBe(true));
    expect(resultOf(await rpc(server, 'tasks/get', { taskId })).status).toBe('cancelled');
    // Idempotent on a terminal task.
    expect(resultOf(await rpc(server, 'tasks/cancel', { taskId })).resultType).toBe('complete');
  });
});

describe('bad input: each gets its JSON-RPC error and the server keeps serving', () => {
  const waits = () => inputRequired({ inputRequests: { q: ask('ok?') } });

  it.each([
    ['tasks/get', { taskId: 'nope' }],
    ['tasks/update', { taskId: 'nope', inputResponses: {} }],
    ['tasks/cancel', { taskId: 'nope' }],
  ])('%s of an unknown task id is -32602', async (method, params) => {
    const { server } = setup({}, {});
    expect(errorOf(await rpc(server, method, params))).toEqual({
      code: -32602,
      message: 'Failed to retrieve task: Task not found',
    });
    expect(resultOf(await rpc(server, 'server/discover')).resultType).toBe('complete');
  });

  it('task ids with NUL, control characters, spaces or over 256 characters are -32602, never read', async () => {
    const store = memoryTaskStore();
    const read = vi.spyOn(store, 'get');
    const { server } = setup({}, {}, { store });
    for (const taskId of [
      'a\u0000b',
      '\u0000',
      'tab\there',
      'new\nline',
      'sp ace',
      'é',
      'x'.repeat(257),
      '',
    ]) {
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
        const refused = errorOf(await rpc(server, method, { taskId, inputResponses: {} }));
        expect(refused.code).toBe(-32602);
        expect(refused.message).toMatch(/^Invalid params: .*taskId/);
      }
    }
    expect(read).not.toHaveBeenCalled();
    expect(errorOf(await rpc(server, 'tasks/get', { taskId: 'x'.repeat(256) }))).toEqual({
      code: -32602,
      message: 'Failed to retrieve task: Task not found',
    });
  });

  it('a tasks/update answer nested 20,000 levels deep is -32602, and the task keeps waiting', async () => {
    const { server } = setup({ waits }, { waits: 'required' });
    const taskId = await create(server, 'waits');
    const before = await pollTask(server, taskId, (t) => t.status === 'input_required');
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = i % 2 === 0 ? [deep] : { a: deep };
    for (const answer of [
      { action: 'accept', content: { ok: true }, deep },
      { action: 'accept', content: { ok: deep } },
    ]) {
      const refused = errorOf(
        await rpc(server, 'tasks/update', { taskId, inputResponses: { '1.q': answer } }),
      );
      expect(refused).toEqual({
        code: -32602,
        message: 'Invalid params: inputResponses nests deeper than 512 levels',
      });
    }
    expect(resultOf(await rpc(server, 'tasks/get', { taskId }))).toEqual(before);
  });

  it('another principal gets exactly the unknown-task answer for get, update and cancel', async () => {
    const { server } = setup({ waits }, { waits: 'required' });
    const alice = { clientId: 'c', issuer: 'https://as', subject: 'alice', token: 't1' };
    const mallory = { clientId: 'c', issuer: 'https://as', subject: 'mallory', token: 't2' };
    const taskId = await create(server, 'waits', {}, alice);
    await pollTask(server, taskId, (t) => t.status === 'input_required', { auth: alice });
    for (const [method, extra] of [
      ['tasks/get', {}],
      ['tasks/update', { inputResponses: { '1.q': { action: 'decline' } } }],
      ['tasks/cancel', {}],
    ] as const) {
      const foreign = errorOf(await rpc(server, method, { taskId, ...extra }, { auth: mallory }));
      const unknown = errorOf(
        await rpc(server, method, { taskId: `${taskId}0`, ...extra }, { auth: mallory }),
      );
      expect(foreign).toEqual(unknown);
      expect(errorOf(await rpc(server, method, { taskId, ...extra })).code).toBe(-32602);
    }
    // A scope step-up keeps the owner.
    const stepped = { ...alice, scopes: ['more'], token: 't3' };
    expect(resultOf(await rpc(server, 'tasks/get', { taskId }, { auth: stepped })).status).toBe(
      'input_required',
    );
  });

  it('token-only principals (a verifier returning only { token }) own their tasks apart', async () => {
    const { server, store } = setup({ waits }, { waits: 'required' });
    const alice = { token: 'alice-api-key' };
    const mallory = { token: 'mallory-api-key' };
    const taskId = await create(server, 'waits', {}, alice);
    await pollTask(server, taskId, (t) => t.status === 'input_required', { auth: alice });
    for (const [method, extra] of [
      ['tasks/get', {}],
      ['tasks/update', { inputResponses: { '1.q': { action: 'decline' } } }],
      ['tasks/cancel', {}],
    ] as const) {
      const foreign = errorOf(await rpc(server, method, { taskId, ...extra }, { auth: mallory }));
      expect(foreign).toEqual({ code: -32602, message: 'Failed to retrieve task: Task not found' });
    }
    expect(resultOf(await rpc(server, 'tasks/get', { taskId }, { auth: alice })).status).toBe(
      'input_required',
    );
    // Only a digest of the token is stored.
    const owner = (await store.get(taskId))?.owner ?? '';
    expect(owner).not.toContain('alice-api-key');
    expect(JSON.parse(owner)).toEqual({ tokenSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('an AuthInfo naming no principal and no token gets no task, and sees none (fail closed)', async () => {
    const { server } = setup({ waits }, { waits: 'required' });
    const nobody = { scopes: ['read'] };
    const refused = errorOf(
      await rpc(server, 'tools/call', { name: 'waits', arguments: {} }, { auth: nobody }),
    );
    expect(refused.code).toBe(-32603);
    expect(refused.message).toMatch(/cannot be bound to its caller/);
    const taskId = await create(server, 'waits');
    expect(errorOf(await rpc(server, 'tasks/get', { taskId }, { auth: nobody })).code).toBe(-32602);
  });

  it('an expired task is -32602, and sweep() deletes it', async () => {
    let now = 1_000_000;
    const { server, tasks, store } = setup(
      { waits },
      { waits: 'required' },
      { ttlMs: 1_000, clock: () => now },
    );
    const taskId = await create(server, 'waits');
    now += 1_000;
    expect(errorOf(await rpc(server, 'tasks/get', { taskId }))).toEqual({
      code: -32602,
      message: 'Failed to retrieve task: Task has expired',
    });
    await tasks.idle();
    expect(await tasks.sweep()).toBe(1);
    expect(await store.get(taskId)).toBeUndefined();
  });

  it('tasks/update of a working, cancelled or completed task is -32602', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { server } = setup(
      {
        slow: async () => {
          await gate;
          return text('ok');
        },
        waits,
      },
      { slow: 'required', waits: 'required' },
    );
    const working = await create(server, 'slow');
    expect(errorOf(await rpc(server, 'tasks/update', { taskId: working, inputResponses: {} }))).toEqual({
      code: -32602,
      message: 'Task is not waiting for input (its status is working)',
    });
    release();
    await pollTask(server, working);
    expect(errorOf(await rpc(server, 'tasks/update', { taskId: working, inputResponses: {} })).message).toBe(
      'Task is completed: it takes no more input',
    );
    const cancelled = await create(server, 'waits');
    await pollTask(server, cancelled, (t) => t.status === 'input_required');
    await rpc(server, 'tasks/cancel', { taskId: cancelled });
    const after = errorOf(
      await rpc(server, 'tasks/update', {
        taskId: cancelled,
        inputResponses: { '1.q': { action: 'decline' } },
      }),
    );
    expect(after).toEqual({ code: -32602, message: 'Task is cancelled: it takes no more input' });
  });

  it('answers for keys never asked are ignored; malformed, oversized and non-object answers are -32602', async () => {
    const { server } = setup({ waits }, { waits: 'required' }, { maxInputBytes: 200 });
    const taskId = await create(server, 'waits');
    await pollTask(server, taskId, (t) => t.status === 'input_required');
    const before = resultOf(await rpc(server, 'tasks/get', { taskId }));
    expect(
      resultOf(await rpc(server, 'tasks/update', { taskId, inputResponses: { nope: { ignored: true } } }))
        .resultType,
    ).toBe('complete');
    expect(resultOf(await rpc(server, 'tasks/get', { taskId }))).toEqual(before);
    const malformed = errorOf(
      await rpc(server, 'tasks/update', { taskId, inputResponses: { '1.q': { action: 'maybe' } } }),
    );
    expect(malformed.code).toBe(-32602);
    expect(malformed.message).toContain('inputResponses["1.q"] is not an answer to elicitation/create');
    const big = { '1.q': { action: 'accept', content: { note: 'x'.repeat(300) } } };
    expect(errorOf(await rpc(server, 'tasks/update', { taskId, inputResponses: big })).message).toMatch(
      /over this server's 200-byte limit/,
    );
    expect(errorOf(await rpc(server, 'tasks/update', { taskId, inputResponses: { '1.q': 5 } })).code).toBe(
      -32602,
    );
    expect(errorOf(await rpc(server, 'tasks/update', { taskId })).code).toBe(-32602);
    expect(resultOf(await rpc(server, 'tasks/get', { taskId }))).toEqual(before);
  });

  it('of two concurrent tasks/update of one task exactly one wins; the other gets a clear error', async () => {
    const store = memoryTaskStore();
    // Both updates read the task before either writes.
    let reads = 0;
    let bothRead = () => {};
    const barrier = new Promise<void>((resolve) => {
      bothRead = resolve;
    });
    const racing: TaskStore = {
      ...store,
      async get(taskId) {
        const record = await store.get(taskId);
        if (record?.status === 'input_required' && racingOn) {
          if (++reads === 2) bothRead();
          await barrier;
        }
        return record;
      },
    };
    let racingOn = false;
    const once = (_args: unknown, ctx: RequestContext) => (ctx.inputResponses ? text('answered') : waits());
    const { server } = setup({ waits: once }, { waits: 'required' }, { store: racing });
    const taskId = await create(server, 'waits');
    await pollTask(server, taskId, (t) => t.status === 'input_required');
    racingOn = true;
    const responses = await Promise.all([
      rpc(server, 'tasks/update', { taskId, inputResponses: { '1.q': { action: 'decline' } } }),
      rpc(server, 'tasks/update', { taskId, inputResponses: { '1.q': { action: 'cancel' } } }),
    ]);
    racingOn = false;
    const errors = responses.filter((r) => r !== undefined && 'error' in r);
    expect(errors).toHaveLength(1);
    expect(errorOf(errors[0])).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/concurrent tasks\/update won/),
    });
    expect((await pollTask(server, taskId)).status).toBe('completed');
  });

  it('tasks/* from a client that did not declare the extension are -32021', async () => {
    const { server } = setup({}, {});
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const error = errorOf(await rpc(server, method, { taskId: 'x', inputResponses: {} }, { caps: {} }));
      expect(error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      });
    }
  });
});

describe('what a task may store: validated, bounded, counted, swept', () => {
  const waits = () => inputRequired({ inputRequests: { q: ask('ok?') } });
  it('a call the policy validates away (its -32602, or a CallToolResult instead of a task) stores nothing', async () => {
    const store = memoryTaskStore();
    const create = vi.spyOn(store, 'create');
    const tasks = createTasks({ store });
    opened.push(tasks);
    const server = new Server(
      { name: 'validated', version: '1.0.0' },
      {
        extensions: [tasks.extension],
        onCallTool: tasks.wrapCallTool(() => text('ran'), {
          job: {
            support: 'required',
            validate(params) {
              const copies = params.arguments?.copies;
              if (copies === undefined) throw new McpError(-32602, 'Invalid params: copies is required');
              if (typeof copies !== 'number')
                return { content: [{ type: 'text', text: 'copies: a number' }], isError: true };
              return undefined;
            },
          },
        }),
      },
    );
    expect(
      errorOf(await rpc(server, 'tools/call', { name: 'job', arguments: { junk: 'x'.repeat(10_000) } })),
    ).toEqual({
      code: -32602,
      message: 'Invalid params: copies is required',
    });
    expect(
      resultOf(await rpc(server, 'tools/call', { name: 'job', arguments: { copies: 'two' } })),
    ).toMatchObject({
      resultType: 'complete',
      isError: true,
      content: [{ text: 'copies: a number' }],
    });
    expect(create).not.toHaveBeenCalled();
    const created = resultOf(await rpc(server, 'tools/call', { name: 'job', arguments: { copies: 2 } }));
    expect(created.resultType).toBe('task');
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('params over maxParamsBytes (default 1 MiB) or nested over 512 levels are -32602, and store nothing', async () => {
    const store = memoryTaskStore();
    const create = vi.spyOn(store, 'create');
    const { server } = setup({ job: () => text('ran') }, { job: 'required' }, { store });
    const junk = 'x'.repeat(1_048_576);
    expect(errorOf(await rpc(server, 'tools/call', { name: 'job', arguments: { junk } }))).toEqual({
      code: -32602,
      message: `Invalid params: params is ${JSON.stringify({ name: 'job', arguments: { junk } }).length} bytes, over this server's 1048576-byte limit`,
    });
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    expect(errorOf(await rpc(server, 'tools/call', { name: 'job', arguments: { deep } }))).toEqual({
      code: -32602,
      message: 'Invalid params: params nests deeper than 512 levels',
    });
    expect(create).not.toHaveBeenCalled();
    const small = setup({ job: () => text('ran') }, { job: 'required' }, { store, maxParamsBytes: 100 });
    expect(
      errorOf(await rpc(small.server, 'tools/call', { name: 'job', arguments: { junk: 'x'.repeat(100) } }))
        .code,
    ).toBe(-32602);
    expect(create).not.toHaveBeenCalled();
    expect(
      resultOf(await rpc(small.server, 'tools/call', { name: 'job', arguments: { ok: 1 } })).resultType,
    ).toBe('task');
  });

  it('bounds the rest of what a task keeps: round-0 answers, requestState and the client description (probe)', async () => {
    const store = memoryTaskStore();
    const create = vi.spyOn(store, 'create');
    const { server } = setup({ job: () => text('ran') }, { job: 'required' }, { store });
    const big = 'x'.repeat(1_200_000);
    const answers = { a: { action: 'accept', content: { note: big.slice(0, 70_000) } } };
    const refusals = [
      await rpc(server, 'tools/call', { name: 'job', arguments: {}, inputResponses: answers }),
      await rpc(server, 'tools/call', { name: 'job', arguments: {}, requestState: big }),
      await rpc(server, 'tools/call', { name: 'job', arguments: {} }, { caps: { ...WITH_TASKS, junk: big } }),
    ].map((response) => errorOf(response));
    expect(refusals.map((error) => error.code)).toEqual([-32602, -32602, -32602]);
    expect(refusals[0]?.message).toMatch(/inputResponses is \d+ bytes, over this server's 65536-byte limit/);
    expect(refusals[1]?.message).toMatch(/requestState is over/);
    expect(refusals[2]?.message).toMatch(/client information .* over this server's 16384-byte limit/);
    expect(create).not.toHaveBeenCalled();
  });

  it('past maxOpenTasksPerPrincipal a creation is -32029 and stores nothing; others, and finished tasks, are apart', async () => {
    const { server, store } = setup({ waits }, { waits: 'required' }, { maxOpenTasksPerPrincipal: 2 });
    const create = vi.spyOn(store, 'create');
    const alice = { token: 'a', issuer: 'https://as', clientId: 'c', subject: 'alice' };
    const bob = { ...alice, subject: 'bob' };
    const first = await create_(server, alice);
    await create_(server, alice);
    const refused = errorOf(
      await rpc(server, 'tools/call', { name: 'waits', arguments: {} }, { auth: alice }),
    );
    expect(refused).toEqual({
      code: TASK_QUOTA_EXCEEDED,
      message:
        'Too many open tasks: this caller already has 2, the most this server allows per principal; retry once one of them finishes, or cancel one',
      data: { retryAfterMs: 1_000, limit: 2, scope: 'principal' },
    });
    expect(refused.code).toBe(-32029);
    await create_(server, bob);
    // Anonymous callers are one principal.
    await create_(server);
    await create_(server);
    expect(errorOf(await rpc(server, 'tools/call', { name: 'waits', arguments: {} })).code).toBe(-32029);
    const stored = create.mock.settledResults.filter((r) => r.type === 'fulfilled').length;
    await rpc(server, 'tasks/cancel', { taskId: first }, { auth: alice });
    await create_(server, alice);
    expect(create.mock.settledResults.filter((r) => r.type === 'fulfilled').length).toBe(stored + 1);
  });

  it('past maxOpenTasks (every principal together) a creation is -32029 naming the server', async () => {
    const { server } = setup({ waits }, { waits: 'required' }, { maxOpenTasks: 3 });
    for (const subject of ['a', 'b', 'c']) await create_(server, { token: subject, subject });
    expect(
      errorOf(
        await rpc(
          server,
          'tools/call',
          { name: 'waits', arguments: {} },
          { auth: { token: 'd', subject: 'd' } },
        ),
      ),
    ).toEqual({
      code: -32029,
      message: 'Too many open tasks: this server already holds 3, the most it allows; retry later',
      data: { retryAfterMs: 1_000, limit: 3, scope: 'server' },
    });
  });

  it('of 50 concurrent creations by one principal, exactly the limit succeed', async () => {
    const { server, store } = setup({ waits }, { waits: 'required' }, { maxOpenTasksPerPrincipal: 7 });
    const create = vi.spyOn(store, 'create');
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () => rpc(server, 'tools/call', { name: 'waits', arguments: {} })),
    );
    const created = outcomes.filter((o) => (o as { result?: unknown }).result !== undefined);
    expect(created).toHaveLength(7);
    expect(outcomes.map((o) => (o as { error?: { code: number } }).error?.code ?? 'task').sort()).toEqual(
      [...Array(43).fill(-32029), ...Array(7).fill('task')].sort(),
    );
    expect(create.mock.settledResults.filter((r) => r.type === 'fulfilled')).toHaveLength(7);
  });

  it('sweeps expired tasks every sweepIntervalMs (default one minute) until close()', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      let now = 1_000_000;
      const { server, tasks, store } = setup(
        { waits },
        { waits: 'required' },
        { ttlMs: 1_000, clock: () => now },
      );
      const sweeps = vi.spyOn(store, 'deleteExpired');
      const taskId = await create_(server);
      await tasks.idle();
      now += 1_000;
      await vi.advanceTimersByTimeAsync(59_999);
      expect(sweeps).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(sweeps).toHaveBeenCalledWith(now);
      await vi.waitFor(async () => expect(await store.get(taskId)).toBeUndefined());
      await tasks.close();
      await vi.advanceTimersByTimeAsync(600_000);
      expect(sweeps).toHaveBeenCalledTimes(1);

      const quick = setup({ waits }, { waits: 'required' }, { sweepIntervalMs: 50, clock: () => now });
      const quickSweeps = vi.spyOn(quick.store, 'deleteExpired');
      await vi.advanceTimersByTimeAsync(500);
      expect(quickSweeps).toHaveBeenCalledTimes(10);
      for (const off of [0, false] as const) {
        const none = setup({}, {}, { sweepIntervalMs: off });
        const never = vi.spyOn(none.store, 'deleteExpired');
        await vi.advanceTimersByTimeAsync(600_000);
        expect(never).not.toHaveBeenCalled();
      }
    } finally {
      vi.useRealTimers();
    }
  });
});

/** Creates a `waits` task as `auth` (anonymous without); resolves to its id. */
async function create_(server: Server, auth?: object): Promise<string> {
  return create(server, 'waits', {}, auth);
}

describe('close()', () => {
  it('stops a round whose handler ignores its signal: what it returns later is dropped, unread', async () => {
    let finish = (_value: unknown) => {};
    const late = new Promise((resolve) => {
      finish = resolve;
    });
    const { server, tasks, logger } = setup({ stubborn: () => late }, { stubborn: 'required' });
    const taskId = await create(server, 'stubborn');
    await tasks.close();
    finish('not a CallToolResult');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(resultOf(await rpc(server, 'tasks/get', { taskId })).status).toBe('working');
    expect(logger.error).not.toHaveBeenCalled();
  });
});

describe('interrupted tasks (the runner died)', () => {
  /** A task left `working` by a runner that is gone: created on instance A, whose lease then ran out. */
  async function orphan(options: Partial<TasksOptions>) {
    let now = 5_000_000;
    const store = memoryTaskStore();
    const clock = () => now;
    const a = setup(
      { slow: () => new Promise(() => {}) },
      { slow: 'required' },
      { store, clock, leaseMs: 1_000 },
    );
    const taskId = await create(a.server, 'slow');
    await a.tasks.close();
    now += 1_001;
    const b = setup(
      { slow: () => text('again') },
      { slow: 'required' },
      { store, clock, leaseMs: 1_000, ...options },
    );
    return { taskId, b };
  }

  it('fails it with a clear error by default', async () => {
    const { taskId, b } = await orphan({});
    expect(resultOf(await rpc(b.server, 'tasks/get', { taskId }))).toMatchObject({
      status: 'failed',
      error: INTERRUPTED,
    });
  });

  it('runs it again on the reading instance with interrupted: "rerun"', async () => {
    const { taskId, b } = await orphan({ interrupted: 'rerun' });
    expect(resultOf(await rpc(b.server, 'tasks/get', { taskId })).status).toBe('working');
    expect(await pollTask(b.server, taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'again' }] },
    });
  });
});

describe('createTasks options', () => {
  it('rejects a missing store, bad durations and a second wrapped handler', () => {
    expect(() => createTasks({} as TasksOptions)).toThrow(TypeError);
    expect(() => createTasks({ store: memoryTaskStore(), ttlMs: 0 })).toThrow(RangeError);
    expect(() => createTasks({ store: memoryTaskStore(), leaseMs: 1.5 })).toThrow(RangeError);
    expect(() => createTasks({ store: memoryTaskStore(), interrupted: 'never' as never })).toThrow(TypeError);
    expect(() => createTasks({ store: memoryTaskStore(), maxParamsBytes: 0 })).toThrow(RangeError);
    expect(() => createTasks({ store: memoryTaskStore(), maxOpenTasks: -1 })).toThrow(RangeError);
    expect(() => createTasks({ store: memoryTaskStore(), maxOpenTasksPerPrincipal: '5' as never })).toThrow(
      '"maxOpenTasksPerPrincipal" expected a positive integer, got string',
    );
    expect(() => createTasks({ store: memoryTaskStore(), sweepIntervalMs: 1.5 })).toThrow(RangeError);
    expect(() => createTasks({ store: memoryTaskStore(), sweepIntervalMs: 2 ** 31 })).toThrow(RangeError);
    createTasks({
      store: memoryTaskStore(),
      maxOpenTasks: null,
      maxOpenTasksPerPrincipal: null,
      sweepIntervalMs: false,
    });
    const tasks = createTasks({ store: memoryTaskStore(), ttlMs: null });
    tasks.wrapCallTool(() => text('x'), {});
    expect(() => tasks.wrapCallTool(() => text('x'), {})).toThrow(/already wraps/);
  });
});
