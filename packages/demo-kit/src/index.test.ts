import type { JSONRPCMessage } from '@boomerang/protocol';
import type { RequestTransport } from '@boomerang/protocol/transport';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import { type Direction, stateSummary, tapTransport } from './index.js';
import * as taskStore from './task-store.js';

describe('@boomerang/demo-kit', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual([
      'createRoundPrinter',
      'describeInputRequest',
      'describeInputResponse',
      'stateSummary',
      'tapTransport',
    ]);
    expect(Object.keys(taskStore)).toEqual(['openTaskStore']);
  });

  it('stateSummary keeps the ends and the length of a long token', () => {
    expect(stateSummary('short')).toBe('short (5 chars)');
    expect(stateSummary(`sl1_${'a'.repeat(40)}zz`)).toBe('sl1_aaaaaaaa…aaaaaazz (46 chars)');
  });

  it('tapTransport sees every message both ways, in order, and passes them through unchanged', async () => {
    await using pair = createInMemoryPair();
    const [client, server] = pair;
    const seen: [Direction, string][] = [];
    const tapped = tapTransport(client, (direction, message) =>
      seen.push([direction, 'method' in message ? String(message.method) : 'response']),
    );
    const request: JSONRPCMessage = { jsonrpc: '2.0', id: 1, method: 'server/discover' };
    await tapped.send(request);
    const incoming = server.messages[Symbol.asyncIterator]();
    expect((await incoming.next()).value).toEqual(request);
    await server.send({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } });
    const received = await tapped.messages[Symbol.asyncIterator]().next();
    expect(received.value).toEqual({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } });
    expect(seen).toEqual([
      ['out', 'server/discover'],
      ['in', 'response'],
    ]);
  });

  it('tapTransport sees the exchanges of a request transport: the request, what comes for it, the response', async () => {
    const seen: [Direction, string][] = [];
    const name = (message: JSONRPCMessage) => ('method' in message ? String(message.method) : 'response');
    const inner: RequestTransport = {
      request: async (message, options) => {
        options?.onMessage?.({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 1, progress: 1 },
        });
        return { jsonrpc: '2.0', id: message.id, result: { resultType: 'complete' } };
      },
      send: async () => {},
      messages: { async *[Symbol.asyncIterator]() {} },
      close: async () => {},
      [Symbol.asyncDispose]: async () => {},
    };
    const tapped = tapTransport(inner, (direction, message) => seen.push([direction, name(message)]));
    const forwarded: string[] = [];
    const response = await tapped.request(
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 't' } },
      { onMessage: (message) => forwarded.push(message.method) },
    );
    expect(response).toEqual({ jsonrpc: '2.0', id: 7, result: { resultType: 'complete' } });
    expect(forwarded).toEqual(['notifications/progress']);
    expect(seen).toEqual([
      ['out', 'tools/call'],
      ['in', 'notifications/progress'],
      ['in', 'response'],
    ]);
    await tapped.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(seen.at(-1)).toEqual(['out', 'notifications/initialized']);
  });
});
