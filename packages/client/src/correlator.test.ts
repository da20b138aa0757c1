import { getEventListeners } from 'node:events';
import type { JSONRPCMessage, JSONRPCNotification, JSONRPCRequest } from '@boomerang/protocol';
import { requestTransportSuite, serveOverStream } from '@boomerang/test-kit';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { correlate } from './correlator.js';

// The client's transport contract, over the in-memory pair through the correlator (stdio runs it in
// transport-stdio, HTTP in transport-http).
requestTransportSuite('in-memory pair, correlated', (handler) => {
  const [client, server] = createInMemoryPair();
  serveOverStream(server, handler);
  return correlate(client);
});

const request = (id: number | string, params: Record<string, unknown> = {}): JSONRPCRequest => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params,
});
const note = (method: string, params: Record<string, unknown>): JSONRPCNotification => ({
  jsonrpc: '2.0',
  method,
  params,
});

/** A correlated client end, and the raw server end of the same in-memory pair. */
function setup() {
  const pair = createInMemoryPair();
  const exchanges = correlate(pair[0]);
  const server = pair[1].messages[Symbol.asyncIterator]();
  const received = async () => (await server.next()).value as JSONRPCMessage & Record<string, unknown>;
  return { exchanges, peer: pair[1], received, [Symbol.asyncDispose]: () => pair[Symbol.asyncDispose]() };
}

