import { Client } from '@boomerang/client';
import { inputRequired, McpError } from '@boomerang/protocol';
import { createNotificationHub, type RequestContext } from '@boomerang/server';
import { connectInMemory, createInMemoryPair } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './mcp-server.js';
import { elicit, resolver } from './resolvers/index.js';
import { errorOf, recordingLogger, request, resultOf } from './test-support/wire.js';

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const discover = async (mcp: McpServer) =>
  resultOf(await mcp.handle(request('server/discover'))).capabilities as Record<string, unknown>;

describe('new McpServer(info, options)', () => {
  it('checks info and options', () => {
    expect(() => new McpServer(null as never)).toThrow(TypeError);
    expect(() => new McpServer({ version: '1' } as never)).toThrow(TypeError);
    expect(() => new McpServer({ name: 's', version: '1' }, { nope: 1 } as never)).toThrow(
      'unknown option "nope"',
    );
    expect(() => new McpServer({ name: 's', version: '1' }, { pageSize: 0 })).toThrow(RangeError);
    expect(() => new McpServer({ name: 's', version: '1' }, { pageSize: 1.5 })).toThrow(RangeError);
    expect(() => new McpServer({ name: 's', version: 1 } as never)).toThrow(TypeError);
    expect(() => new McpServer({ name: 's', version: '1' }, { maxStateBytes: 0 })).toThrow(RangeError);
  });

  it('sends instructions and serverInfo; discover carries cache hints from `cache`', async () => {
    const mcp = new McpServer(
      { name: 's', version: '1' },
      {
        instructions: 'Be brief',
        cache: { methods: { 'server/discover': { ttlMs: 1000, cacheScope: 'public' } } },
      },
    );
    const result = resultOf(await mcp.handle(request('server/discover')));
    expect(result).toMatchObject({ instructions: 'Be brief', ttlMs: 1000, cacheScope: 'public' });
    expect((result._meta as Record<string, unknown>)['io.modelcontextprotocol/serverInfo']).toEqual({
      name: 's',
      version: '1',
    });
  });
});

describe('capabilities follow what is registered', () => {
  it('appear with the first registration of their kind and stay; unadvertised methods are -32601', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    expect(await discover(mcp)).toEqual({});
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
      expect(errorOf(await mcp.handle(request(method))).code).toBe(-32601);
    }
    const completion = { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } };
    expect(errorOf(await mcp.handle(request('completion/complete', completion)))).toEqual({
      code: -32601,
      message: 'Method not found: completion/complete',
    });
    const tool = mcp.tool('t', {}, () => text(''));
    expect(await discover(mcp)).toEqual({ tools: { listChanged: true } });
    tool.remove();
    expect(await discover(mcp)).toEqual({ tools: { listChanged: true } });
    expect(resultOf(await mcp.handle(request('tools/list'))).tools).toEqual([]);
    mcp.prompt('p', {}, () => ({ messages: [] }));
    mcp.resourceTemplate('x://{id}', { complete: { id: () => [] } }, () => ({ contents: [] }));
    expect(await discover(mcp)).toEqual({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
      completions: {},
    });
  });

  it('also for a connection opened before the registration', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    const client = new Client({ name: 'c', version: '1' });
    await using _link = await connectInMemory(client, mcp);
    expect((await client.discover()).capabilities).toEqual({});
    mcp.resource('x://a', {}, () => ({ contents: [{ uri: 'x://a', text: 'a' }] }));
    expect((await client.discover()).capabilities).toEqual({
      resources: { listChanged: true, subscribe: true },
    });
    expect((await client.readResource('x://a')).contents[0]).toMatchObject({ text: 'a' });
  });
});

