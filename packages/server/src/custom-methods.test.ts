import { type InputRequest, inputRequired } from '@boomerang/protocol';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineMethod } from './custom-methods.js';
import { sealed } from './sealed.js';
import { Server } from './server.js';
import { errorOf, meta, recordingLogger, request, resultOf } from './test-support/wire.js';
import type { MethodDefinition, RequestContext, ServerExtension } from './types.js';

const info = { name: 'custom', version: '1.0.0' };
const TASKS = 'io.modelcontextprotocol/tasks';
const confirm = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Search that?',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  },
} as InputRequest;

const search = defineMethod({
  params: z.object({ query: z.string(), limit: z.number().int().positive().default(10) }),
  handler: ({ query, limit }) => ({ hits: [`${query}:${limit}`] }),
});

/** Asks once, then answers with what the client said and the state it echoed (plaintext to the handler). */
const guarded = defineMethod({
  params: z.object({ query: z.string() }),
  inputRequired: true,
  handler: ({ query }, ctx) => {
    const answer = ctx.inputResponses?.confirm;
    if (answer === undefined) {
      return inputRequired({ inputRequests: { confirm }, requestState: `asked:${query}` });
    }
    return { answer, state: ctx.requestState ?? null };
  },
});

function makeServer(extra: ConstructorParameters<typeof Server>[1] = {}) {
  const logger = recordingLogger();
  const server = new Server(info, {
    logger,
    methods: { 'acme/search': search, 'acme/guarded': guarded },
    ...extra,
  });
  return { server, logger };
}

