import type { JSONRPCMessage } from '@boomerang/protocol';
import type { Transport } from '@boomerang/protocol/transport';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { Server } from './server.js';
import { meta, recordingLogger, request, sleep } from './test-support/wire.js';
import type { ServerOptions } from './types.js';

const info = { name: 'conn', version: '1.0.0' };

/** Reads every message the client end receives, in order. */
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
    /** Resolves once a message matching `predicate` arrived. */
    async until(predicate: (m: JSONRPCMessage) => boolean): Promise<JSONRPCMessage> {
      for (;;) {
        const found = received.find(predicate);
        if (found) return found;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}

const hasId = (id: string | number) => (m: JSONRPCMessage) => 'id' in m && m.id === id && !('method' in m);

async function setup(options: ServerOptions, auth?: { subject: string }) {
  const pair = createInMemoryPair();
  const [client, serverEnd] = pair;
  const server = new Server(info, { logger: recordingLogger(), ...options });
  const connection = await server.connect(serverEnd, auth ? { auth } : {});
  const inbox = reader(client);
  const send = (message: Record<string, unknown>) => client.send(message as JSONRPCMessage);
  return { pair, client, connection, inbox, send };
}

describe('server.connect(transport)', () => {
  it('serves requests and answers each with its id', async () => {
    const { inbox, send, connection } = await setup({ onListTools: () => ({ tools: [] }) });
    await send(request('tools/list', {}, { id: 'a' }));
    expect(await inbox.until(hasId('a'))).toMatchObject({ result: { resultType: 'complete', tools: [] } });
    await connection.close();
  });

  it('serves many requests concurrently: a slow handler does not block a fast one', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { inbox, send, connection } = await setup({
      onCallTool: async ({ name }) => {
        if (name === 'slow') await gate;
        return { content: [{ type: 'text', text: name }] };
      },
    });
    await send(request('tools/call', { name: 'slow' }, { id: 1 }));
    await send(request('tools/call', { name: 'fast' }, { id: 2 }));
    await inbox.until(hasId(2));
    expect(inbox.received.some(hasId(1))).toBe(false);
    release();
    await inbox.until(hasId(1));
    expect(inbox.received.map((m) => ('id' in m ? m.id : undefined))).toEqual([2, 1]);
    await connection.close();
  });

  it('aborts the handler on notifications/cancelled, sends no response, and keeps serving', async () => {
    let aborted: unknown;
    const { inbox, send, connection } = await setup({
      onCallTool: ({ name }, ctx) =>
        name === 'wait'
          ? new Promise((resolve) => {
              ctx.signal.addEventListener('abort', () => {
                aborted = ctx.signal.reason;
                resolve({ content: [] });
              });
            })
          : { content: [] },
    });
    await send(request('tools/call', { name: 'wait' }, { id: 'c' }));
    await sleep(5);
    await send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'c', reason: 'user' },
    });
    await send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'unknown' } });
    await send(request('tools/call', { name: 'next' }, { id: 'd' }));
    await inbox.until(hasId('d'));
    await sleep(5);
    expect(aborted).toBeInstanceOf(Error);
    expect(inbox.received.some(hasId('c'))).toBe(false);
    await connection.close();
  });

  it('sends progress notifications before the response of their request', async () => {
    const { inbox, send, connection } = await setup({
      onCallTool: async (_p, ctx) => {
        await ctx.sendProgress(1, 2);
        void ctx.sendProgress(2, 2);
        return { content: [] };
      },
    });
    await send(request('tools/call', { name: 't', _meta: meta({}, { progressToken: 7 }) }, { id: 'p' }));
    await inbox.until(hasId('p'));
    expect(
      inbox.received.map((m) => ('method' in m ? (m.params as { progress?: number }).progress : 'response')),
    ).toEqual([1, 2, 'response']);
    await connection.close();
  });

  it('gives every handler the connection’s auth', async () => {
    let subject: string | undefined;
    const { inbox, send, connection } = await setup(
      {
        onCallTool: (_p, ctx) => {
          subject = ctx.auth?.subject;
          return { content: [] };
        },
      },
      { subject: 'alice' },
    );
    await send(request('tools/call', { name: 't' }, { id: 1 }));
    await inbox.until(hasId(1));
    expect(subject).toBe('alice');
    await connection.close();
  });

  it('answers a request reusing the id of one in flight with -32600', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { inbox, send, connection } = await setup({
      onCallTool: async () => {
        await gate;
        return { content: [] };
      },
    });
    await send(request('tools/call', { name: 't' }, { id: 5 }));
    await send(request('tools/call', { name: 't' }, { id: 5 }));
    expect(await inbox.until(hasId(5))).toMatchObject({ error: { code: -32600 } });
    release();
    await sleep(5);
    expect(inbox.received.filter(hasId(5))).toHaveLength(2);
    await connection.close();
  });

  it('ignores responses and unknown notifications from the peer', async () => {
    const { inbox, send, connection } = await setup({ onListTools: () => ({ tools: [] }) });
    await send({ jsonrpc: '2.0', id: 99, result: { resultType: 'complete' } });
    await send({ jsonrpc: '2.0', method: 'notifications/whatever' });
    await send(request('tools/list', {}, { id: 1 }));
    await inbox.until(hasId(1));
    expect(inbox.received).toHaveLength(1);
    await connection.close();
  });

  it('close() aborts requests in flight, drops their responses, and settles closed', async () => {
    let aborted = false;
    const { inbox, send, connection } = await setup({
      onCallTool: (_p, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            aborted = true;
            resolve({ content: [] });
          });
        }),
    });
    await send(request('tools/call', { name: 't' }, { id: 1 }));
    await sleep(5);
    await connection.close();
    await connection.closed;
    await connection.close();
    expect(aborted).toBe(true);
    expect(inbox.received).toEqual([]);
  });

  it('settles closed when the peer closes the transport', async () => {
    const { client, connection } = await setup({});
    await client.close();
    await expect(connection.closed).resolves.toBe(undefined);
  });

  it('is disposable with await using', async () => {
    const pair = createInMemoryPair();
    {
      await using _connection = await new Server(info).connect(pair[1]);
    }
    await expect(pair[0].send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow();
  });
});