describe('serving', () => {
  it('connect(transport, { auth }) gives handlers the principal and the request context', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    const contexts: RequestContext[] = [];
    mcp.tool('whoami', {}, (_args, _resolved, ctx) => {
      contexts.push(ctx);
      return text(ctx.auth?.subject ?? 'nobody');
    });
    const client = new Client({ name: 'c', version: '1' }, { roots: async () => ({ roots: [] }) });
    await using _link = await connectInMemory(client, mcp, { auth: { subject: 'alice' } });
    expect((await client.callTool('whoami')).content[0]).toMatchObject({ text: 'alice' });
    expect(contexts[0]).toMatchObject({
      method: 'tools/call',
      protocolVersion: '2026-07-28',
      clientCapabilities: { roots: {} },
      inputResponses: undefined,
      requestState: undefined,
    });
  });

  it('handle() never rejects on bad input', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    expect(errorOf(await mcp.handle('{not json')).code).toBe(-32700);
    // No tool registered yet: the method is not served at all.
    expect(errorOf(await mcp.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call' })).code).toBe(-32601);
    mcp.tool('t', {}, () => text(''));
    expect(errorOf(await mcp.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call' })).code).toBe(-32602);
    expect(await mcp.handle({ jsonrpc: '2.0', method: 'notifications/x' })).toBeUndefined();
  });

  it('an McpError thrown by a template passes through with its code and data', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    mcp.resourceTemplate('x://{id}', {}, () => {
      throw new McpError(-32021, 'need roots', { requiredCapabilities: { roots: {} } });
    });
    expect(errorOf(await mcp.handle(request('resources/read', { uri: 'x://1' })))).toEqual({
      code: -32021,
      message: 'need roots',
      data: { requiredCapabilities: { roots: {} } },
    });
  });

  it('an InputRequiredResult never carries cache hints, even on resources/read', async () => {
    const mcp = new McpServer({ name: 's', version: '1' }, { cache: { ttlMs: 1000 } });
    mcp.resourceTemplate('x://{id}', {}, () => inputRequired({ requestState: 's' }));
    const result = resultOf(await mcp.handle(request('resources/read', { uri: 'x://1' })));
    expect(result.resultType).toBe('input_required');
    expect(result).not.toHaveProperty('ttlMs');
    expect(result).not.toHaveProperty('cacheScope');
  });

  it('a hand-built input request the client did not declare is -32021 (checked for hand-built rounds too)', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    mcp.tool('roots', {}, () => inputRequired({ inputRequests: { r: { method: 'roots/list' } } }));
    expect(errorOf(await mcp.handle(request('tools/call', { name: 'roots' })))).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { roots: {} } },
    });
  });

  it('serves a stream transport directly', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    mcp.tool('t', { input: z.object({ a: z.string() }) }, ({ a }) => text(a));
    const [clientEnd, serverEnd] = createInMemoryPair();
    const connection = await mcp.connect(serverEnd);
    await clientEnd.send(request('tools/call', { name: 't', arguments: { a: 'x' } }) as never);
    for await (const message of clientEnd.messages) {
      expect(message).toMatchObject({ result: { content: [{ text: 'x' }] } });
      break;
    }
    await connection.close();
  });
});

describe('notifications', () => {
  it('list_changed per kind on register, update and remove, through the notification source', async () => {
    const hub = createNotificationHub();
    const methods: string[] = [];
    const all = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true };
    await hub.subscribe(all, (n) => methods.push(n.method));
    const mcp = new McpServer({ name: 's', version: '1' }, { notifications: hub });
    const t = mcp.tool('t', {}, () => text(''));
    t.update({ description: 'd' });
    t.remove();
    mcp.prompt('p', {}, () => ({ messages: [] })).remove();
    mcp.resourceTemplate('x://{a}', {}, () => ({ contents: [] }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(methods).toEqual([
      'notifications/tools/list_changed',
      'notifications/tools/list_changed',
      'notifications/tools/list_changed',
      'notifications/prompts/list_changed',
      'notifications/prompts/list_changed',
      'notifications/resources/list_changed',
    ]);
  });

  it('a failing source is logged, never thrown at the registration', async () => {
    const logger = recordingLogger();
    const failing = {
      publish: () => Promise.reject(new Error('bus down')),
      subscribe: () => () => {},
    };
    const mcp = new McpServer({ name: 's', version: '1' }, { logger, notifications: failing });
    mcp.tool('t', {}, () => text(''));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(logger.lines.at(-1)).toMatchObject({
      level: 'warn',
      message: expect.stringContaining('tools/list_changed'),
    });
  });
});

describe('maxStateBytes', () => {
  it('a round whose recorded state would exceed the cap fails clearly (an isError result for a tool)', async () => {
    const logger = recordingLogger();
    const mcp = new McpServer({ name: 's', version: '1' }, { logger, maxStateBytes: 300 });
    const note = resolver({}, () => elicit('Note?', z.object({ text: z.string() })));
    const sure = resolver({ uses: { note } }, ({ note: n }) =>
      elicit(`Send ${n.text.length} chars?`, z.object({ ok: z.boolean() })),
    );
    mcp.tool('send', { resolve: { sure } }, () => text('sent'));
    const client = new Client(
      { name: 'c', version: '1' },
      {
        elicitation: async (params) =>
          params.message === 'Note?'
            ? { action: 'accept', content: { text: 'x'.repeat(1000) } }
            : { action: 'accept', content: { ok: true } },
      },
    );
    await using _link = await connectInMemory(client, mcp);
    const result = await client.callTool('send');
    expect(result.isError).toBe(true);
    // The cap's message (byte counts, the option's name) is for the operator: the client gets the stable text.
    expect(result.content).toEqual([{ type: 'text', text: "Tool 'send' failed with an internal error" }]);
    const logged = logger.lines.find((line) => line.error !== undefined);
    expect(logged?.error).toMatch(/over the 300-byte cap \(maxStateBytes\)/);
  });
});
