import {
  type AuthInfo,
  ErrorCode,
  type JSONRPCNotification,
  McpError,
  type SubscriptionFilter,
} from '@boomerang/protocol';
import { describe, expect, it, vi } from 'vitest';
import { createNotificationHub, type NotificationSource } from './notifications.js';
import { Server } from './server.js';
import { errorOf, recordingLogger, request, resultOf } from './test-support/wire.js';
import type { ExtensionSubscriptions, ServerOptions } from './types.js';

const info = { name: 'watched', version: '1.0.0' };
const SUB = 'io.modelcontextprotocol/subscriptionId';

function makeServer(options: ServerOptions = {}) {
  return new Server(info, {
    notifications: createNotificationHub(),
    onListTools: () => ({ tools: [] }),
    onReadResource: () => ({ contents: [] }),
    ...options,
  });
}

/** Opens `subscriptions/listen` through `handle()`, recording what `ctx.notify` receives. */
function listen(
  server: Server,
  notifications: SubscriptionFilter,
  id: string | number = 'L1',
  options: { auth?: AuthInfo; caps?: Record<string, unknown> } = {},
) {
  const sent: JSONRPCNotification[] = [];
  const controller = new AbortController();
  const { auth, caps = {} } = options;
  const response = server.handle(request('subscriptions/listen', { notifications }, { id, caps }), {
    ...(auth === undefined ? {} : { auth }),
    signal: controller.signal,
    notify: (n) => {
      sent.push(n);
    },
  });
  const acked = vi.waitFor(() => expect(sent[0]?.method).toBe('notifications/subscriptions/acknowledged'));
  return { sent, response, acked, cancel: () => controller.abort() };
}

describe('subscriptions/listen', () => {
  it('acknowledges first, with the subscription id and the subset the server honours', async () => {
    const server = makeServer();
    const sub = listen(server, { toolsListChanged: true, promptsListChanged: true, taskIds: ['t'] } as never);
    await sub.acked;
    // No prompts handler, so no prompts capability: the server agrees to tools only.
    expect(sub.sent).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { toolsListChanged: true }, _meta: { [SUB]: 'L1' } },
      },
    ]);
    await server.close();
    await sub.response;
  });

  it('tags every notification, sends only the kinds asked for, and only subscribed URIs', async () => {
    const server = makeServer({ onListPrompts: () => ({ prompts: [] }) });
    const sub = listen(server, { toolsListChanged: true, resourceSubscriptions: ['file:///a'] }, 7);
    await sub.acked;
    await server.notifyListChanged('prompts');
    await server.notifyListChanged('tools');
    await server.notifyResourceUpdated('file:///b');
    await server.notifyResourceUpdated('file:///a');
    await server.notifyListChanged('resources');
    await vi.waitFor(() => expect(sub.sent).toHaveLength(3));
    expect(sub.sent.slice(1)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [SUB]: 7 } } },
      {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'file:///a', _meta: { [SUB]: 7 } },
      },
    ]);
    await server.close();
  });

  it('keeps concurrent subscriptions apart', async () => {
    const server = makeServer({ onListPrompts: () => ({ prompts: [] }) });
    const tools = listen(server, { toolsListChanged: true }, 1);
    const prompts = listen(server, { promptsListChanged: true }, 2);
    await Promise.all([tools.acked, prompts.acked]);
    await server.notifyListChanged('prompts');
    await vi.waitFor(() => expect(prompts.sent).toHaveLength(2));
    expect(prompts.sent[1]?.params?._meta).toEqual({ [SUB]: 2 });
    expect(tools.sent).toHaveLength(1);
    await server.close();
  });

  it('ends gracefully on server.close(): the result carries the subscription id', async () => {
    const server = makeServer();
    const sub = listen(server, { toolsListChanged: true }, 'x');
    await sub.acked;
    await server.close();
    const result = resultOf(await sub.response);
    expect(result).toEqual({
      resultType: 'complete',
      _meta: { [SUB]: 'x', 'io.modelcontextprotocol/serverInfo': info },
    });
    // Later listens are acknowledged and ended at once.
    const late = listen(server, { toolsListChanged: true }, 'y');
    expect(resultOf(await late.response)._meta).toMatchObject({ [SUB]: 'y' });
    expect(late.sent.map((n) => n.method)).toEqual(['notifications/subscriptions/acknowledged']);
  });

  it('stops on cancellation: no response, unsubscribed from the source', async () => {
    const hub = createNotificationHub();
    const subscribe = vi.fn(hub.subscribe);
    const unsubscribed = vi.fn();
    const source: NotificationSource = {
      publish: hub.publish,
      subscribe: (filter, listener) => {
        const stop = subscribe(filter, listener) as () => void;
        return () => {
          unsubscribed();
          stop();
        };
      },
    };
    const server = makeServer({ notifications: source });
    const sub = listen(server, { toolsListChanged: true });
    await sub.acked;
    sub.cancel();
    expect(await sub.response).toBeUndefined();
    await vi.waitFor(() => expect(unsubscribed).toHaveBeenCalledOnce());
    await server.notifyListChanged('tools');
    expect(sub.sent).toHaveLength(1);
  });

  it('holds back what is published while the source subscribes, and sends it after the ack', async () => {
    const hub = createNotificationHub();
    const source: NotificationSource = {
      publish: hub.publish,
      subscribe: async (filter, listener) => {
        const stop = hub.subscribe(filter, listener) as () => void;
        await hub.publish({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
        return stop;
      },
    };
    const server = makeServer({ notifications: source });
    const sub = listen(server, { toolsListChanged: true });
    await vi.waitFor(() => expect(sub.sent).toHaveLength(2));
    expect(sub.sent.map((n) => n.method)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/tools/list_changed',
    ]);
    await server.close();
  });

  it('reaches listeners of every server sharing one source', async () => {
    const hub = createNotificationHub();
    const a = makeServer({ notifications: hub });
    const b = makeServer({ notifications: hub });
    const sub = listen(b, { toolsListChanged: true });
    await sub.acked;
    await a.notifyListChanged('tools');
    expect(sub.sent.map((n) => n.method)).toContain('notifications/tools/list_changed');
    await b.close();
  });

  it('validates its params and needs a notifying transport', async () => {
    const server = makeServer();
    expect(errorOf(await server.handle(request('subscriptions/listen'))).code).toBe(ErrorCode.InvalidParams);
    const noNotify = await server.handle(request('subscriptions/listen', { notifications: {} }));
    expect(errorOf(noNotify)).toMatchObject({ code: ErrorCode.InvalidRequest });
  });

  it('answers -32603 (and logs) when the source fails to subscribe; publish failures are logged', async () => {
    const logger = recordingLogger();
    const broken: NotificationSource = {
      publish: () => Promise.reject(new Error('redis down')),
      subscribe: () => Promise.reject(new Error('redis down')),
    };
    const server = makeServer({ notifications: broken, logger });
    const sub = listen(server, { toolsListChanged: true });
    expect(errorOf(await sub.response).code).toBe(ErrorCode.InternalError);
    await expect(server.notifyListChanged('tools')).resolves.toBeUndefined();
    expect(logger.lines.map((l) => l.level)).toEqual(['error', 'warn']);
  });
});