describe('correlate: a stream transport as a request transport', () => {
  it('sends the caller’s ids and resolves each exchange with the response of its id, in any order', async () => {
    await using t = setup();
    const a = t.exchanges.request(request('a'));
    const b = t.exchanges.request(request(7));
    expect(await t.received()).toMatchObject({ id: 'a' });
    expect(await t.received()).toMatchObject({ id: 7 });
    await t.peer.send({ jsonrpc: '2.0', id: 999, result: { resultType: 'complete' } } as JSONRPCMessage);
    await t.peer.send({ jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'no' } } as JSONRPCMessage);
    await t.peer.send({
      jsonrpc: '2.0',
      id: 'a',
      result: { resultType: 'complete', ok: true },
    } as JSONRPCMessage);
    expect(await b).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'no' } });
    expect(await a).toEqual({ jsonrpc: '2.0', id: 'a', result: { resultType: 'complete', ok: true } });
  });

  it('hands a request its own notifications: progress by token, a listen stream by id, its cancellation', async () => {
    await using t = setup();
    const seen: string[] = [];
    const exchange = t.exchanges.request(request(1, { _meta: { progressToken: 'tok' } }), {
      onMessage: (message) => seen.push(`${message.method} ${JSON.stringify(message.params)}`),
    });
    await t.received();
    await t.peer.send(note('notifications/progress', { progressToken: 'tok', progress: 1 }));
    await t.peer.send(note('notifications/progress', { progressToken: 'other', progress: 1 }));
    const subscription = { _meta: { 'io.modelcontextprotocol/subscriptionId': 1 } };
    await t.peer.send(note('notifications/tools/list_changed', subscription));
    await t.peer.send(note('notifications/cancelled', { requestId: 1 }));
    await t.peer.send({ jsonrpc: '2.0', id: 1, result: {} } as JSONRPCMessage);
    await exchange;
    expect(seen).toEqual([
      'notifications/progress {"progressToken":"tok","progress":1}',
      `notifications/tools/list_changed ${JSON.stringify(subscription)}`,
      'notifications/cancelled {"requestId":1}',
    ]);
  });

  it('yields what no exchange claims on messages: server requests and other notifications', async () => {
    await using t = setup();
    const unclaimed = t.exchanges.messages[Symbol.asyncIterator]();
    const ask = { jsonrpc: '2.0', id: 's1', method: 'elicitation/create', params: {} } as JSONRPCMessage;
    await t.peer.send(ask);
    await t.peer.send(note('notifications/progress', { progressToken: 'nobody', progress: 1 }));
    expect((await unclaimed.next()).value).toEqual(ask);
    expect((await unclaimed.next()).value).toMatchObject({ method: 'notifications/progress' });
  });

  it('abort rejects with the reason and sends notifications/cancelled, unless the peer cancelled first', async () => {
    await using t = setup();
    const controller = new AbortController();
    const exchange = t.exchanges.request(request(1), { signal: controller.signal });
    await t.received();
    const reason = new Error('user gave up');
    controller.abort(reason);
    await expect(exchange).rejects.toBe(reason);
    expect(await t.received()).toEqual(
      note('notifications/cancelled', { requestId: 1, reason: 'user gave up' }),
    );

    const second = new AbortController();
    const ended = t.exchanges.request(request(2), { signal: second.signal, onMessage: () => {} });
    await t.received();
    await t.peer.send(note('notifications/cancelled', { requestId: 2 }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    second.abort(new Error('done'));
    await expect(ended).rejects.toThrow('done');
    await t.exchanges.send(note('after', {}));
    expect(await t.received()).toMatchObject({ method: 'after' }); // no cancellation went back
  });

  it('exchanges sharing one signal: one listener on it, and its abort cancels each of them', async () => {
    await using t = setup();
    const shared = new AbortController();
    const a = t.exchanges.request(request(1), { signal: shared.signal });
    const b = t.exchanges.request(request(2), { signal: shared.signal });
    const other = new AbortController();
    const c = t.exchanges.request(request(3), { signal: other.signal });
    for (let i = 0; i < 3; i++) await t.received();
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(1);
    const reason = new Error('deadline');
    shared.abort(reason);
    await expect(a).rejects.toBe(reason);
    await expect(b).rejects.toBe(reason);
    const cancelled = [await t.received(), await t.received()];
    expect(cancelled).toEqual([
      note('notifications/cancelled', { requestId: 1, reason: 'deadline' }),
      note('notifications/cancelled', { requestId: 2, reason: 'deadline' }),
    ]);
    await t.peer.send({ jsonrpc: '2.0', id: 3, result: { resultType: 'complete' } } as JSONRPCMessage);
    await expect(c).resolves.toMatchObject({ id: 3 });
  });

  it('a signal passed by many exchanges in turn keeps one listener; the last one idle is dropped by the next, and by close', async () => {
    await using t = setup();
    const kept = new AbortController();
    for (let id = 1; id <= 20; id++) {
      const exchange = t.exchanges.request(request(id), { signal: kept.signal });
      await t.received();
      await t.peer.send({ jsonrpc: '2.0', id, result: { resultType: 'complete' } } as JSONRPCMessage);
      await exchange;
      expect(getEventListeners(kept.signal, 'abort')).toHaveLength(1); // kept idle for the next exchange
    }
    const next = new AbortController();
    const exchange = t.exchanges.request(request(21), { signal: next.signal });
    await t.received();
    await t.peer.send({ jsonrpc: '2.0', id: 21, result: { resultType: 'complete' } } as JSONRPCMessage);
    await exchange;
    expect(getEventListeners(kept.signal, 'abort')).toHaveLength(0); // another signal went idle
    expect(getEventListeners(next.signal, 'abort')).toHaveLength(1);
    kept.abort(new Error('late')); // nothing in flight passes it: nothing is cancelled
    await t.exchanges.send(note('after', {}));
    expect(await t.received()).toMatchObject({ method: 'after' });
    await t.exchanges.close();
    expect(getEventListeners(next.signal, 'abort')).toHaveLength(0);
  });

  it('an already aborted signal sends nothing', async () => {
    await using t = setup();
    const reason = new Error('too late');
    await expect(t.exchanges.request(request(1), { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    await t.exchanges.send(note('first', {}));
    expect(await t.received()).toMatchObject({ method: 'first' });
  });

  it('when the stream ends, every exchange fails as closed, new ones too, and messages ends', async () => {
    await using t = setup();
    const pending = t.exchanges.request(request(3));
    await t.received();
    await t.peer.close();
    await expect(pending).rejects.toMatchObject({ name: 'ClientError', reason: 'closed', requestId: 3 });
    await expect(t.exchanges.request(request(4))).rejects.toMatchObject({ reason: 'closed' });
    await expect(t.exchanges.send(note('late', {}))).rejects.toMatchObject({ reason: 'closed' });
    expect((await t.exchanges.messages[Symbol.asyncIterator]().next()).done).toBe(true);
  });

  it('close() fails what is in flight and closes the stream', async () => {
    await using t = setup();
    const pending = t.exchanges.request(request(5));
    await t.received();
    await t.exchanges[Symbol.asyncDispose]();
    await expect(pending).rejects.toMatchObject({ reason: 'closed' });
    await expect(t.peer.send(note('late', {}))).rejects.toThrow(/closed/);
  });
});
