// 2025-11-25 sessions on stream transports: the handshake, the session-only methods, legacy result shapes.
import { McpError } from '@boomerang/protocol';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { createNotificationHub } from '../notifications.js';
import { Server } from '../server.js';
import { legacyPeer } from '../test-support/legacy-peer.js';
import { errorOf, recordingLogger, request, resultOf, sleep } from '../test-support/wire.js';
import type { RequestContext } from '../types.js';

const tools = { onListTools: () => ({ tools: [{ name: 't', inputSchema: { type: 'object' as const } }] }) };

describe('initialize on a stream connection', () => {
  it('opens a 2025-11-25 session: version, capabilities, serverInfo, instructions, no resultType', async () => {
    const peer = await legacyPeer({ ...tools, instructions: 'be kind', capabilities: { logging: {} } });
    const result = resultOf(await peer.initialize({ elicitation: {} }));
    expect(result).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: { tools: {}, logging: {} },
      serverInfo: { name: 'legacy-test', version: '1.0.0' },
      instructions: 'be kind',
    });
    await peer.connection.close();
  });

  it('answers the protocol version it speaks whatever the client asked', async () => {
    const peer = await legacyPeer(tools);
    const response = await peer.call('initialize', {
      protocolVersion: '2024-11-05',
      capabilities: {},
      clientInfo: { name: 'old', version: '1' },
    });
    expect(resultOf(response).protocolVersion).toBe('2025-11-25');
    await peer.connection.close();
  });

  it('rejects invalid initialize params with -32602 and leaves the connection modern', async () => {
    const peer = await legacyPeer(tools);
    expect(errorOf(await peer.call('initialize', { protocolVersion: 1 })).code).toBe(-32602);
    const modern = request('tools/list');
    const response = await peer.call('tools/list', modern.params as Record<string, unknown>);
    expect(resultOf(response).resultType).toBe('complete');
    await peer.connection.close();
  });

  it('answers a second initialize with -32600', async () => {
    const peer = await legacyPeer(tools);
    await peer.initialize();
    expect(errorOf(await peer.call('initialize', {})).code).toBe(-32600);
    await peer.connection.close();
  });

  it('with legacy: false answers -32022 naming the supported versions', async () => {
    const peer = await legacyPeer({ ...tools, legacy: false });
    const error = errorOf(await peer.initialize());
    expect(error.code).toBe(-32022);
    expect(error.message).toContain('2026-07-28');
    expect(error.data).toMatchObject({ supported: ['2026-07-28'], requested: '2025-11-25' });
    await peer.connection.close();
  });

  it('checks the legacy options at construction', () => {
    const info = { name: 's', version: '1' };
    expect(() => new Server(info, { legacy: 'yes' as never })).toThrow(TypeError);
    expect(() => new Server(info, { legacy: { shim: 1 as never } })).toThrow(TypeError);
    expect(() => new Server(info, { legacy: { other: 1 } as never })).toThrow(/legacy.other/);
    expect(() => new Server(info, { legacy: { requestTimeoutMs: 0 } })).toThrow(RangeError);
    expect(() => new Server(info, { legacy: { requestTimeoutMs: 1.5 } })).toThrow(RangeError);
  });
});

