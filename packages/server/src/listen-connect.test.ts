import type { JSONRPCMessage } from '@boomerang/protocol';
import type { Transport } from '@boomerang/protocol/transport';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { createNotificationHub } from './notifications.js';
import { Server } from './server.js';
import { recordingLogger, request, sleep } from './test-support/wire.js';

// subscriptions/listen over a stream transport (what stdio does): every stream shares one channel, and the
// subscription id tells them apart.

const SUB = 'io.modelcontextprotocol/subscriptionId';

function reader(transport: Transport) {
  const received: JSONRPCMessage[] = [];
  let wake: (() => void) | undefined;
  void (async () => {
    for await (const message of transport.messages) {
      received.push(message);
      wake?.();
    }
  })();
  return {
    received,
    async count(n: number): Promise<void> {
      while (received.length < n) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}

async function setup() {
  const [client, serverEnd] = createInMemoryPair();
  const server = new Server(
    { name: 'conn', version: '1.0.0' },
    {
      notifications: createNotificationHub(),
      logger: recordingLogger(),
      onListTools: () => ({ tools: [] }),
      onListPrompts: () => ({ prompts: [] }),
    },
  );
  const connection = await server.connect(serverEnd);
  const inbox = reader(client);
  const send = (message: Record<string, unknown>) => client.send(message as JSONRPCMessage);
  return { server, connection, inbox, send };
}

const summary = (m: JSONRPCMessage) => {
  const { method, id, params } = m as { method?: string; id?: unknown; params?: { _meta?: object } };
  return method === undefined ? { response: id } : { method, sub: (params?._meta as never)?.[SUB] };
};

describe('subscriptions/listen over server.connect()', () => {
  it('acks first, demultiplexes by subscription id, and keeps serving other requests', async () => {
    const { server, connection, inbox, send } = await setup();
    await send(request('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id: 'a' }));
    await send(request('subscriptions/listen', { notifications: { promptsListChanged: true } }, { id: 'b' }));
    await inbox.count(2);
    await send(request('tools/list', {}, { id: 'list' }));
    await inbox.count(3);
    await server.notifyListChanged('tools');
    await server.notifyListChanged('prompts');
    await inbox.count(5);
    expect(inbox.received.map(summary)).toEqual([
      { method: 'notifications/subscriptions/acknowledged', sub: 'a' },
      { method: 'notifications/subscriptions/acknowledged', sub: 'b' },
      { response: 'list' },
      { method: 'notifications/tools/list_changed', sub: 'a' },
      { method: 'notifications/prompts/list_changed', sub: 'b' },
    ]);
    await connection.close();
  });

  it('notifications/cancelled from the client stops the stream, with no response', async () => {
    const { server, connection, inbox, send } = await setup();
    await send(request('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id: 1 }));
    await inbox.count(1);
    await send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    await sleep(10);
    await server.notifyListChanged('tools');
    await sleep(10);
    expect(inbox.received.map(summary)).toEqual([
      { method: 'notifications/subscriptions/acknowledged', sub: 1 },
    ]);
    await connection.close();
  });

  it('connection.close() ends each subscription: notifications/cancelled, then its result', async () => {
    const { connection, inbox, send } = await setup();
    await send(request('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id: 9 }));
    await inbox.count(1);
    await connection.close();
    await inbox.count(3);
    expect(inbox.received.slice(1)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 9, reason: 'the server ended the subscription' },
      },
      {
        jsonrpc: '2.0',
        id: 9,
        result: {
          resultType: 'complete',
          _meta: { [SUB]: 9, 'io.modelcontextprotocol/serverInfo': { name: 'conn', version: '1.0.0' } },
        },
      },
    ]);
  });

  it('server.close() ends the subscriptions of every connection', async () => {
    const { server, connection, inbox, send } = await setup();
    await send(request('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id: 'z' }));
    await inbox.count(1);
    await server.close();
    await inbox.count(3);
    expect(inbox.received.map(summary).slice(1)).toEqual([
      { method: 'notifications/cancelled', sub: undefined },
      { response: 'z' },
    ]);
    await connection.close();
  });
});