describe('custom methods', () => {
  it('validate params with the schema and hand the handler its output, stamping the result', async () => {
    const { server } = makeServer();
    const result = resultOf(await server.handle(request('acme/search', { query: 'moby' })));
    expect(result).toEqual({
      hits: ['moby:10'],
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': info },
    });
  });

  it('answer -32602 naming the field for invalid params, and never run the handler', async () => {
    let ran = false;
    const server = new Server(info, {
      methods: {
        'acme/x': defineMethod({
          params: z.strictObject({ n: z.number() }),
          handler: () => {
            ran = true;
            return {};
          },
        }),
      },
    });
    const error = errorOf(await server.handle(request('acme/x', { n: 'one' })));
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('params.n') });
    // `_meta` is not part of the method's own params, so a strict schema accepts a well-formed request.
    expect(resultOf(await server.handle(request('acme/x', { n: 1 })))).toMatchObject({
      resultType: 'complete',
    });
    expect(ran).toBe(true);
  });

  it('check _meta like any request (-32602 without it, -32022 for an unsupported version)', async () => {
    const { server } = makeServer();
    const bare = { jsonrpc: '2.0', id: 1, method: 'acme/search', params: { query: 'x' } };
    expect(errorOf(await server.handle(bare)).code).toBe(-32602);
    const old = request('acme/search', {
      query: 'x',
      _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
    });
    expect(errorOf(await server.handle(old)).code).toBe(-32022);
  });

  it('accept asynchronous Standard Schemas', async () => {
    const server = new Server(info, {
      methods: {
        'acme/async': defineMethod({
          params: z.object({ name: z.string().refine(async (s) => s !== 'taken', 'name is taken') }),
          handler: ({ name }) => ({ name }),
        }),
      },
    });
    expect(resultOf(await server.handle(request('acme/async', { name: 'free' })))).toMatchObject({
      name: 'free',
    });
    expect(errorOf(await server.handle(request('acme/async', { name: 'taken' })))).toMatchObject({
      code: -32602,
      message: 'Invalid params: params.name: name is taken',
    });
  });

  it('run two rounds: input requests checked against the client capabilities, state round-tripped', async () => {
    const { server } = makeServer();
    const caps = { elicitation: { form: {} } };
    const first = resultOf(await server.handle(request('acme/guarded', { query: 'q' }, { caps })));
    expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { confirm } });
    const retry = request(
      'acme/guarded',
      {
        query: 'q',
        inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
        requestState: first.requestState,
      },
      { caps },
    );
    expect(resultOf(await server.handle(retry))).toMatchObject({
      resultType: 'complete',
      answer: { action: 'accept', content: { ok: true } },
      state: 'asked:q',
    });
    const without = errorOf(await server.handle(request('acme/guarded', { query: 'q' })));
    expect(without).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
  });

  it('seal their state bound to the method and its params', async () => {
    const { server } = makeServer({ requestState: sealed({ keys: [new Uint8Array(32).fill(7)] }) });
    const caps = { elicitation: {} };
    const first = resultOf(await server.handle(request('acme/guarded', { query: 'q' }, { caps })));
    expect(first.requestState).not.toContain('asked');
    const answer = { confirm: { action: 'accept', content: { ok: true } } };
    const retry = (query: string) =>
      request('acme/guarded', { query, inputResponses: answer, requestState: first.requestState }, { caps });
    expect(resultOf(await server.handle(retry('q')))).toMatchObject({ state: 'asked:q' });
    expect(errorOf(await server.handle(retry('other')))).toEqual({
      code: -32602,
      message: 'Invalid or expired requestState',
    });
  });

  it('may not answer input_required unless declared so (-32603, reason in the log)', async () => {
    const { server, logger } = makeServer({
      methods: {
        'acme/rogue': defineMethod({
          params: z.object({}),
          handler: () => inputRequired({ requestState: 's' }),
        }),
      },
    });
    expect(errorOf(await server.handle(request('acme/rogue')))).toEqual({
      code: -32603,
      message: 'Internal error',
    });
    expect(logger.lines.at(-1)?.details).toMatchObject({
      error: { message: expect.stringContaining('inputRequired') },
    });
  });

  it('treat inputResponses and requestState as plain params on a method that never asks', async () => {
    let seen: unknown;
    const server = new Server(info, {
      methods: {
        'acme/plain': defineMethod({
          params: z.object({ requestState: z.string() }),
          handler: (params, ctx) => {
            seen = [params, ctx.requestState];
            return {};
          },
        }),
      },
    });
    await server.handle(request('acme/plain', { requestState: 'mine' }));
    expect(seen).toEqual([{ requestState: 'mine' }, undefined]);
  });

  it('validate the result when a result schema is given (a mismatch is -32603)', async () => {
    const { server, logger } = makeServer({
      methods: {
        'acme/typed': defineMethod({
          params: z.object({}),
          result: z.object({ count: z.number() }),
          handler: () => ({ count: 'many' }),
        }),
      },
    });
    expect(errorOf(await server.handle(request('acme/typed'))).code).toBe(-32603);
    const details = logger.lines.at(-1)?.details as { error: Error } | undefined;
    expect(details?.error.message).toContain('result.count');
  });

  it('get cancellation, progress and logs through ctx like built-in methods', async () => {
    const notes: unknown[] = [];
    const server = new Server(info, {
      capabilities: { logging: {} },
      methods: {
        'acme/slow': defineMethod({
          params: z.object({}),
          handler: async (_params, ctx: RequestContext) => {
            await ctx.sendProgress(1, 2);
            await ctx.log('info', 'half way');
            return { aborted: ctx.signal.aborted };
          },
        }),
      },
    });
    const message = request('acme/slow', {
      _meta: meta({}, { progressToken: 'p', 'io.modelcontextprotocol/logLevel': 'info' }),
    });
    const result = resultOf(await server.handle(message, { notify: (n) => void notes.push(n) }));
    expect(result).toMatchObject({ aborted: false });
    expect(notes).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p', progress: 1, total: 2 },
      },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'half way' } },
    ]);
    const controller = new AbortController();
    controller.abort();
    expect(
      await server.handle(request('acme/search', { query: 'x' }), { signal: controller.signal }),
    ).toBeUndefined();
  });

  it('leave unknown methods -32601', async () => {
    const { server } = makeServer();
    expect(errorOf(await server.handle(request('acme/unknown'))).code).toBe(-32601);
  });

  it.each([
    'tools/call',
    'server/discover',
    'subscriptions/listen',
    'initialize',
    'ping',
    'notifications/progress',
    '',
  ])('refuse the built-in name %j at construction', (name) => {
    expect(() => new Server(info, { methods: { [name]: search } })).toThrow(TypeError);
  });

  it.each([
    [{ handler: () => ({}) }, /params expected a Standard Schema/],
    [{ params: { safeParse: () => ({}) }, handler: () => ({}) }, /params expected a Standard Schema/],
    [{ params: z.object({}) }, /handler expected a function/],
    [{ params: z.object({}), handler: () => ({}), inputRequired: 'yes' }, /inputRequired expected a boolean/],
    [{ params: z.object({}), handler: () => ({}), result: {} }, /result expected a Standard Schema/],
    ['nope', /expected \{ params, handler \}/],
  ])('refuse a bad definition %#', (definition, message) => {
    expect(() => new Server(info, { methods: { 'acme/x': definition as never } })).toThrow(message);
  });

  it('types handler params from the schema', () => {
    expectTypeOf(search).toEqualTypeOf<MethodDefinition<typeof search.params>>();
    defineMethod({
      params: z.object({ n: z.number() }),
      handler: (params) => {
        expectTypeOf(params).toEqualTypeOf<{ n: number }>();
        return {};
      },
    });
  });
});