describe('requests of a legacy session', () => {
  it('answers ping with an empty result', async () => {
    const peer = await legacyPeer(tools);
    await peer.initialize();
    expect(resultOf(await peer.call('ping'))).toEqual({});
    await peer.connection.close();
  });

  it('serves requests without _meta and answers in the legacy shape', async () => {
    const peer = await legacyPeer({ ...tools, cache: { ttlMs: 5 } });
    await peer.initialize();
    const result = resultOf(await peer.call('tools/list', {}));
    expect(result).toEqual({ tools: [{ name: 't', inputSchema: { type: 'object' } }] });
    await peer.connection.close();
  });

  it('gives handlers the session: 2025-11-25, the capabilities and client info of initialize', async () => {
    let seen: RequestContext | undefined;
    const peer = await legacyPeer({
      onCallTool: (_params, ctx) => {
        seen = ctx;
        return { content: [], _meta: { 'com.example/x': 1 } };
      },
    });
    await peer.initialize({ roots: {} });
    const result = resultOf(await peer.call('tools/call', { name: 't', _meta: { progressToken: 'p' } }));
    expect(result).toEqual({ content: [], _meta: { 'com.example/x': 1 } });
    expect(seen?.protocolVersion).toBe('2025-11-25');
    expect(seen?.clientCapabilities).toEqual({ roots: {} });
    expect(seen?.clientInfo).toEqual({ name: 'legacy-client', version: '0.1.0' });
    expect(seen?.progressToken).toBe('p');
    await peer.connection.close();
  });

  it('logging/setLevel sets the level every later request is served with', async () => {
    const levels: unknown[] = [];
    const peer = await legacyPeer({
      capabilities: { logging: {} },
      onCallTool: async (_params, ctx) => {
        levels.push(ctx.logLevel);
        await ctx.log('info', 'hello');
        return { content: [] };
      },
    });
    await peer.initialize();
    await peer.call('tools/call', { name: 't' });
    expect(resultOf(await peer.call('logging/setLevel', { level: 'info' }))).toEqual({});
    await peer.call('tools/call', { name: 't' });
    expect(levels).toEqual([undefined, 'info']);
    expect(peer.fromServer).toContainEqual(
      expect.objectContaining({ method: 'notifications/message', params: { level: 'info', data: 'hello' } }),
    );
    expect(errorOf(await peer.call('logging/setLevel', { level: 'loud' })).code).toBe(-32602);
    await peer.connection.close();
  });

  it('answers -32002 for an unknown resource', async () => {
    const peer = await legacyPeer({
      onReadResource: ({ uri }) => {
        throw new McpError(-32602, 'Resource not found', { uri });
      },
    });
    await peer.initialize();
    const error = errorOf(await peer.call('resources/read', { uri: 'file:///nope' }));
    expect(error).toEqual({ code: -32002, message: 'Resource not found', data: { uri: 'file:///nope' } });
    await peer.connection.close();
  });

  it('keeps other errors as they are', async () => {
    const peer = await legacyPeer(tools);
    await peer.initialize();
    expect(errorOf(await peer.call('prompts/list', {})).code).toBe(-32601);
    expect(errorOf(await peer.call('tools/call', { name: 1 })).code).toBe(-32601);
    await peer.connection.close();
  });

  it('resources/subscribe forwards updates of that URI until resources/unsubscribe', async () => {
    const notifications = createNotificationHub();
    const peer = await legacyPeer({ onReadResource: () => ({ contents: [] }), notifications });
    const init = resultOf(await peer.initialize());
    expect(init.capabilities).toEqual({ resources: { listChanged: true, subscribe: true } });
    expect(resultOf(await peer.call('resources/subscribe', { uri: 'a://1' }))).toEqual({});
    await peer.server.notifyResourceUpdated('a://1');
    await peer.server.notifyResourceUpdated('a://2');
    await peer.server.notifyListChanged('resources');
    await sleep(5);
    expect(peer.fromServer.map((m) => [m.method, m.params])).toEqual([
      ['notifications/resources/updated', { uri: 'a://1' }],
      ['notifications/resources/list_changed', undefined],
    ]);
    expect(resultOf(await peer.call('resources/unsubscribe', { uri: 'a://1' }))).toEqual({});
    await peer.server.notifyResourceUpdated('a://1');
    await sleep(5);
    expect(peer.fromServer).toHaveLength(2);
    expect(errorOf(await peer.call('resources/subscribe', {})).code).toBe(-32602);
    await peer.connection.close();
  });

  it('answers resources/subscribe -32601 without a notification source', async () => {
    const peer = await legacyPeer({ onReadResource: () => ({ contents: [] }) });
    await peer.initialize();
    expect(errorOf(await peer.call('resources/subscribe', { uri: 'a://1' })).code).toBe(-32601);
    await peer.connection.close();
  });
});

describe('both eras at once', () => {
  it('serves modern requests on another connection, statelessly, while a session is open', async () => {
    const options = { logger: recordingLogger(), ...tools };
    const server = new Server({ name: 'both', version: '1' }, options);
    const legacy = await legacyPeer(tools);
    await legacy.initialize();
    const [client, serverEnd] = createInMemoryPair();
    const connection = await server.connect(serverEnd);
    const iterator = client.messages[Symbol.asyncIterator]();
    await client.send(request('tools/list', {}, { id: 'm' }) as never);
    const modern = (await iterator.next()).value as { result: Record<string, unknown> };
    expect(modern.result.resultType).toBe('complete');
    expect(resultOf(await legacy.call('tools/list', {})).resultType).toBeUndefined();
    await connection.close();
    await legacy.connection.close();
  });
});
