import { Client } from '@boomerang/client';
import { elicitRequest, inputRequired, McpError } from '@boomerang/protocol';
import { connectInMemory } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './mcp-server.js';
import { elicit, ResolverGraphError, resolver } from './resolvers/index.js';
import { errorOf, recordingLogger, request, resultOf, textOf } from './test-support/wire.js';

const quiet = () => ({ logger: recordingLogger() });
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

describe('tools: registration and tools/list', () => {
  it('publishes inputSchema (2020-12, input side), outputSchema and metadata, in registration order', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    mcp.tool('b', { description: 'second' }, () => text('b'));
    mcp.tool(
      'a',
      {
        title: 'A',
        description: 'first',
        input: z.object({ q: z.string().describe('query'), n: z.number().default(1) }),
        output: z.object({ hits: z.number() }),
        annotations: { readOnlyHint: true },
        icons: [{ src: 'https://x.example/i.png' }],
        _meta: { 'example.com/k': 1 },
      },
      () => ({ structuredContent: { hits: 1 } }),
    );
    const result = resultOf(await mcp.handle(request('tools/list')));
    expect(result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    const tools = result.tools as Record<string, unknown>[];
    expect(tools.map((t) => t.name)).toEqual(['b', 'a']);
    expect(tools[0]).toEqual({
      name: 'b',
      description: 'second',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {},
      },
    });
    expect(tools[1]).toMatchObject({
      title: 'A',
      annotations: { readOnlyHint: true },
      icons: [{ src: 'https://x.example/i.png' }],
      _meta: { 'example.com/k': 1 },
      inputSchema: {
        type: 'object',
        properties: { q: { type: 'string', description: 'query' }, n: { type: 'number', default: 1 } },
        required: ['q'],
      },
      outputSchema: { type: 'object', properties: { hits: { type: 'number' } }, required: ['hits'] },
    });
  });

  it('paginates with pageSize through opaque cursors, stable across removals', async () => {
    const mcp = new McpServer({ name: 's', version: '1' }, { pageSize: 2 });
    const handles = ['t1', 't2', 't3', 't4', 't5'].map((n) => mcp.tool(n, {}, () => text(n)));
    const page1 = resultOf(await mcp.handle(request('tools/list')));
    expect((page1.tools as { name: string }[]).map((t) => t.name)).toEqual(['t1', 't2']);
    expect(typeof page1.nextCursor).toBe('string');
    handles[1]?.remove();
    handles[2]?.remove();
    const page2 = resultOf(await mcp.handle(request('tools/list', { cursor: page1.nextCursor })));
    expect((page2.tools as { name: string }[]).map((t) => t.name)).toEqual(['t4', 't5']);
    expect(page2).not.toHaveProperty('nextCursor');
    const forged = request('tools/list', {
      cursor: Buffer.from('[1,"tools/list","x"]').toString('base64url'),
    });
    expect(errorOf(await mcp.handle(forged))).toMatchObject({ code: -32602, message: 'Invalid cursor' });
  });

  it('handles update metadata and remove the tool; the name can be registered again', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    const handle = mcp.tool('t', { description: 'old' }, () => text('v1'));
    expect(handle.name).toBe('t');
    expect(() => mcp.tool('t', {}, () => text('dup'))).toThrow("tool 't' is already registered");
    handle.update({ description: 'new', title: 'T' });
    expect(() => handle.update({ input: z.object({}) } as never)).toThrow('unknown config member "input"');
    const listed = resultOf(await mcp.handle(request('tools/list'))).tools as Record<string, unknown>[];
    expect(listed[0]).toMatchObject({ name: 't', description: 'new', title: 'T' });
    handle.remove();
    handle.remove();
    expect(() => handle.update({ title: 'x' })).toThrow(/was removed/);
    expect(resultOf(await mcp.handle(request('tools/list'))).tools).toEqual([]);
    expect(errorOf(await mcp.handle(request('tools/call', { name: 't' })))).toEqual({
      code: -32602,
      message: 'Unknown tool: t',
    });
    mcp.tool('t', {}, () => text('v2'));
    expect(textOf(resultOf(await mcp.handle(request('tools/call', { name: 't' }))))).toBe('v2');
  });

  it('warns about tool names outside the spec recommendation, but serves them', async () => {
    const logger = recordingLogger();
    const mcp = new McpServer({ name: 's', version: '1' }, { logger });
    mcp.tool('get user', {}, () => text('ok'));
    mcp.tool('admin.tools_list-v2', {}, () => text('ok'));
    expect(logger.lines.map((l) => l.message)).toEqual([
      "tool name 'get user' is outside the spec's recommendation (1-128 of A-Z a-z 0-9 _ - .): some clients may reject it",
    ]);
    expect(textOf(resultOf(await mcp.handle(request('tools/call', { name: 'get user' }))))).toBe('ok');
  });

  it('rejects bad registrations with TypeError / ResolverGraphError', () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    expect(() => mcp.tool('', {}, () => text(''))).toThrow(TypeError);
    expect(() => mcp.tool('x', { nope: 1 } as never, () => text(''))).toThrow('unknown config member "nope"');
    expect(() => mcp.tool('x', {}, 'no' as never)).toThrow(TypeError);
    expect(() => mcp.tool('x', { input: 'nope' as never }, () => text(''))).toThrow(
      `tool 'x': "input" expected a Standard Schema (zod 4, valibot, arktype…) or a JSON Schema object, got string`,
    );
    expect(() => mcp.tool('x', { input: z.string() as never }, () => text(''))).toThrow(
      `tool 'x': "input" must describe an object (JSON Schema type "object"), got type "string"`,
    );
    expect(() => mcp.tool('x', { input: z.object({ d: z.date() }) }, () => text(''))).toThrow(
      /cannot be published as JSON Schema/,
    );
    const r = resolver({ args: ['missing'] }, () => 1);
    expect(() =>
      mcp.tool('x', { input: z.object({ a: z.string() }), resolve: { r } as never }, () => text('')),
    ).toThrow(ResolverGraphError);
    const v = resolver({}, () => 1);
    expect(() =>
      mcp.tool('x', { input: z.object({ v: z.string() }), resolve: { v } as never }, () => text('')),
    ).toThrow(/collides with an input property/);
  });
});