describe('capabilities with a notification source', () => {
  const discover = async (server: Server) =>
    resultOf(await server.handle(request('server/discover'))).capabilities;

  it('advertises listChanged and subscribe for the features present; explicit false stays', async () => {
    const server = makeServer({
      onListPrompts: () => ({ prompts: [] }),
      capabilities: { prompts: { listChanged: false } },
    });
    expect(await discover(server)).toEqual({
      tools: { listChanged: true },
      prompts: { listChanged: false },
      resources: { listChanged: true, subscribe: true },
    });
    const sub = listen(server, { promptsListChanged: true, resourceSubscriptions: ['a://'] });
    await sub.acked;
    expect(sub.sent[0]?.params?.notifications).toEqual({ resourceSubscriptions: ['a://'] });
    await server.close();
  });

  it('fills them in for features that come later (capabilities read live)', async () => {
    let caps: Record<string, unknown> = {};
    const server = new Server(info, { notifications: createNotificationHub(), capabilities: () => caps });
    expect(await discover(server)).toEqual({});
    caps = { prompts: {} };
    expect(await discover(server)).toEqual({ prompts: { listChanged: true } });
  });

  it('without a source: no listChanged, -32601, and declaring them throws', async () => {
    const server = new Server(info, { onListTools: () => ({ tools: [] }) });
    expect(await discover(server)).toEqual({ tools: {} });
    const listened = await server.handle(request('subscriptions/listen', { notifications: {} }));
    expect(errorOf(listened).code).toBe(ErrorCode.MethodNotFound);
    await expect(server.notifyListChanged('tools')).resolves.toBeUndefined();
    expect(() => new Server(info, { capabilities: { resources: { subscribe: true } } })).toThrow(
      '"capabilities.resources.subscribe" needs a "notifications" source',
    );
    expect(() => new Server(info, { notifications: {} as never })).toThrow(TypeError);
    expect(() => server.notifyListChanged('roots' as never)).toThrow(TypeError);
    expect(() => server.notifyResourceUpdated(1 as never)).toThrow(TypeError);
  });
});

