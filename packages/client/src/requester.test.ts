import { ErrorCode, type JSONRPCMessage, McpError, MetaKey } from '@boomerang/protocol';
import type { Transport } from '@boomerang/protocol/transport';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { correlate } from './correlator.js';
import { createRequester } from './requester.js';
import { deferred, fakeServer, NO_REPLY, type Reply } from './test-support/fake-server.js';

const ok = { resultType: 'complete' };

function setup(reply: Reply) {
  const pair = createInMemoryPair();
  const server = fakeServer(pair[1], reply);
  const requester = createRequester(correlate(pair[0]));
  return { pair, server, requester, [Symbol.asyncDispose]: () => pair[Symbol.asyncDispose]() };
}

describe('createRequester over a correlated stream transport', () => {
  it('numbers requests 1, 2, 3 … and resolves each with its raw result', async () => {
    await using t = setup((request) => ({ echo: request.id }));
    const results = await Promise.all([1, 2, 3].map(() => t.requester.request('x/y', {})));
    expect(results).toEqual([{ echo: 1 }, { echo: 2 }, { echo: 3 }]);
    expect(t.server.requests.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(t.server.requests[0]).toMatchObject({ method: 'x/y', params: {} });
  });

  it('rejects with McpError (code, message, data) for an error response', async () => {
    await using t = setup(() => {
      throw new McpError(ErrorCode.MissingRequiredClientCapability, 'need it', {
        requiredCapabilities: { roots: {} },
      });
    });
    const error = await t.requester.request('tools/call', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({
      code: -32021,
      message: 'need it',
      data: { requiredCapabilities: { roots: {} } },
    });
  });

  it('ignores responses with unknown ids and duplicates, and keeps working', async () => {
    await using t = setup(async (request, index, server) => {
      if (index === 0) {
        await server.send({
          jsonrpc: '2.0',
          id: 999,
          result: { resultType: 'complete', stray: true },
        } as JSONRPCMessage);
        await server.send({
          jsonrpc: '2.0',
          id: 998,
          error: { code: -1, message: 'stray' },
        } as JSONRPCMessage);
        await server.send({ jsonrpc: '2.0', error: { code: -32700, message: 'no id' } } as JSONRPCMessage);
        await server.send({
          jsonrpc: '2.0',
          id: request.id,
          result: { resultType: 'complete', first: true },
        } as JSONRPCMessage);
      }
      return { n: index };
    });
    expect(await t.requester.request('a', {})).toEqual({ resultType: 'complete', first: true });
    expect(await t.requester.request('b', {})).toEqual({ n: 1 });
  });

  it('fails every request in flight at once when the transport closes, and refuses new ones', async () => {
    await using t = setup(() => NO_REPLY);
    const calls = [t.requester.request('tools/call', {}), t.requester.request('prompts/get', {})];
    await t.server.waitForRequests(2);
    await t.pair[1].close();
    const errors = await Promise.all(calls.map((call) => call.catch((e: unknown) => e)));
    expect(errors[0]).toMatchObject({ name: 'ClientError', reason: 'closed' });
    expect(errors[0]).toMatchObject({ method: 'tools/call', requestId: 1 });
    expect((errors[1] as Error).message).toBe(
      'The connection closed before prompts/get (request id 2) got a response',
    );
    expect(t.requester.closed).toBe(true);
    await expect(t.requester.request('tools/list', {})).rejects.toThrow(
      'Cannot send tools/list: the connection is closed',
    );
    await expect(t.requester.notify('notifications/x')).rejects.toMatchObject({
      name: 'ClientError',
      reason: 'closed',
    });
  });

  it('keeps the stream error as cause when the transport fails', async () => {
    const boom = new Error('socket reset');
    const gate = deferred();
    const transport: Transport = {
      send: async () => {},
      close: async () => {},
      [Symbol.asyncDispose]: async () => {},
      messages: {
        [Symbol.asyncIterator]: () => ({
          next: async () => {
            await gate.promise;
            throw boom;
          },
        }),
      },
    };
    const requester = createRequester(correlate(transport));
    const call = requester.request('tools/call', {});
    gate.resolve();
    const error = await call.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ClientError', reason: 'closed' });
    expect((error as Error).cause).toBe(boom);
  });

  it('close() fails requests in flight and closes the transport', async () => {
    await using t = setup(() => NO_REPLY);
    const call = t.requester.request('tools/call', {});
    await t.server.waitForRequests(1);
    await t.requester.close();
    await expect(call).rejects.toMatchObject({ name: 'ClientError', reason: 'closed' });
    await expect(t.pair[1].send({ jsonrpc: '2.0', method: 'n' } as JSONRPCMessage)).rejects.toThrow('closed');
  });

  it('abort rejects with the reason, sends notifications/cancelled, and ignores the late response', async () => {
    const release = deferred();
    await using t = setup(async (_request, index) => {
      if (index === 0) await release.promise;
      return { index };
    });
    const controller = new AbortController();
    const call = t.requester.request('tools/call', {}, { signal: controller.signal });
    await t.server.waitForRequests(1);
    const reason = new Error('user gave up');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    const cancelled = await t.server.waitForNotification('notifications/cancelled');
    expect(cancelled.params).toEqual({ requestId: 1, reason: 'user gave up' });
    release.resolve();
    expect(await t.requester.request('next', {})).toEqual({ index: 1 });
  });

  it('an already aborted signal rejects without sending anything', async () => {
    await using t = setup(() => ok);
    const reason = new Error('too late');
    await expect(t.requester.request('x', {}, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    await t.requester.request('y', {});
    expect(t.server.requests.map((r) => r.method)).toEqual(['y']);
    expect(t.server.notifications).toEqual([]);
  });

  it('routes progress to the request whose token it names; the token is the request id', async () => {
    await using t = setup(async (request, _index, server) => {
      const token = request.params._meta?.[MetaKey.progressToken];
      if (token !== undefined) {
        await server.send({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 777, progress: 1 },
        } as JSONRPCMessage);
        await server.send({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress: 1, total: 2, message: 'half' },
        } as JSONRPCMessage);
        await server.send({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress: 'bad' },
        } as JSONRPCMessage);
      }
      return ok;
    });
    const seen: unknown[] = [];
    await t.requester.request('a', { _meta: { keep: 1 } });
    await t.requester.request('b', { _meta: { keep: 2 } }, { onprogress: (p) => seen.push(p) });
    expect(t.server.requests[0]?.params._meta).toEqual({ keep: 1 });
    expect(t.server.requests[1]?.params._meta).toEqual({ keep: 2, progressToken: 2 });
    expect(seen).toEqual([{ progressToken: 2, progress: 1, total: 2, message: 'half' }]);
  });

  it('an onprogress that throws fails its request and cancels it', async () => {
    await using t = setup(async (request, _index, server) => {
      const token = request.params._meta?.[MetaKey.progressToken];
      await server.send({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token, progress: 1 },
      } as JSONRPCMessage);
      return NO_REPLY;
    });
    const bug = new Error('handler bug');
    const call = t.requester.request(
      'a',
      {},
      {
        onprogress: () => {
          throw bug;
        },
      },
    );
    await expect(call).rejects.toBe(bug);
    expect((await t.server.waitForNotification('notifications/cancelled')).params).toEqual({
      requestId: 1,
      reason: 'handler bug',
    });
  });

  it('routes progress only zod can judge (an own __proto__ member) once zod has: to onprogress, whose throw still fails the request', async () => {
    const odd = (token: unknown, progress: unknown) =>
      JSON.parse(
        `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${JSON.stringify(token)},"progress":${JSON.stringify(progress)},"__proto__":{"x":1}}}`,
      ) as JSONRPCMessage;
    const delivered = deferred();
    await using t = setup(async (request, index, server) => {
      const token = request.params._meta?.[MetaKey.progressToken];
      await server.send(odd(token, 'bad'));
      await server.send(odd(token, 1));
      if (index > 0) return NO_REPLY;
      await delivered.promise;
      return ok;
    });
    const seen: unknown[] = [];
    await t.requester.request(
      'a',
      {},
      {
        onprogress: (p) => {
          seen.push(p);
          delivered.resolve();
        },
      },
    );
    // zod's output: the params without the member it drops.
    expect(seen).toEqual([{ progressToken: 1, progress: 1 }]);
    expect(Object.hasOwn(seen[0] as object, '__proto__')).toBe(false);
    const bug = new Error('handler bug');
    const call = t.requester.request(
      'b',
      {},
      {
        onprogress: () => {
          throw bug;
        },
      },
    );
    await expect(call).rejects.toBe(bug);
  });

  it('answers a server→client request with -32601 (modern servers never send one)', async () => {
    await using pair = createInMemoryPair();
    createRequester(correlate(pair[0]));
    await pair[1].send({
      jsonrpc: '2.0',
      id: 'srv-1',
      method: 'elicitation/create',
      params: {},
    } as JSONRPCMessage);
    for await (const message of pair[1].messages) {
      expect(message).toEqual({
        jsonrpc: '2.0',
        id: 'srv-1',
        error: { code: -32601, message: 'Method not found' },
      });
      break;
    }
  });

  it('fails the request as closed, with the transport error as cause, when sending fails', async () => {
    const failure = new Error('cannot serialise');
    const transport: Transport = {
      send: async () => {
        throw failure;
      },
      close: async () => {},
      [Symbol.asyncDispose]: async () => {},
      messages: { [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => {}) }) },
    };
    const error = await createRequester(correlate(transport))
      .request('x', {})
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'closed', requestId: 1 });
    expect((error as Error).cause).toBe(failure);
  });
});
