import { Client } from '@boomerang/client';
import { ErrorCode, McpError } from '@boomerang/protocol';
import { connectInMemory } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { McpServer } from './mcp-server.js';

const info = { name: 'listen-test', version: '1.0.0' };
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

describe('subscriptions/listen through McpServer', () => {
  it('streams list_changed for registrations and resources/updated for subscribed URIs', async () => {
    const mcp = new McpServer(info);
    mcp.tool('first', { description: 'the first tool' }, () => text('1'));
    mcp.resource('file:///notes.md', { name: 'notes' }, () => ({ contents: [] }));
    const client = new Client({ name: 'watcher', version: '1.0.0' });
    await using _link = await connectInMemory(client, mcp);

    const sub = client.listen({ toolsListChanged: true, resourceSubscriptions: ['file:///notes.md'] });
    expect(await sub.acknowledged).toEqual({
      toolsListChanged: true,
      resourceSubscriptions: ['file:///notes.md'],
    });
    const second = mcp.tool('second', { description: 'added at run time' }, () => text('2'));
    mcp.resourceUpdated('file:///other.md'); // not subscribed: never delivered
    mcp.resourceUpdated('file:///notes.md');
    second.remove();

    const seen: string[] = [];
    for await (const notification of sub) {
      seen.push(
        notification.method === 'notifications/resources/updated'
          ? `updated ${String(notification.params?.uri)}`
          : notification.method,
      );
      if (seen.length === 3) await sub.close();
    }
    expect(seen).toEqual([
      'notifications/tools/list_changed',
      'updated file:///notes.md',
      'notifications/tools/list_changed',
    ]);
    expect((await client.listTools({}, { cache: false })).tools.map((t) => t.name)).toEqual(['first']);
  });

  it('close() ends open streams gracefully', async () => {
    const mcp = new McpServer(info);
    mcp.tool('only', {}, () => text('x'));
    const client = new Client({ name: 'watcher', version: '1.0.0' });
    await using _link = await connectInMemory(client, mcp);
    const sub = client.listen({ toolsListChanged: true });
    await sub.acknowledged;
    const drained = (async () => {
      const got: string[] = [];
      for await (const n of sub) got.push(n.method);
      return got;
    })();
    await mcp.close();
    expect(await drained).toEqual([]);
  });

  it('notifications: false serves no subscriptions and advertises no listChanged', async () => {
    const mcp = new McpServer(info, { notifications: false });
    mcp.tool('only', {}, () => text('x'));
    const client = new Client({ name: 'watcher', version: '1.0.0' });
    await using _link = await connectInMemory(client, mcp);
    expect((await client.discover()).capabilities).toEqual({ tools: {} });
    const sub = client.listen({ toolsListChanged: true });
    const error = await sub.acknowledged.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.MethodNotFound);
  });
});