describe('tools: tools/call', () => {
  it('validates arguments: a failure is an isError result the model can read', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    mcp.tool('echo', { input: z.object({ n: z.number().int() }) }, ({ n }) => text(`n=${n}`));
    const bad = resultOf(await mcp.handle(request('tools/call', { name: 'echo', arguments: { n: 'x' } })));
    expect(bad).toMatchObject({ isError: true, resultType: 'complete' });
    expect(textOf(bad)).toMatch(
      /^Invalid arguments for tool 'echo': arguments.n: Invalid input: expected number/,
    );
    const good = resultOf(await mcp.handle(request('tools/call', { name: 'echo', arguments: { n: 2 } })));
    expect(textOf(good)).toBe('n=2');
    expect(good).not.toHaveProperty('ttlMs');
  });

  it('turns a thrown error into an isError result with a stable text (details to the log), but passes an McpError through', async () => {
    const { logger } = quiet();
    const mcp = new McpServer({ name: 's', version: '1' }, { logger });
    mcp.tool('boom', {}, () => {
      throw new Error('disk full: /var/lib/orders/db.sqlite');
    });
    mcp.tool('mcp', {}, async () => {
      throw new McpError(-32021, 'need roots', { requiredCapabilities: { roots: {} } });
    });
    const boom = resultOf(await mcp.handle(request('tools/call', { name: 'boom' })));
    expect(boom).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: "Tool 'boom' failed with an internal error" }],
    });
    expect(JSON.stringify(boom)).not.toContain('disk full');
    expect(logger.lines[0]).toMatchObject({
      message: "tool 'boom' threw; the model gets an isError result",
      error: 'disk full: /var/lib/orders/db.sqlite',
    });
    expect(errorOf(await mcp.handle(request('tools/call', { name: 'mcp' })))).toEqual({
      code: -32021,
      message: 'need roots',
      data: { requiredCapabilities: { roots: {} } },
    });
  });

  it('validates structuredContent against the output schema and adds the JSON text block', async () => {
    const { logger } = quiet();
    const mcp = new McpServer({ name: 's', version: '1' }, { logger });
    const output = z.object({ total: z.number(), currency: z.string().default('EUR') });
    mcp.tool('price', { output }, () => ({ structuredContent: { total: 3 } }));
    mcp.tool('own', { output }, () => ({
      structuredContent: { total: 3 },
      content: [{ type: 'text', text: 'hi' }],
    }));
    mcp.tool('wrong', { output }, () => ({ structuredContent: { total: 'x' } }) as never);
    mcp.tool('missing', { output }, () => text('no structure') as never);
    mcp.tool('failed', { output }, () => ({ ...text('could not price'), isError: true }));
    const price = resultOf(await mcp.handle(request('tools/call', { name: 'price' })));
    expect(price).toMatchObject({
      structuredContent: { total: 3, currency: 'EUR' },
      content: [{ type: 'text', text: '{"total":3,"currency":"EUR"}' }],
    });
    expect(textOf(resultOf(await mcp.handle(request('tools/call', { name: 'own' }))))).toBe('hi');
    for (const name of ['wrong', 'missing']) {
      expect(errorOf(await mcp.handle(request('tools/call', { name })))).toEqual({
        code: -32603,
        message: 'Internal error',
      });
    }
    expect(JSON.stringify(logger.lines)).toContain('does not match its output schema');
    expect(resultOf(await mcp.handle(request('tools/call', { name: 'failed' })))).toMatchObject({
      isError: true,
    });
  });

  it('unknown tool → -32602', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    mcp.tool('t', {}, () => text(''));
    expect(errorOf(await mcp.handle(request('tools/call', { name: 'nope' })))).toEqual({
      code: -32602,
      message: 'Unknown tool: nope',
    });
  });

  it('a hand-built round: the handler returns an InputRequiredResult and reads the answers on the retry', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    const seen: (string | undefined)[] = [];
    mcp.tool('provision', { input: z.object({ name: z.string() }) }, ({ name }, resolved, ctx) => {
      expect(resolved).toEqual({});
      seen.push(ctx.requestState);
      const answer = ctx.inputResponses?.region as { content?: { region?: string } } | undefined;
      if (ctx.requestState === 'r1' && answer?.content?.region)
        return text(`${name} in ${answer.content.region}`);
      return inputRequired({
        inputRequests: {
          region: elicitRequest({
            message: 'Region?',
            requestedSchema: { type: 'object', properties: { region: { type: 'string' } } },
          }),
        },
        requestState: 'r1',
      });
    });
    const client = new Client(
      { name: 'c', version: '1' },
      { elicitation: async () => ({ action: 'accept', content: { region: 'eu' } }) },
    );
    await using _link = await connectInMemory(client, mcp);
    expect(textOf(await client.callTool('provision', { name: 'db' }))).toBe('db in eu');
    expect(seen).toEqual([undefined, 'r1']);
    const step = await client.start('tools/call', { name: 'provision', arguments: { name: 'db' } });
    if (step.continuation === undefined) throw new Error('expected input_required');
    expect(step.continuation.requestState).toEqual(expect.any(String));
    expect(step.continuation.requestState).not.toBe('r1');
  });
});

