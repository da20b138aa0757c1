// The bad-input table of the tasks extension, end to end: web Requests through the real HTTP handler (bearer
// principals), the McpServer's task fixtures, tasks in PGlite on disk. Each bad request gets its JSON-RPC error
// and the server keeps serving.
import { openTaskStore } from '@boomerang/demo-kit/task-store';
import { createTasks, type Tasks } from '@boomerang/tasks';
import { createHttpHandler } from '@boomerang/transport-http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEverythingServer, everythingTasks } from './everything-server.js';

type Body = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

const storage = openTaskStore();
const runtimes: Tasks[] = [];
/** The everything server over HTTP, on the shared PGlite store, its tasks run by `tasks`. */
function endpoint(tasks: Tasks) {
  runtimes.push(tasks);
  return createHttpHandler(createEverythingServer({ tasks, logger: {} }), {
    // `Bearer <subject>`: each subject is its own principal.
    authenticate: (request) => {
      const subject = request.headers.get('authorization')?.replace(/^Bearer /, '');
      return subject === undefined ? undefined : { token: subject, clientId: 'host', subject };
    },
  });
}
let handler: ReturnType<typeof createHttpHandler>;
beforeAll(async () => {
  handler = endpoint(everythingTasks(storage.store));
  await storage.store.get('warm-up'); // PGlite's first start, outside the tests' timeouts
}, 120_000);
afterAll(async () => {
  await Promise.all(runtimes.map((tasks) => tasks.close()));
  await storage.close();
});

let nextId = 1;
/** One request as `as` (a bearer subject), with the headers the endpoint checks; resolves to status and body. */
async function rpc(
  method: string,
  params: Record<string, unknown>,
  options: { as?: string; via?: typeof handler; body?: string } = {},
): Promise<{ status: number; body: Body }> {
  const name = method === 'tools/call' ? params.name : params.taskId;
  const response = await (options.via ?? handler)(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
        authorization: `Bearer ${options.as ?? 'alice'}`,
      },
      body:
        options.body ??
        JSON.stringify({
          jsonrpc: '2.0',
          id: nextId++,
          method,
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {
                elicitation: { form: {} },
                extensions: { 'io.modelcontextprotocol/tasks': {} },
              },
            },
            ...params,
          },
        }),
    }),
  );
  return { status: response.status, body: (await response.json()) as Body };
}