describe('subscriptions an extension adds', () => {
  /** An extension owning `taskIds`: a principal may listen to the ids `owners` gives it, nothing else. */
  function taskExtension(owners: Record<string, string>) {
    const sources: NotificationSource[] = [];
    const agree = vi.fn<ExtensionSubscriptions['agree']>((filter, ctx) => {
      if (ctx.clientCapabilities.extensions?.['x/tasks'] === undefined) {
        throw McpError.missingRequiredClientCapability({ extensions: { 'x/tasks': {} } });
      }
      const ids = (filter.taskIds as string[]).filter((id) => owners[id] === ctx.auth?.subject);
      return { taskIds: ids, toolsListChanged: true, other: 1 };
    });
    const subscriptions: ExtensionSubscriptions = {
      members: ['taskIds'],
      agree,
      attach(source) {
        sources.push(source);
        return () => sources.splice(sources.indexOf(source), 1);
      },
    };
    const publish = (taskId: string, status: 'working' | 'cancelled') => {
      const at = '2026-12-07T00:00:00.000Z';
      const params = { taskId, status, createdAt: at, lastUpdatedAt: at, ttlMs: null };
      return Promise.all(
        sources.map((s) => s.publish({ jsonrpc: '2.0', method: 'notifications/tasks', params })),
      );
    };
    return { extension: { id: 'x/tasks', subscriptions }, sources, agree, publish };
  }
  const caps = { extensions: { 'x/tasks': {} } };
  const alice = { token: 'a', clientId: 'c', subject: 'alice' };
  const bob = { token: 'b', clientId: 'c', subject: 'bob' };

  it('agrees per request through the extension, and each stream hears only its agreed ids', async () => {
    const tasks = taskExtension({ t1: 'alice', t2: 'bob' });
    const server = makeServer({ extensions: [tasks.extension] });
    expect(tasks.sources).toHaveLength(1);
    const mine = listen(server, { taskIds: ['t1', 't2', 'nope'] }, 'A', { auth: alice, caps });
    const theirs = listen(server, { taskIds: ['t1'] }, 'B', { auth: bob, caps });
    await Promise.all([mine.acked, theirs.acked]);
    // Only the members the extension owns are taken from what it returns.
    expect(mine.sent[0]?.params?.notifications).toEqual({ taskIds: ['t1'] });
    expect(theirs.sent[0]?.params?.notifications).toEqual({ taskIds: [] });
    await tasks.publish('t1', 'working');
    await tasks.publish('t2', 'cancelled');
    await vi.waitFor(() => expect(mine.sent).toHaveLength(2));
    expect(mine.sent[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: {
        taskId: 't1',
        status: 'working',
        createdAt: '2026-12-07T00:00:00.000Z',
        lastUpdatedAt: '2026-12-07T00:00:00.000Z',
        ttlMs: null,
        _meta: { [SUB]: 'A' },
      },
    });
    expect(theirs.sent).toHaveLength(1);
    await server.close();
    expect(tasks.sources).toHaveLength(0);
  });

  it('is not asked when the request names none of its members; what it throws is the answer', async () => {
    const tasks = taskExtension({});
    const server = makeServer({ extensions: [tasks.extension] });
    const plain = listen(server, { toolsListChanged: true });
    await plain.acked;
    expect(tasks.agree).not.toHaveBeenCalled();
    const refused = listen(server, { taskIds: ['t1'] }, 'R', { auth: alice });
    expect(errorOf(await refused.response)).toMatchObject({
      code: ErrorCode.MissingRequiredClientCapability,
      data: { requiredCapabilities: { extensions: { 'x/tasks': {} } } },
    });
    expect(refused.sent).toEqual([]);
    await server.close();
  });

  it('rejects malformed subscriptions and members owned twice at construction', () => {
    const ok = taskExtension({}).extension.subscriptions;
    const bad =
      (subscriptions: unknown, id = 'x/a') =>
      () =>
        makeServer({ extensions: [{ id, subscriptions } as never] });
    expect(bad({ ...ok, members: [] })).toThrow(TypeError);
    expect(bad({ ...ok, agree: 1 })).toThrow(TypeError);
    expect(bad({ ...ok, attach: undefined })).toThrow(TypeError);
    expect(bad({ ...ok, members: ['resourceSubscriptions'] })).toThrow(/already owned/);
    expect(() =>
      makeServer({
        extensions: [
          { id: 'x/a', subscriptions: ok },
          { id: 'x/b', subscriptions: ok },
        ],
      }),
    ).toThrow(/"taskIds" is already owned/);
  });

  it('is not attached to a server without a notification source', () => {
    const tasks = taskExtension({});
    new Server(info, { extensions: [tasks.extension] });
    expect(tasks.sources).toHaveLength(0);
  });
});
