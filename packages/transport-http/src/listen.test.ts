import { Client } from '@boomerang/client';
import type { FetchLike } from '@boomerang/protocol/transport';
import { createNotificationHub, type NotificationSource, Server } from '@boomerang/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StreamableHttpClientTransport } from './client.js';
import { createHttpHandler } from './handler.js';
import { type Listening, listen } from './node.js';
import { post, rpc } from './test-support/fixture.js';

// subscriptions/listen over Streamable HTTP: the listen POST answers an event stream that stays open, its first
// event is the acknowledgement; closing the stream is the client's cancellation; server.close() ends it with
// the listen result as the last event.

const SUB = 'io.modelcontextprotocol/subscriptionId';

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
      logger: {},
      onListTools: () => ({ tools: [] }),
      onListPrompts: () => ({ prompts: [] }),
    },
  );
  return { server, live: () => live };
}

/** Reads SSE events one at a time from a response body. */
function events(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary wire fields
    async next(): Promise<any> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n');
          if (data !== '') return JSON.parse(data);
          continue;
        }
        const { done, value } = await reader.read();
        if (done) return undefined;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

const listenRequest = (notifications: Record<string, unknown>, id: number | string) =>
  post(rpc('subscriptions/listen', { notifications }, id));

describe('subscriptions/listen through createHttpHandler (Request objects)', () => {
  it('answers an event stream: the ack first, then tagged notifications of the kinds asked for', async () => {
    const { server } = makeServer();
    const handler = createHttpHandler(server);
    const response = await handler(listenRequest({ toolsListChanged: true }, 'L'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const stream = events(response);
    expect(await stream.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true }, _meta: { [SUB]: 'L' } },
    });
    await server.notifyListChanged('prompts');
    await server.notifyListChanged('tools');
    expect(await stream.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { [SUB]: 'L' } },
    });
    await server.close();
    expect(await stream.next()).toMatchObject({
      id: 'L',
      result: { resultType: 'complete', _meta: { [SUB]: 'L' } },
    });
    expect(await stream.next()).toBeUndefined();
  });

  it('closing the event stream cancels the subscription (the server unsubscribes), and serving goes on', async () => {
    const { server, live } = makeServer();
    const handler = createHttpHandler(server);
    const stream = events(await handler(listenRequest({ toolsListChanged: true }, 1)));
    await stream.next();
    expect(live()).toBe(1);
    await stream.cancel();
    await vi.waitFor(() => expect(live()).toBe(0));
    expect((await handler(post(rpc('tools/list')))).status).toBe(200);
    await server.close();
  });

  it('streams to each listener its own kinds (the filter is honoured per stream)', async () => {
    const { server } = makeServer();
    const handler = createHttpHandler(server);
    const tools = events(await handler(listenRequest({ toolsListChanged: true }, 'T')));
    const prompts = events(await handler(listenRequest({ promptsListChanged: true }, 'P')));
    await Promise.all([tools.next(), prompts.next()]);
    await server.notifyListChanged('prompts');
    await server.close();
    expect((await prompts.next()).method).toBe('notifications/prompts/list_changed');
    expect(await tools.next()).toMatchObject({ id: 'T', result: {} });
  });
});

describe('client.listen() over StreamableHttpClientTransport', () => {
  async function connect() {
    const { server, live } = makeServer();
    const handler = createHttpHandler(server);
    const direct: FetchLike = async (input, init) => handler(new Request(input, init));
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', { fetch: direct }));
    return { server, client, live };
  }

  it('acknowledges, yields, and ends when the server closes', async () => {
    const { server, client } = await connect();
    const sub = client.listen({ toolsListChanged: true });
    expect(await sub.acknowledged).toEqual({ toolsListChanged: true });
    await server.notifyListChanged('tools');
    const seen: string[] = [];
    for await (const notification of sub) {
      seen.push(notification.method);
      await server.close();
    }
    expect(seen).toEqual(['notifications/tools/list_changed']);
    await client.close();
  });

  it('break closes the stream: the server unsubscribes', async () => {
    const { server, client, live } = await connect();
    const sub = client.listen({ promptsListChanged: true });
    await sub.acknowledged;
    await server.notifyListChanged('prompts');
    for await (const _ of sub) break;
    await vi.waitFor(() => expect(live()).toBe(0));
    expect((await client.listPrompts()).prompts).toEqual([]);
    await client.close();
  });
});

describe('client.listen() on a real socket (127.0.0.1)', () => {
  const running: Listening[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((endpoint) => endpoint.close()));
  });

  it('subscribes, receives, unsubscribes on break, and ends on server.close()', async () => {
    const { server, live } = makeServer();
    const endpoint = await listen(server);
    running.push(endpoint);
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(endpoint.url));
    const first = client.listen({ toolsListChanged: true });
    await first.acknowledged;
    await server.notifyListChanged('tools');
    for await (const n of first) {
      expect(n.method).toBe('notifications/tools/list_changed');
      break;
    }
    await vi.waitFor(() => expect(live()).toBe(0));
    const second = client.listen({ toolsListChanged: true });
    await second.acknowledged;
    await server.close();
    const rest = [];
    for await (const n of second) rest.push(n);
    expect(rest).toEqual([]);
    await client.close();
  });
});
