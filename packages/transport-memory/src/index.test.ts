import type { JSONRPCMessage } from '@boomerang/protocol';
import { streamTransportSuite } from '@boomerang/test-kit';
import { describe, expect, it, vi } from 'vitest';
import * as api from './index.js';
import { createInMemoryPair } from './index.js';

streamTransportSuite('in-memory', () => createInMemoryPair(), {
  manyMessages: 10_000,
  largeMessageBytes: 8 * 1024 * 1024,
});

const note = (i: number): JSONRPCMessage =>
  ({ jsonrpc: '2.0', method: 'n', params: { i } }) as JSONRPCMessage;

describe('@boomerang/transport-memory', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual(['connectInMemory', 'createInMemoryPair']);
  });

  it('runs the README example', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await import('./memory.examples.js');
      expect(log.mock.calls).toEqual([
        [{ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', echo: { text: 'hi' } } }],
      ]);
    } finally {
      log.mockRestore();
    }
  });
});

describe('createInMemoryPair', () => {
  it('await using the pair closes both ends; the pair destructures', async () => {
    let ends: readonly [api.InMemoryPair[0], api.InMemoryPair[1]] | undefined;
    {
      await using pair = createInMemoryPair();
      const [client, server] = pair;
      ends = [client, server];
      expect(pair).toHaveLength(2);
    }
    const [client, server] = ends;
    await expect(client.send(note(0))).rejects.toThrow('in-memory transport is closed');
    await expect(server.send(note(0))).rejects.toThrow('in-memory transport is closed');
    for await (const _ of server.messages) expect.unreachable();
  });

  it('delivers asynchronously: nothing arrives before send is awaited', async () => {
    const [client, server] = createInMemoryPair();
    const reader = server.messages[Symbol.asyncIterator]();
    let arrived = false;
    const next = reader.next().then((r) => {
      arrived = true;
      return r;
    });
    const sent = client.send(note(1));
    expect(arrived).toBe(false);
    await sent;
    expect((await next).value).toEqual(note(1));
    await client.close();
  });

  it('delivers what a wire would: JSON semantics', async () => {
    const [client, server] = createInMemoryPair();
    const message = {
      jsonrpc: '2.0',
      method: 'x',
      params: {
        callback: () => 1,
        [Symbol('s')]: 1,
        missing: undefined,
        when: new Date(0),
        list: [undefined, () => 1],
      },
    } as unknown as JSONRPCMessage;
    await client.send(message);
    const reader = server.messages[Symbol.asyncIterator]();
    const { value } = await reader.next();
    expect(value).toStrictEqual({
      jsonrpc: '2.0',
      method: 'x',
      params: { when: '1970-01-01T00:00:00.000Z', list: [null, null] },
    });
    await client.close();
  });

  it.each([
    ['a BigInt', () => ({ n: 1n })],
    [
      'a cycle',
      () => {
        const params: Record<string, unknown> = {};
        params.self = params;
        return params;
      },
    ],
  ])('refuses what JSON cannot carry (%s): send rejects, sends nothing', async (_, params) => {
    const [client, server] = createInMemoryPair();
    const message = { jsonrpc: '2.0', method: 'x', params: params() } as unknown as JSONRPCMessage;
    const rejection = client.send(message);
    await expect(rejection).rejects.toThrow(TypeError);
    await expect(rejection).rejects.toThrow(/^"message" cannot be sent as JSON: /);
    const reader = server.messages[Symbol.asyncIterator]();
    await client.send(note(2));
    expect((await reader.next()).value).toEqual(note(2));
    await client.close();
  });

  it('copies on send: later mutation does not travel, nothing is shared', async () => {
    const [client, server] = createInMemoryPair();
    const params = { list: [1] };
    const message = { jsonrpc: '2.0', method: 'x', params } as JSONRPCMessage;
    await client.send(message);
    params.list.push(2);
    const reader = server.messages[Symbol.asyncIterator]();
    const { value } = await reader.next();
    expect(value).toEqual({ jsonrpc: '2.0', method: 'x', params: { list: [1] } });
    expect((value as { params: unknown }).params).not.toBe(params);
    await client.close();
  });

  it('send with an aborted signal rejects with its reason and sends nothing', async () => {
    const [client, server] = createInMemoryPair();
    const reason = new Error('stop');
    await expect(client.send(note(1), { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    await client.send(note(2));
    await client.close();
    const received: unknown[] = [];
    for await (const message of server.messages) received.push(message);
    expect(received).toEqual([note(2)]);
  });

  it('leaving a for await early closes the link', async () => {
    const [client, server] = createInMemoryPair();
    for (let i = 0; i < 5; i++) await client.send(note(i));
    for await (const message of server.messages) {
      expect(message).toEqual(note(0));
      break;
    }
    await expect(client.send(note(9))).rejects.toThrow('in-memory transport is closed');
    const reader = client.messages[Symbol.asyncIterator]();
    expect((await reader.next()).done).toBe(true);
  });

  it('a consumer that returned sees no more messages, even ones already queued', async () => {
    const [client, server] = createInMemoryPair();
    const reader = server.messages[Symbol.asyncIterator]();
    const sends = [client.send(note(0)), client.send(note(1))];
    await reader.return?.();
    await Promise.all(sends);
    expect((await reader.next()).done).toBe(true);
  });

  it('close right after un-awaited sends still delivers them first', async () => {
    const [client, server] = createInMemoryPair();
    const reader = server.messages[Symbol.asyncIterator]();
    const reads = [reader.next(), reader.next(), reader.next()]; // readers waiting when the close lands
    const sends = [client.send(note(0)), client.send(note(1))];
    await Promise.all([...sends, client.close()]);
    expect(await Promise.all(reads)).toEqual([
      { done: false, value: note(0) },
      { done: false, value: note(1) },
      { done: true, value: undefined },
    ]);
  });

  it('concurrent next() calls are served in order', async () => {
    const [client, server] = createInMemoryPair();
    const reader = server.messages[Symbol.asyncIterator]();
    const reads = [reader.next(), reader.next(), reader.next()];
    await client.send(note(0));
    await client.send(note(1));
    await client.close();
    expect(await Promise.all(reads)).toEqual([
      { done: false, value: note(0) },
      { done: false, value: note(1) },
      { done: true, value: undefined },
    ]);
  });

  it('pairs are independent', async () => {
    await using a = createInMemoryPair();
    await using b = createInMemoryPair();
    await a[0].close();
    await b[0].send(note(1));
    const reader = b[1].messages[Symbol.asyncIterator]();
    expect((await reader.next()).value).toEqual(note(1));
  });

  it('keeps a long queue in order when read after the fact (queue compaction)', async () => {
    const [client, server] = createInMemoryPair();
    const n = 5000;
    for (let i = 0; i < n; i++) await client.send(note(i));
    const reader = server.messages[Symbol.asyncIterator]();
    for (let i = 0; i < 3000; i++) expect((await reader.next()).value).toEqual(note(i));
    for (let i = n; i < n + 10; i++) await client.send(note(i));
    for (let i = 3000; i < n + 10; i++) expect((await reader.next()).value).toEqual(note(i));
    await client.close();
    expect((await reader.next()).done).toBe(true);
  });
});