describe('extensions', () => {
  const TaskSchema = z.object({ resultType: z.literal('task'), taskId: z.string() }).loose();
  const tasks: ServerExtension = {
    id: TASKS,
    methods: {
      'tasks/get': defineMethod({
        params: z.object({ taskId: z.string() }),
        handler: ({ taskId }) => ({ taskId }),
      }),
    },
    resultTypes: { task: { methods: ['tools/call'], result: TaskSchema } },
  };

  function withTasks(returned: Record<string, unknown>) {
    const logger = recordingLogger();
    const server = new Server(info, {
      logger,
      extensions: [tasks],
      onListTools: () => ({ tools: [] }),
      onCallTool: () => returned as never,
    });
    return { server, logger };
  }

  it('are advertised under capabilities.extensions and serve their methods', async () => {
    const { server } = withTasks({ content: [] });
    const discovered = resultOf(await server.handle(request('server/discover')));
    expect(discovered.capabilities).toEqual({ tools: {}, extensions: { [TASKS]: {} } });
    expect(server.capabilities.extensions).toEqual({ [TASKS]: {} });
    expect(resultOf(await server.handle(request('tasks/get', { taskId: 't1' })))).toMatchObject({
      taskId: 't1',
    });
  });

  it('let a method answer with their result type when the request declares the extension', async () => {
    // `ttlMs` is the extension's own member here (a task's time to live): kept, and no cache hints added.
    const { server } = withTasks({ resultType: 'task', taskId: 't1', ttlMs: 5 });
    const caps = { extensions: { [TASKS]: {} } };
    const result = resultOf(await server.handle(request('tools/call', { name: 'x' }, { caps })));
    expect(result).toEqual({
      resultType: 'task',
      taskId: 't1',
      ttlMs: 5,
      _meta: { 'io.modelcontextprotocol/serverInfo': info },
    });
  });

  it('never send their result type to a request that did not declare the extension (-32021)', async () => {
    const { server } = withTasks({ resultType: 'task', taskId: 't1' });
    expect(errorOf(await server.handle(request('tools/call', { name: 'x' })))).toEqual({
      code: -32021,
      message: `Missing required client capability: extensions["${TASKS}"]`,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
  });

  it('check their result type with its schema, and only on the methods they name (-32603)', async () => {
    const caps = { extensions: { [TASKS]: {} } };
    const { server } = withTasks({ resultType: 'task', taskId: 7 });
    expect(errorOf(await server.handle(request('tools/call', { name: 'x' }, { caps }))).code).toBe(-32603);
    const other = new Server(info, {
      logger: recordingLogger(),
      extensions: [tasks],
      onListTools: () => ({ resultType: 'task', taskId: 'x' }) as never,
    });
    expect(errorOf(await other.handle(request('tools/list', {}, { caps }))).code).toBe(-32603);
  });

  it('merge their settings with the declared capabilities', async () => {
    const server = new Server(info, {
      extensions: [{ id: 'acme/ext', settings: { depth: 2 } }],
      capabilities: { extensions: { 'other/ext': {} } },
    });
    expect(server.capabilities.extensions).toEqual({ 'other/ext': {}, 'acme/ext': { depth: 2 } });
  });

  it.each([
    [[{}], /non-empty id/],
    [[{ id: 'a' }, { id: 'a' }], /registered twice/],
    [[{ id: 'a', settings: [] }], /settings expected a plain object/],
    [
      [{ id: 'a', resultTypes: { complete: { methods: ['tools/call'], result: z.object({}) } } }],
      /protocol result type/,
    ],
    [
      [{ id: 'a', resultTypes: { task: { methods: 'tools/call', result: z.object({}) } } }],
      /methods expected an array/,
    ],
    [[{ id: 'a', resultTypes: { task: { methods: ['tools/call'] } } }], /result expected a Standard Schema/],
    [
      [
        { id: 'a', methods: { 'x/y': search } },
        { id: 'b', methods: { 'x/y': search } },
      ],
      /already defined/,
    ],
    ['nope', /expected an array/],
  ])('refuse bad extensions %#', (extensions, message) => {
    expect(() => new Server(info, { extensions: extensions as never })).toThrow(message);
  });
});

describe('capabilities read live', () => {
  it('serve a built-in method only while its feature is in force', async () => {
    let caps: Record<string, unknown> = {};
    const server = new Server(info, {
      capabilities: () => caps,
      onListTools: () => ({ tools: [] }),
      onListPrompts: () => ({ prompts: [] }),
    });
    expect(errorOf(await server.handle(request('tools/list'))).code).toBe(-32601);
    caps = { tools: {} };
    expect(resultOf(await server.handle(request('tools/list')))).toMatchObject({ tools: [] });
    expect(errorOf(await server.handle(request('prompts/list'))).code).toBe(-32601);
    expect(resultOf(await server.handle(request('server/discover'))).capabilities).toEqual({ tools: {} });
  });

  it('fail the request when the function returns something other than an object', async () => {
    const server = new Server(info, {
      logger: recordingLogger(),
      capabilities: () => null as never,
      onListTools: () => ({ tools: [] }),
    });
    expect(errorOf(await server.handle(request('tools/list'))).code).toBe(-32603);
  });
});

describe('server.addMethod', () => {
  it('serves a method from now on and stops with remove()', async () => {
    const server = new Server(info, {});
    expect(errorOf(await server.handle(request('acme/search', { query: 'a' }))).code).toBe(-32601);
    const handle = server.addMethod('acme/search', search);
    expect(resultOf(await server.handle(request('acme/search', { query: 'a' })))).toMatchObject({
      hits: ['a:10'],
    });
    handle.remove();
    expect(errorOf(await server.handle(request('acme/search', { query: 'a' }))).code).toBe(-32601);
  });

  it('refuses built-in names (TypeError), taken names (Error) and bad definitions', () => {
    const server = new Server(info, { methods: { 'acme/search': search } });
    expect(() => server.addMethod('tools/list', search)).toThrow(TypeError);
    expect(() => server.addMethod('acme/search', search)).toThrow('already defined');
    expect(() => server.addMethod('acme/y', {} as never)).toThrow(TypeError);
    expect(() => server.addMethod(1 as never, search)).toThrow(TypeError);
  });

  it('removes only its own registration', async () => {
    const server = new Server(info, {});
    const first = server.addMethod('acme/search', search);
    first.remove();
    server.addMethod(
      'acme/search',
      defineMethod({ params: z.object({}), handler: () => ({ second: true }) }),
    );
    first.remove();
    expect(resultOf(await server.handle(request('acme/search')))).toMatchObject({ second: true });
  });
});
