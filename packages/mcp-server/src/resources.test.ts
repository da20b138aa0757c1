import { Client } from '@boomerang/client';
import { elicitRequest, inputRequired, McpError } from '@boomerang/protocol';
import { createNotificationHub } from '@boomerang/server';
import { connectInMemory } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './mcp-server.js';
import { elicit, resolver } from './resolvers/index.js';
import { errorOf, recordingLogger, request, resultOf } from './test-support/wire.js';

const textContents = (uri: string, text: string) => ({ contents: [{ uri, text }] });

describe('static resources', () => {
  it('lists and reads them with cache hints; name defaults to the URI', async () => {
    const mcp = new McpServer(
      { name: 's', version: '1' },
      { cache: { methods: { 'resources/read': { ttlMs: 5000, cacheScope: 'public' } } } },
    );
    mcp.resource('file:///a.txt', { mimeType: 'text/plain', size: 2 }, () =>
      textContents('file:///a.txt', 'hi'),
    );
    mcp.resource('file:///b.txt', { name: 'b', title: 'B', description: 'bee' }, () =>
      textContents('file:///b.txt', 'b'),
    );
    const list = resultOf(await mcp.handle(request('resources/list')));
    expect(list).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    expect(list.resources).toEqual([
      { uri: 'file:///a.txt', name: 'file:///a.txt', mimeType: 'text/plain', size: 2 },
      { uri: 'file:///b.txt', name: 'b', title: 'B', description: 'bee' },
    ]);
    const read = resultOf(await mcp.handle(request('resources/read', { uri: 'file:///a.txt' })));
    expect(read).toMatchObject({ contents: [{ text: 'hi' }], ttlMs: 5000, cacheScope: 'public' });
  });

  it('a missing resource is -32602 with data.uri', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    mcp.resource('file:///a.txt', {}, () => textContents('file:///a.txt', 'hi'));
    expect(errorOf(await mcp.handle(request('resources/read', { uri: 'file:///nope' })))).toEqual({
      code: -32602,
      message: 'Resource not found',
      data: { uri: 'file:///nope' },
    });
  });

  it('a static resource returning an InputRequiredResult (forced) is -32603; an McpError passes through', async () => {
    const logger = recordingLogger();
    const mcp = new McpServer({ name: 's', version: '1' }, { logger });
    mcp.resource('x://ask', {}, () => inputRequired({ requestState: 's' }) as never);
    mcp.resource('x://gone', {}, () => {
      throw new McpError(-32602, 'Resource not found', { uri: 'x://gone' });
    });
    expect(errorOf(await mcp.handle(request('resources/read', { uri: 'x://ask' })))).toEqual({
      code: -32603,
      message: 'Internal error',
    });
    expect(logger.lines[0]?.error).toMatch(/^static resource 'x:\/\/ask' returned an InputRequiredResult/);
    expect(errorOf(await mcp.handle(request('resources/read', { uri: 'x://gone' })))).toMatchObject({
      data: { uri: 'x://gone' },
    });
  });

  it('handles update and remove; resourceUpdated reaches the subscribers of the notification source', async () => {
    const hub = createNotificationHub();
    const seen: unknown[] = [];
    const stop = await hub.subscribe({ resourcesListChanged: true, resourceSubscriptions: ['x://a'] }, (n) =>
      seen.push(n),
    );
    const mcp = new McpServer({ name: 's', version: '1' }, { notifications: hub });
    const handle = mcp.resource('x://a', {}, () => textContents('x://a', 'a'));
    handle.update({ description: 'now described' });
    mcp.resourceUpdated('x://a');
    handle.remove();
    await new Promise((resolve) => setTimeout(resolve, 0));
    stop();
    mcp.resourceUpdated('x://a');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/resources/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'x://a' } },
      { jsonrpc: '2.0', method: 'notifications/resources/list_changed' },
    ]);
    expect(() => mcp.resourceUpdated('' as string)).toThrow(TypeError);
  });
});

