// Log messages: the level each request carries, and where notifications/message go.
import {
  type JSONRPCMessage,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type LoggingMessageNotificationParams,
  MetaKey,
} from '@boomerang/protocol';
import type { RequestTransport } from '@boomerang/protocol/transport';
import { describe, expect, it, vi } from 'vitest';
import { Client } from './client.js';
import type { LogContext } from './logging.js';
import { harness, INFO, script, textResult } from './test-support/fake-server.js';

const log = (level: string, data: unknown): JSONRPCMessage =>
  ({
    jsonrpc: '2.0',
    method: 'notifications/message',
    params: { level, logger: 'db', data },
  }) as JSONRPCMessage;

describe('log levels on the wire', () => {
  it('sends no level by default (the server then sends no log messages)', async () => {
    await using t = await harness(script(textResult('ok')));
    await t.client.callTool('t');
    expect(t.server.requests[0]?.params._meta).not.toHaveProperty([MetaKey.logLevel]);
  });

  it('sends the client’s level with every request, every round, and a call’s own level instead', async () => {
    const seen: unknown[] = [];
    await using t = await harness(script(textResult('a'), textResult('b')), {
      logLevel: 'warning',
      onLog: (params) => seen.push(params),
    });
    await t.client.callTool('t');
    await t.client.callTool('t', {}, { logLevel: 'debug' });
    expect(t.server.requests.map((r) => r.params._meta[MetaKey.logLevel])).toEqual(['warning', 'debug']);
  });

  it('refuses a level without onLog, and an unknown level', async () => {
    expect(() => new Client(INFO, { logLevel: 'info' })).toThrow(
      '"logLevel" expected together with an "onLog" callback (where the messages go)',
    );
    expect(() => new Client(INFO, { logLevel: 'verbose' as never, onLog: () => {} })).toThrow(RangeError);
    expect(() => new Client(INFO, { onLog: 'console' as never })).toThrow(
      '"onLog" expected a function, got string',
    );
    await using t = await harness(script(textResult('a')));
    await expect(t.client.callTool('t', {}, { logLevel: 'info' })).rejects.toThrow(
      '"logLevel" expected together with an "onLog" callback in the Client options',
    );
    await using u = await harness(script(textResult('a')), { onLog: () => {} });
    await expect(u.client.callTool('t', {}, { logLevel: 'loud' as never })).rejects.toThrow(RangeError);
    expect(u.server.requests).toHaveLength(0);
  });
});

describe('onLog', () => {
  it('receives the messages of a stream transport (no call: nothing on the wire ties them to one)', async () => {
    const seen: [LoggingMessageNotificationParams, LogContext][] = [];
    await using t = await harness(
      script(async (_request, _i, server) => {
        await server.send(log('info', { step: 1 }));
        await server.send(log('error', 'bad'));
        return textResult('ok');
      }),
      { logLevel: 'info', onLog: (params, ctx) => seen.push([params, ctx]) },
    );
    await t.client.callTool('t');
    expect(seen).toEqual([
      [{ level: 'info', logger: 'db', data: { step: 1 } }, {}],
      [{ level: 'error', logger: 'db', data: 'bad' }, {}],
    ]);
  });

  it('names the call over a transport that delivers a request’s messages with it (HTTP), and survives a throwing handler', async () => {
    const seen: [string, LogContext][] = [];
    const transport: RequestTransport = {
      // A stream of unclaimed messages that stays open (its end would close the connection).
      messages: { [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => {}) }) },
      async request(message: JSONRPCRequest, options = {}) {
        options.onMessage?.(log('notice', 'first') as never);
        options.onMessage?.({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'nope' } });
        options.onMessage?.(log('notice', 'second') as never);
        return { jsonrpc: '2.0', id: message.id, result: textResult('done') } as JSONRPCResponse;
      },
      async send() {},
      async close() {},
      async [Symbol.asyncDispose]() {},
    };
    let calls = 0;
    const client = new Client(INFO, {
      protocol: '2026-07-28',
      logLevel: 'debug',
      onLog: (params, ctx) => {
        seen.push([String(params.data), ctx]);
        if (++calls === 1) throw new Error('a broken log handler');
      },
    });
    await client.connect(transport);
    const result = await client.callTool('deploy');
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(seen).toEqual([
      ['first', { request: { method: 'tools/call', name: 'deploy' } }],
      ['second', { request: { method: 'tools/call', name: 'deploy' } }],
    ]);
    await client.close();
  });

  it('drops malformed log messages, and hands other notifications on as before', async () => {
    const seen: unknown[] = [];
    await using t = await harness(
      script(async (_request, _i, server) => {
        await server.send({
          jsonrpc: '2.0',
          method: 'notifications/message',
          params: { data: 1 },
        } as JSONRPCMessage);
        await server.send(log('warning', 'kept'));
        return textResult('ok');
      }),
      { onLog: (params) => seen.push(params.data) },
    );
    await t.client.callTool('t');
    expect(seen).toEqual(['kept']);
  });
});

describe('log messages only zod can judge', () => {
  it('reach onLog once zod, loaded on demand, has read them (an own __proto__ member, which zod drops)', async () => {
    const seen: unknown[] = [];
    const odd = (level: string) =>
      JSON.parse(
        `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"${level}","data":"odd","__proto__":{"x":1}}}`,
      ) as JSONRPCMessage;
    await using t = await harness(
      script(async (_request, _i, server) => {
        await server.send(odd('info'));
        await server.send(odd('verbose'));
        return textResult('ok');
      }),
      { onLog: (params) => seen.push(params) },
    );
    await t.client.callTool('t');
    await vi.waitFor(() => expect(seen).toEqual([{ level: 'info', data: 'odd' }]));
    expect(Object.hasOwn(seen[0] as object, '__proto__')).toBe(false);
  });
});

describe('log levels on a 2025-11-25 session', () => {
  it('sends logging/setLevel once after initialize when the server declares logging, and not otherwise', async () => {
    const initialize = (logging: boolean) => ({
      protocolVersion: '2025-11-25',
      capabilities: logging ? { logging: {} } : {},
      serverInfo: { name: 'old', version: '1' },
    });
    for (const logging of [true, false]) {
      const replies = logging
        ? [initialize(true), {}, { content: [] }]
        : [initialize(false), { content: [] }];
      await using t = await harness(script(...replies), {
        protocol: '2025-11-25',
        logLevel: 'error',
        onLog: () => {},
      });
      await t.client.callTool('t');
      const methods = t.server.requests.map((r) => r.method);
      expect(methods).toEqual(
        logging ? ['initialize', 'logging/setLevel', 'tools/call'] : ['initialize', 'tools/call'],
      );
      if (logging) expect(t.server.requests[1]?.params).toEqual({ level: 'error' });
    }
  });
});