describe('tools: resolvers', () => {
  const stock = resolver({ args: ['title'] }, ({ title }: { title: string }) => ({
    count: title === 'Dune' ? 2 : 0,
  }));
  const backorder = resolver({ args: ['title'], uses: { stock } }, ({ title, stock: s }) =>
    s.count > 0 ? { confirm: true } : elicit(`Backorder ${title}?`, z.object({ confirm: z.boolean() })),
  );

  function shop() {
    const mcp = new McpServer({ name: 'shop', version: '1' });
    const calls: unknown[] = [];
    mcp.tool(
      'order_book',
      { input: z.object({ title: z.string() }), resolve: { stock, backorder } },
      (args, resolved) => {
        calls.push({ args, resolved });
        return text(resolved.backorder.confirm ? `ordered ${args.title}` : 'not ordered');
      },
    );
    return { mcp, calls };
  }

  it('resolved names are not in inputSchema, and a client-sent value under one is ignored', async () => {
    const { mcp, calls } = shop();
    const tools = resultOf(await mcp.handle(request('tools/list'))).tools as { inputSchema: unknown }[];
    expect(tools[0]?.inputSchema).toMatchObject({
      properties: { title: { type: 'string' } },
      required: ['title'],
    });
    expect(JSON.stringify(tools[0]?.inputSchema)).not.toMatch(/stock|backorder/);
    const args = { title: 'Dune', stock: { count: 99 }, backorder: { confirm: false } };
    expect(
      textOf(resultOf(await mcp.handle(request('tools/call', { name: 'order_book', arguments: args })))),
    ).toBe('ordered Dune');
    expect(calls).toEqual([
      { args: { title: 'Dune' }, resolved: { stock: { count: 2 }, backorder: { confirm: true } } },
    ]);
    // also with a strict or loose schema: the resolved names are dropped before validation
    mcp.tool('strict', { input: z.strictObject({ title: z.string() }), resolve: { stock } }, (a, r) =>
      text(`${a.title}:${r.stock.count}:${Object.keys(a).join()}`),
    );
    mcp.tool('loose', { input: z.looseObject({ title: z.string() }), resolve: { stock } }, (a) =>
      text(Object.keys(a).join()),
    );
    for (const [name, expected] of [
      ['strict', 'Dune:2:title'],
      ['loose', 'title,backorder,other'], // `backorder` is not resolved by 'loose'
    ]) {
      const call = request('tools/call', { name, arguments: { ...args, other: 1 } });
      const result = resultOf(await mcp.handle(call));
      expect(name === 'strict' ? result.isError : textOf(result)).toBe(name === 'strict' ? true : expected);
    }
    const strictCall = request('tools/call', { name: 'strict', arguments: { title: 'Dune', stock: 9 } });
    expect(textOf(resultOf(await mcp.handle(strictCall)))).toBe('Dune:2:title');
  });

  it('asks through an InputRequiredResult (sealed state), then runs the handler with the answer', async () => {
    const { mcp, calls } = shop();
    const answers: unknown[] = [];
    const client = new Client(
      { name: 'c', version: '1' },
      {
        elicitation: async (params) => {
          answers.push(params.message);
          return { action: 'accept', content: { confirm: true } };
        },
      },
    );
    await using _link = await connectInMemory(client, mcp);
    expect(textOf(await client.callTool('order_book', { title: 'Solaris' }))).toBe('ordered Solaris');
    expect(answers).toEqual(['Backorder Solaris?']);
    expect(calls).toHaveLength(1);
  });

  it('a declined elicitation consumed unwrapped is an isError result naming the resolver', async () => {
    const { mcp, calls } = shop();
    const client = new Client(
      { name: 'c', version: '1' },
      { elicitation: async () => ({ action: 'decline' }) },
    );
    await using _link = await connectInMemory(client, mcp);
    const result = await client.callTool('order_book', { title: 'Solaris' });
    expect(result).toMatchObject({ isError: true });
    expect(textOf(result)).toBe("Resolver for 'backorder' could not resolve: elicitation was declined");
    expect(calls).toEqual([]);
  });

  it('an undeclared capability is -32021 with data.requiredCapabilities', async () => {
    const { mcp } = shop();
    const error = errorOf(
      await mcp.handle(request('tools/call', { name: 'order_book', arguments: { title: 'Solaris' } })),
    );
    expect(error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
  });

  it('a handler with resolvers that returns an InputRequiredResult anyway gets an isError result', async () => {
    const { logger } = quiet();
    const mcp = new McpServer({ name: 's', version: '1' }, { logger });
    const one = resolver({}, () => 1);
    mcp.tool('t', { resolve: { one } }, () => inputRequired({ requestState: 'x' }) as never);
    const result = resultOf(await mcp.handle(request('tools/call', { name: 't' })));
    expect(result).toMatchObject({ isError: true, resultType: 'complete' });
    expect(textOf(result)).toMatch(/^Tool 't' returned an InputRequiredResult but uses resolvers/);
  });
});

describe('tools/call: hostile arguments on a multi-round-trip tool', () => {
  it('answers -32602 (not -32603 with a stack trace) to arguments nested 100,000 deep', async () => {
    const { logger } = quiet();
    const mcp = new McpServer({ name: 's', version: '1' }, { logger });
    const confirm = resolver({ args: ['x'] }, () => elicit('ok?', z.object({ ok: z.boolean() })));
    mcp.tool('ask', { input: z.object({ x: z.unknown() }), resolve: { confirm } }, () => text('done'));
    const deep = `${'['.repeat(100_000)}0${']'.repeat(100_000)}`;
    const message = JSON.stringify(request('tools/call', { name: 'ask', arguments: { x: 0 } })).replace(
      '"x":0',
      `"x":${deep}`,
    );
    for (let i = 0; i < 3; i++) {
      expect(errorOf(await mcp.handle(message))).toEqual({
        code: -32602,
        message: 'Invalid params: arguments nest deeper than 512 levels',
      });
    }
    expect(logger.lines.filter((line) => line.level === 'error')).toEqual([]);
    const caps = { elicitation: { form: {} } };
    const call = request('tools/call', { name: 'ask', arguments: { x: [[1]] } }, caps);
    const shallow = resultOf(await mcp.handle(call));
    expect(shallow.resultType).toBe('input_required');
  });
});
