import { McpError } from '@boomerang/protocol';
import { createNotificationHub, type NotificationSource, Server } from '@boomerang/server';
import { connectInMemory } from '@boomerang/transport-memory';
import { describe, expect, it, vi } from 'vitest';
import { Client } from './client.js';
import type { ListenNotification } from './subscription.js';
import { harness, NO_REPLY } from './test-support/fake-server.js';

const SUB = 'io.modelcontextprotocol/subscriptionId';

/** A real server with a hub that counts live subscriptions. */
function makeServer() {
  const hub = createNotificationHub();
  let live = 0;
  const source: NotificationSource = {
    publish: hub.publish,
    subscribe: (filter, listener) => {
      live++;
      const stop = hub.subscribe(filter, listener) as () => void;
      return () => {
        live--;
        stop();
      };
    },
  };
  const server = new Server(
    { name: 'watched', version: '1.0.0' },
    {
      notifications: source,
      onListTools: () => ({ tools: [] }),
      onListPrompts: () => ({ prompts: [] }),
      onReadResource: () => ({ contents: [] }),
    },
  );
  return { server, live: () => live };
}

async function connected() {
  const { server, live } = makeServer();
  const client = new Client({ name: 'host', version: '1.0.0' });
  const link = await connectInMemory(client, server);
  return { server, client, live, link };
}

const methods = (items: ListenNotification[]) => items.map((n) => n.method);

describe('client.listen() against a Server (in memory)', () => {
  it('resolves the acknowledged filter, yields what was asked for, and ends when the server ends', async () => {
    const { server, client, link } = await connected();
    const sub = client.listen({ toolsListChanged: true, resourceSubscriptions: ['file:///a'] });
    expect(await sub.acknowledged).toEqual({ toolsListChanged: true, resourceSubscriptions: ['file:///a'] });
    await server.notifyListChanged('prompts');
    await server.notifyListChanged('tools');
    await server.notifyResourceUpdated('file:///b');
    await server.notifyResourceUpdated('file:///a');
    const seen: ListenNotification[] = [];
    for await (const notification of sub) {
      seen.push(notification);
      if (seen.length === 2) void server.close();
    }
    expect(methods(seen)).toEqual(['notifications/tools/list_changed', 'notifications/resources/updated']);
    // Request 1 was the `server/discover` probe of connect(); the listen request is 2.
    expect(seen[1]?.params).toEqual({ uri: 'file:///a', _meta: { [SUB]: 2 } });
    await link[Symbol.asyncDispose]();
  });

  it('break cancels the request: the server unsubscribes and sends nothing more', async () => {
    const { server, client, live, link } = await connected();
    const sub = client.listen({ toolsListChanged: true });
    await sub.acknowledged;
    expect(live()).toBe(1);
    await server.notifyListChanged('tools');
    for await (const _ of sub) break;
    await vi.waitFor(() => expect(live()).toBe(0));
    // The client keeps working.
    expect((await client.listTools()).tools).toEqual([]);
    await link[Symbol.asyncDispose]();
  });

  it('keeps concurrent subscriptions apart; close() ends one', async () => {
    const { server, client, live, link } = await connected();
    const tools = client.listen({ toolsListChanged: true });
    const prompts = client.listen({ promptsListChanged: true });
    await Promise.all([tools.acknowledged, prompts.acknowledged]);
    await server.notifyListChanged('prompts');
    await server.notifyListChanged('tools');
    const it = prompts[Symbol.asyncIterator]();
    expect((await it.next()).value?.method).toBe('notifications/prompts/list_changed');
    await prompts.close();
    expect(await it.next()).toEqual({ done: true, value: undefined });
    await vi.waitFor(() => expect(live()).toBe(1));
    const first = await tools[Symbol.asyncIterator]().next();
    expect(first.value?.method).toBe('notifications/tools/list_changed');
    await tools.close();
    await link[Symbol.asyncDispose]();
  });

  it('the signal option cancels and the iteration rejects with its reason', async () => {
    const { client, live, link } = await connected();
    const controller = new AbortController();
    const sub = client.listen({ toolsListChanged: true }, { signal: controller.signal });
    await sub.acknowledged;
    const reason = new Error('user left');
    controller.abort(reason);
    await expect(sub[Symbol.asyncIterator]().next()).rejects.toBe(reason);
    await vi.waitFor(() => expect(live()).toBe(0));
    await link[Symbol.asyncDispose]();
  });

  it('rejects with the server error when the server has no subscriptions', async () => {
    const client = new Client({ name: 'host', version: '1.0.0' });
    const server = new Server({ name: 'plain', version: '1' }, { onListTools: () => ({ tools: [] }) });
    await using _link = await connectInMemory(client, server);
    const sub = client.listen({ toolsListChanged: true });
    await expect(sub.acknowledged).rejects.toBeInstanceOf(McpError);
    await expect(sub[Symbol.asyncIterator]().next()).rejects.toMatchObject({ code: -32601 });
  });

  it('rejects with a closed ClientError when the connection drops, not-connected before connect', async () => {
    const { client, link } = await connected();
    const sub = client.listen({ toolsListChanged: true });
    await sub.acknowledged;
    await link[Symbol.asyncDispose]();
    await expect(sub[Symbol.asyncIterator]().next()).rejects.toMatchObject({
      name: 'ClientError',
      reason: 'closed',
    });
    const idle = new Client({ name: 'host', version: '1.0.0' }).listen({});
    await expect(idle.acknowledged).rejects.toMatchObject({ name: 'ClientError', reason: 'not-connected' });
  });
});

describe('client.listen() wire behaviour (scripted server)', () => {
  it('sends full _meta and the filter; ends on a notifications/cancelled from the server', async () => {
    await using h = await harness(() => NO_REPLY);
    const sub = h.client.listen({ promptsListChanged: true });
    await h.server.waitForRequests(1);
    const request = h.server.requests[0];
    expect(request?.method).toBe('subscriptions/listen');
    expect(request?.params.notifications).toEqual({ promptsListChanged: true });
    expect(request?.params._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    const id = request?.id;
    const tag = { _meta: { [SUB]: id } };
    await h.server.send({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { promptsListChanged: true }, ...tag },
    });
    await h.server.send({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed', params: tag });
    // Another subscription's notification, and an unknown kind: not ours to yield.
    await h.server.send({
      jsonrpc: '2.0',
      method: 'notifications/prompts/list_changed',
      params: { _meta: { [SUB]: 999 } },
    });
    await h.server.send({ jsonrpc: '2.0', method: 'notifications/acme/ping', params: tag });
    await h.server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } });
    const seen: ListenNotification[] = [];
    for await (const n of sub) seen.push(n);
    expect(methods(seen)).toEqual(['notifications/prompts/list_changed']);
    expect(h.server.notifications.map((n) => n.method)).toEqual([]);
  });

  it('break sends notifications/cancelled for the listen request', async () => {
    await using h = await harness(() => NO_REPLY);
    const sub = h.client.listen({ toolsListChanged: true });
    await h.server.waitForRequests(1);
    const id = h.server.requests[0]?.id;
    await h.server.send({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { [SUB]: id } },
    });
    for await (const _ of sub) break;
    const cancelled = await h.server.waitForNotification('notifications/cancelled');
    expect(cancelled.params).toMatchObject({ requestId: id });
    expect(() => sub[Symbol.asyncIterator]()).toThrow(TypeError);
  });
});
