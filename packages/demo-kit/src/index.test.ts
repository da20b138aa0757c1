import type { JSONRPCMessage } from '@boomerang/protocol';
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
});
