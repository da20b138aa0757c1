import type { JSONRPCMessage } from '@boomerang/protocol';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { Recorder } from './recorder.js';

const request = (id: number, params: Record<string, unknown>) => ({
  jsonrpc: '2.0' as const,
  id,
  method: 'tools/call',
  params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' }, ...params },
});
const asks = (id: number, requestState?: string) => ({
  jsonrpc: '2.0' as const,
  id,
  result: {
    resultType: 'input_required',
    inputRequests: { q: { method: 'roots/list' } },
    ...(requestState === undefined ? {} : { requestState }),
  },
});
/** A result without `resultType` (a server of an earlier revision): read as complete. */
const done = (id: number) => ({ jsonrpc: '2.0', id, result: { content: [] } }) as unknown as JSONRPCMessage;
const answers = { q: { roots: [] } };

describe('Recorder', () => {
  it('records nothing until recording', () => {
    const recorder = new Recorder();
    recorder.sent(request(1, { name: 't' }));
    recorder.received(done(1));
    recorder.received({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
    expect(recorder.calls).toEqual([]);
    expect(recorder.notifications).toEqual([]);
  });

  it('a retry continues the call it answers: same params, the state handed out, keys it asked', () => {
    const recorder = new Recorder();
    recorder.recording = true;
    recorder.sent(request(1, { name: 't', arguments: { a: 1 } }));
    recorder.received(asks(1, 'S1'));
    // Wrong state, unknown key, other arguments, other tool: each starts a call of its own.
    recorder.sent(
      request(2, { name: 't', arguments: { a: 1 }, inputResponses: answers, requestState: 'forged' }),
    );
    recorder.sent(
      request(3, { name: 't', arguments: { a: 1 }, inputResponses: { other: {} }, requestState: 'S1' }),
    );
    recorder.sent(
      request(4, { name: 't', arguments: { a: 2 }, inputResponses: answers, requestState: 'S1' }),
    );
    recorder.sent(
      request(5, { name: 'u', arguments: { a: 1 }, inputResponses: answers, requestState: 'S1' }),
    );
    // Param order does not matter; the real retry joins call 1.
    recorder.sent(
      request(6, { inputResponses: answers, requestState: 'S1', arguments: { a: 1 }, name: 't' }),
    );
    recorder.received(done(6));
    expect(recorder.calls.map((c) => c.rounds.map((r) => r.request.id))).toEqual([
      [1, 6],
      [2],
      [3],
      [4],
      [5],
    ]);
    expect(recorder.calls[0]?.result).toEqual({ content: [] });
    expect(recorder.calls[0]?.rounds[1]?.resultType).toBe('complete'); // no resultType: complete
  });

  it('a round still pending, or answered with an error, is not continued', () => {
    const recorder = new Recorder();
    recorder.recording = true;
    recorder.sent(request(1, { name: 't' }));
    recorder.sent(request(2, { name: 't', inputResponses: answers }));
    recorder.received({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } });
    recorder.sent(request(3, { name: 't', inputResponses: answers }));
    expect(recorder.calls.map((c) => c.rounds.length)).toEqual([1, 1, 1]);
    expect(recorder.calls[0]?.error).toEqual({ code: -32603, message: 'Internal error' });
    expect(recorder.calls[1]?.rounds[0]?.response).toBeUndefined();
  });

  it('ignores responses to unknown ids, an id answered twice, and requests from the server', () => {
    const recorder = new Recorder();
    recorder.recording = true;
    recorder.sent(request(1, { name: 't' }));
    recorder.received(done(99));
    recorder.received({ jsonrpc: '2.0', id: 7, method: 'roots/list' });
    recorder.received({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });
    recorder.received(done(1));
    recorder.received(asks(1));
    expect(recorder.calls[0]?.rounds[0]?.resultType).toBe('complete');
    expect(recorder.notifications).toEqual([]);
  });

  it('keeps snapshots: changing a message after it passed changes nothing recorded', () => {
    const recorder = new Recorder();
    recorder.recording = true;
    const sent = request(1, { name: 't' });
    recorder.sent(sent);
    (sent.params as Record<string, unknown>).name = 'changed';
    expect(recorder.calls[0]?.rounds[0]?.request.params?.name).toBe('t');
    expect(recorder.calls[0]?.name).toBe('t');
  });

  it('tap passes messages both ways, keeps one consumer, and ends with the transport', async () => {
    const recorder = new Recorder();
    recorder.recording = true;
    const [a, b] = createInMemoryPair();
    const tapped = recorder.tap(a);
    await tapped.send(request(1, { name: 't' }));
    const iterator = b.messages[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ id: 1 });
    await b.send(done(1));
    await b.send({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1 },
    });
    const received: JSONRPCMessage[] = [];
    const reading = (async () => {
      for await (const message of tapped.messages) received.push(message);
    })();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await tapped[Symbol.asyncDispose]();
    await reading;
    expect(received).toHaveLength(2);
    expect(recorder.calls[0]?.result).toEqual({ content: [] });
    expect(recorder.notifications.map((n) => n.method)).toEqual(['notifications/progress']);
    await expect(tapped.send(done(2))).rejects.toThrow(/closed/);
  });
});