describe('resource templates', () => {
  it('match URIs (static resources first, then templates in order) and pass typed variables', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    mcp.resource('users://me/posts', {}, () => textContents('users://me/posts', 'static'));
    mcp.resourceTemplate(
      'users://{id}/posts{?page}',
      { mimeType: 'application/json' },
      ({ id, page }, resolved) => {
        expect(resolved).toEqual({});
        return textContents(`users://${id}/posts`, `${id}:${page ?? '-'}`);
      },
    );
    mcp.resourceTemplate('files://{+path}', {}, ({ path }) => textContents(`files://${path}`, path));
    const read = async (uri: string) =>
      (resultOf(await mcp.handle(request('resources/read', { uri }))).contents as { text: string }[])[0]
        ?.text;
    expect(await read('users://me/posts')).toBe('static');
    expect(await read('users://ada/posts')).toBe('ada:-');
    expect(await read('users://ada%20l/posts?page=2')).toBe('ada l:2');
    expect(await read('files://a/b/c.txt')).toBe('a/b/c.txt');
    expect(errorOf(await mcp.handle(request('resources/read', { uri: 'users:///posts' }))).code).toBe(-32602);
    const list = resultOf(await mcp.handle(request('resources/templates/list')));
    expect(list.resourceTemplates).toEqual([
      {
        uriTemplate: 'users://{id}/posts{?page}',
        name: 'users://{id}/posts{?page}',
        mimeType: 'application/json',
      },
      { uriTemplate: 'files://{+path}', name: 'files://{+path}' },
    ]);
    expect(list).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  });

  it('a hand-built round through a template, with state sealed by the server', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    mcp.resourceTemplate('vault://{name}', {}, ({ name }, _r, ctx) => {
      if (ctx.requestState === `unlock:${name}` && ctx.inputResponses?.pin !== undefined) {
        return textContents(`vault://${name}`, 'secret');
      }
      return inputRequired({
        inputRequests: {
          pin: elicitRequest({
            message: 'PIN?',
            requestedSchema: { type: 'object', properties: { pin: { type: 'string' } } },
          }),
        },
        requestState: `unlock:${name}`,
      });
    });
    const client = new Client(
      { name: 'c', version: '1' },
      { elicitation: async () => ({ action: 'accept', content: { pin: '1234' } }) },
    );
    await using _link = await connectInMemory(client, mcp);
    const result = await client.readResource('vault://main');
    expect(result.contents[0]).toMatchObject({ text: 'secret' });
    const step = await client.start('resources/read', { uri: 'vault://main' });
    if (step.continuation === undefined) throw new Error('expected input_required');
    expect(step.continuation.requestState).toEqual(expect.any(String));
    expect(step.continuation.requestState).not.toContain('unlock');
  });

  it('resolvers on templates: variables by name; a declined elicitation is -32602', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    const confirm = resolver({ args: ['id'] }, ({ id }: { id: string }) =>
      elicit(`Open ${id}?`, z.object({ ok: z.boolean() })),
    );
    mcp.resourceTemplate('doc://{id}', { resolve: { confirm } }, ({ id }, { confirm: c }) =>
      textContents(`doc://${id}`, `${id}:${String(c.ok)}`),
    );
    let accept = true;
    const client = new Client(
      { name: 'c', version: '1' },
      {
        elicitation: async () =>
          accept ? { action: 'accept', content: { ok: true } } : { action: 'cancel' },
      },
    );
    await using _link = await connectInMemory(client, mcp);
    expect((await client.readResource('doc://7')).contents[0]).toMatchObject({ text: '7:true' });
    accept = false;
    await expect(client.readResource('doc://7')).rejects.toMatchObject({
      code: -32602,
      message: "Resolver for 'confirm' could not resolve: elicitation was cancelled",
    });
  });

  it('rejects bad templates at registration', () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    expect(() => mcp.resourceTemplate('x://{', {}, () => textContents('', ''))).toThrow(TypeError);
    expect(() => mcp.resourceTemplate('x://{a}/{a}', {}, () => textContents('', ''))).toThrow(
      /names "a" twice/,
    );
    expect(() =>
      mcp.resourceTemplate('x://{a}', { complete: { b: () => [] } } as never, () => textContents('', '')),
    ).toThrow(/unknown argument 'b'/);
  });
});

describe('completion/complete', () => {
  function server() {
    const mcp = new McpServer({ name: 's', version: '1' });
    const languages = Array.from({ length: 150 }, (_, i) => `lang${i}`);
    mcp.prompt(
      'review',
      {
        input: z.object({ language: z.string(), framework: z.string() }),
        complete: {
          language: (value) => languages.filter((l) => l.startsWith(value)),
          framework: (value, { arguments: args }) =>
            (args.language === 'python' ? ['flask', 'fastapi'] : []).filter((f) => f.startsWith(value)),
        },
      },
      () => ({ messages: [] }),
    );
    mcp.resourceTemplate(
      'repo://{owner}/{name}',
      { complete: { owner: (v) => ['ada', 'bob'].filter((o) => o.startsWith(v)) } },
      () => textContents('repo://x', ''),
    );
    return mcp;
  }
  const complete = (ref: unknown, argument: unknown, context?: unknown) =>
    request('completion/complete', { ref, argument, ...(context === undefined ? {} : { context }) });

  it('completes prompt arguments (capped at 100, with total and hasMore) using the context', async () => {
    const mcp = server();
    const all = resultOf(
      await mcp.handle(complete({ type: 'ref/prompt', name: 'review' }, { name: 'language', value: 'lang' })),
    );
    expect(all.completion).toMatchObject({ total: 150, hasMore: true });
    expect((all.completion as { values: string[] }).values).toHaveLength(100);
    const fw = resultOf(
      await mcp.handle(
        complete(
          { type: 'ref/prompt', name: 'review' },
          { name: 'framework', value: 'f' },
          { arguments: { language: 'python' } },
        ),
      ),
    );
    expect(fw.completion).toEqual({ values: ['flask', 'fastapi'], total: 2, hasMore: false });
  });

  it('completes template variables by the exact template; unknown refs are -32602; no completer → no values', async () => {
    const mcp = server();
    const owner = resultOf(
      await mcp.handle(
        complete({ type: 'ref/resource', uri: 'repo://{owner}/{name}' }, { name: 'owner', value: 'a' }),
      ),
    );
    expect(owner.completion).toEqual({ values: ['ada'], total: 1, hasMore: false });
    const none = resultOf(
      await mcp.handle(
        complete({ type: 'ref/resource', uri: 'repo://{owner}/{name}' }, { name: 'name', value: '' }),
      ),
    );
    expect(none.completion).toEqual({ values: [], total: 0, hasMore: false });
    expect(
      errorOf(await mcp.handle(complete({ type: 'ref/prompt', name: 'nope' }, { name: 'x', value: '' }))),
    ).toEqual({
      code: -32602,
      message: 'Unknown prompt: nope',
    });
    expect(
      errorOf(await mcp.handle(complete({ type: 'ref/resource', uri: 'repo://x' }, { name: 'x', value: '' })))
        .code,
    ).toBe(-32602);
  });

  it('is -32601 until some completer is registered', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    mcp.prompt('p', {}, () => ({ messages: [] }));
    expect(
      errorOf(await mcp.handle(complete({ type: 'ref/prompt', name: 'p' }, { name: 'x', value: '' }))).code,
    ).toBe(-32601);
  });
});