async function result(method: string, params: Record<string, unknown>, as = 'alice') {
  const { body } = await rpc(method, params, { as });
  if (body.result === undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

async function error(method: string, params: Record<string, unknown>, as = 'alice') {
  const { body } = await rpc(method, params, { as });
  if (body.error === undefined) throw new Error(`${method} answered ${JSON.stringify(body.result)}`);
  return body.error;
}

async function poll(taskId: string, until: (task: Record<string, unknown>) => boolean, as = 'alice') {
  for (let i = 0; i < 300; i++) {
    const task = await result('tasks/get', { taskId }, as);
    if (until(task)) return task;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`task ${taskId} never got there`);
}

/** A `confirm_delete` task of `as`, waiting for its answer; resolves to its id and question key. */
async function waiting(as = 'alice') {
  const created = await result(
    'tools/call',
    { name: 'confirm_delete', arguments: { filename: 'a.txt' } },
    as,
  );
  const taskId = created.taskId as string;
  const task = await poll(taskId, (t) => t.status === 'input_required', as);
  return { taskId, key: Object.keys(task.inputRequests as object)[0] as string, task };
}

const yes = { action: 'accept', content: { confirm: true } };
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {
    elicitation: { form: {} },
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};
const NOT_FOUND = { code: -32602, message: 'Failed to retrieve task: Task not found' };

describe('tasks: bad input, end to end (HTTP, McpServer, PGlite)', () => {
  it('an unknown task id is -32602 for get, update and cancel', async () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      expect(await error(method, { taskId: 'f'.repeat(64), inputResponses: {} })).toEqual(NOT_FOUND);
    }
  });

  it('another principal’s task answers exactly as an unknown one, and is left as it was', async () => {
    const { taskId, key, task } = await waiting('alice');
    for (const [method, extra] of [
      ['tasks/get', {}],
      ['tasks/update', { inputResponses: { [key]: yes } }],
      ['tasks/cancel', {}],
    ] as const) {
      expect(await error(method, { taskId, ...extra }, 'mallory')).toEqual(NOT_FOUND);
    }
    expect(await result('tasks/get', { taskId })).toEqual(task);
  });

  it('an expired task is -32602 "Task has expired"', async () => {
    const shortLived = endpoint(createTasks({ store: storage.store, ttlMs: 50 }));
    const { body } = await rpc(
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0 } },
      { via: shortLived },
    );
    const taskId = body.result?.taskId as string;
    await new Promise((resolve) => setTimeout(resolve, 60));
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      expect((await rpc(method, { taskId, inputResponses: {} }, { via: shortLived })).body.error).toEqual({
        code: -32602,
        message: 'Failed to retrieve task: Task has expired',
      });
    }
  });

  it('tasks/update of a task that is working, completed or cancelled is -32602', async () => {
    const working = await result('tools/call', { name: 'slow_compute', arguments: { seconds: 60 } });
    expect(await error('tasks/update', { taskId: working.taskId, inputResponses: {} })).toEqual({
      code: -32602,
      message: 'Task is not waiting for input (its status is working)',
    });
    await result('tasks/cancel', { taskId: working.taskId });
    const done = await result('tools/call', { name: 'slow_compute', arguments: { seconds: 0 } });
    await poll(done.taskId as string, (t) => t.status === 'completed');
    expect(await error('tasks/update', { taskId: done.taskId, inputResponses: {} })).toEqual({
      code: -32602,
      message: 'Task is completed: it takes no more input',
    });
  });

  it('an update after a cancel is -32602, and the task stays cancelled', async () => {
    const { taskId, key } = await waiting();
    expect(await result('tasks/cancel', { taskId })).toMatchObject({ resultType: 'complete' });
    expect(await error('tasks/update', { taskId, inputResponses: { [key]: yes } })).toEqual({
      code: -32602,
      message: 'Task is cancelled: it takes no more input',
    });
    expect(await result('tasks/get', { taskId })).toMatchObject({ status: 'cancelled' });
  });

  it('answers under keys never asked are ignored (acknowledged, nothing recorded)', async () => {
    const { taskId, key, task } = await waiting();
    const ack = await result('tasks/update', { taskId, inputResponses: { 'never-asked': yes, '9.x': yes } });
    expect(ack).toMatchObject({ resultType: 'complete' });
    expect(await result('tasks/get', { taskId })).toEqual(task);
    await result('tasks/update', { taskId, inputResponses: { [key]: yes } });
    expect(await poll(taskId, (t) => t.status === 'completed')).toMatchObject({
      result: { content: [{ text: 'Deleted a.txt' }] },
    });
  });

  it('oversized answers are -32602 (over the tasks limit) or refused by the endpoint (over its body limit)', async () => {
    const { taskId, key, task } = await waiting();
    const big = { action: 'accept', content: { confirm: true, note: 'x'.repeat(70_000) } };
    const refused = await error('tasks/update', { taskId, inputResponses: { [key]: big } });
    expect(refused).toMatchObject({ code: -32602 });
    expect(refused.message).toMatch(/over this server's 65536-byte limit/);
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tasks/update',
      params: {
        taskId,
        inputResponses: { [key]: { action: 'accept', content: { note: 'x'.repeat(5_000_000) } } },
      },
    });
    const { status } = await rpc('tasks/update', { taskId }, { body: huge });
    expect(status).toBe(413);
    expect(await result('tasks/get', { taskId })).toEqual(task);
  });

  it('answers of the wrong kind or shape are -32602, and the task keeps waiting for a good one', async () => {
    const { taskId, key, task } = await waiting();
    for (const answer of [
      { action: 'maybe' },
      { action: 'accept', content: { confirm: 'yes' } },
      { action: 'accept', content: {} },
    ]) {
      const refused = await error('tasks/update', { taskId, inputResponses: { [key]: answer } });
      expect(refused.code).toBe(-32602);
      expect(refused.message).toContain(`inputResponses["${key}"]`);
    }
    expect(await result('tasks/get', { taskId })).toEqual(task);
    await result('tasks/update', {
      taskId,
      inputResponses: { [key]: { action: 'accept', content: { confirm: false } } },
    });
    expect(await poll(taskId, (t) => t.status === 'completed')).toMatchObject({
      result: { content: [{ text: 'Kept a.txt' }] },
    });
  });

  it('of two concurrent tasks/update exactly one wins; the other gets a clear -32602', async () => {
    const { taskId, key } = await waiting();
    const outcomes = await Promise.all([
      rpc('tasks/update', { taskId, inputResponses: { [key]: yes } }),
      rpc('tasks/update', {
        taskId,
        inputResponses: { [key]: { action: 'accept', content: { confirm: false } } },
      }),
    ]);
    const won = outcomes.findIndex((o) => o.body.result !== undefined);
    const lost = outcomes.filter((o) => o.body.error !== undefined);
    expect(lost).toHaveLength(1);
    expect(lost[0]?.body.error?.code).toBe(-32602);
    expect(lost[0]?.body.error?.message).toMatch(
      /concurrent tasks\/update won|not waiting for input \(its status is working\)|it takes no more input/,
    );
    expect(await poll(taskId, (t) => t.status === 'completed')).toMatchObject({
      result: { content: [{ text: won === 0 ? 'Deleted a.txt' : 'Kept a.txt' }] },
    });
  });

  it('a tasks/update answer nested 20,000 deep is -32602 (not -32603), and the task keeps waiting', async () => {
    const { taskId, key, task } = await waiting();
    // Written by hand: JSON.stringify itself would exhaust the stack on a value this deep.
    const deep = `${'['.repeat(10_000)}${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}${']'.repeat(10_000)}`;
    for (const answer of [
      `{"action":"accept","content":{"confirm":true},"deep":${deep}}`,
      `{"action":"accept","content":{"confirm":${deep}}}`,
    ]) {
      const body = `{"jsonrpc":"2.0","id":${nextId++},"method":"tasks/update","params":{"_meta":${JSON.stringify(META)},"taskId":"${taskId}","inputResponses":{${JSON.stringify(key)}:${answer}}}}`;
      const { status, body: reply } = await rpc('tasks/update', { taskId }, { body });
      expect(status).toBe(400);
      expect(reply.error).toEqual({
        code: -32602,
        message: 'Invalid params: inputResponses nests deeper than 512 levels',
      });
    }
    expect(await result('tasks/get', { taskId })).toEqual(task);
  });

  it('an answer holding a NUL or half a surrogate pair is taken and stored as sent (valid JSON strings)', async () => {
    const { taskId, key } = await waiting();
    const odd = { action: 'accept', content: { confirm: true, note: 'nul \u0000, half a pair \ud800' } };
    expect(await result('tasks/update', { taskId, inputResponses: { [key]: odd } })).toMatchObject({
      resultType: 'complete',
    });
    expect(await poll(taskId, (t) => t.status === 'completed')).toMatchObject({
      result: { content: [{ text: 'Deleted a.txt' }] },
    });
  });

  it('task ids with NUL or other control characters are -32602 and never reach PGlite', async () => {
    const read = vi.fn(storage.store.get);
    const mcp = createEverythingServer({
      tasks: everythingTasks({ ...storage.store, get: read }),
      logger: {},
    });
    for (const taskId of ['ab\u0000cd', '\u0000', `${'f'.repeat(63)}\u0000`, 'line\nbreak']) {
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
        // Through the server itself (as over stdio): over HTTP the Mcp-Name header cannot carry a NUL.
        const reply = await mcp.handle(
          { jsonrpc: '2.0', id: nextId++, method, params: { _meta: META, taskId, inputResponses: {} } },
          { auth: { token: 'alice', clientId: 'host', subject: 'alice' } },
        );
        expect(reply).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/taskId/) } });
      }
    }
    expect(read).not.toHaveBeenCalled();
  });

  it('tool arguments over 1 MiB, or nested 20,000 deep, are -32602 and store nothing', async () => {
    const create = vi.fn(storage.store.create);
    const via = endpoint(createTasks({ store: { ...storage.store, create } }));
    const junk = 'x'.repeat(1_048_576);
    const big = await rpc(
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0, label: junk } },
      { via },
    );
    expect(big.body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/1048576-byte limit/),
    });
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const body = `{"jsonrpc":"2.0","id":${nextId++},"method":"tools/call","params":{"_meta":${JSON.stringify(META)},"name":"slow_compute","arguments":{"seconds":0,"label":${deep}}}}`;
    const nested = await rpc('tools/call', { name: 'slow_compute' }, { via, body });
    expect(nested.body.error).toMatchObject({ code: -32602 });
    expect(create).not.toHaveBeenCalled();
  });

  it('past the open tasks allowed per principal a creation is -32029, and other principals go on', async () => {
    const via = endpoint(createTasks({ store: storage.store, maxOpenTasksPerPrincipal: 2 }));
    const slow = { name: 'slow_compute', arguments: { seconds: 60 } };
    for (let i = 0; i < 2; i++) {
      expect((await rpc('tools/call', slow, { via, as: 'quota-probe' })).body.result?.resultType).toBe(
        'task',
      );
    }
    const refused = await rpc('tools/call', slow, { via, as: 'quota-probe' });
    expect(refused.body.error).toMatchObject({
      code: -32029,
      data: { limit: 2, scope: 'principal', retryAfterMs: 1_000 },
    });
    expect((await rpc('tools/call', slow, { via, as: 'quota-other' })).body.result?.resultType).toBe('task');
  });

  it('keeps serving after all of it', async () => {
    expect(await result('tools/call', { name: 'greet', arguments: { name: 'still here' } })).toMatchObject({
      content: [{ text: 'Hello, still here!' }],
    });
  });
});
