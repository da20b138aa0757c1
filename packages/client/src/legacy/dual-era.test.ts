// Dual era on the client: the probe, the initialize fallback, legacy requests, and a legacy server's
// requests answered by the MRTR callbacks.
import { McpError, transportFailureData } from '@boomerang/protocol';
import type { Transport } from '@boomerang/protocol/transport';
import { describe, expect, it } from 'vitest';
import { Client } from '../client.js';
import { deferred, harness, INFO, NO_REPLY, type Reply } from '../test-support/fake-server.js';

/** Records what the client sends back for each server→client request id. */
function captureAnswers(transport: Transport): Map<unknown, unknown> {
  const answered = new Map<unknown, unknown>();
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    if ('id' in message && !('method' in message)) answered.set(message.id, message);
    return send(message, options);
  };
  return answered;
}

const INITIALIZED = {
  protocolVersion: '2025-11-25',
  capabilities: { tools: {} },
  serverInfo: { name: 'old', version: '1' },
};

/** A 2025-11-25 server: no server/discover, initialize, then legacy results (no resultType, no _meta). */
const legacyServer =
  (extra: Reply = () => ({ content: [{ type: 'text', text: 'hi' }] })): Reply =>
  (request, index, server) => {
    if (request.method === 'server/discover') throw new McpError(-32601, 'Method not found');
    if (request.method === 'initialize') return INITIALIZED;
    return extra(request, index, server);
  };

describe("protocol: 'auto'", () => {
  it('a DiscoverResult means 2026-07-28: nothing else is sent', async () => {
    const discover = { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} };
    await using h = await harness(() => discover, { protocol: 'auto' });
    expect(h.client.protocolVersion).toBe('2026-07-28');
    expect(h.server.requests.map((r) => r.method)).toEqual(['server/discover']);
    expect(h.server.requests[0]?.params._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
  });

  it.each([-32022, -32021, -32020])('a %i error means 2026-07-28', async (code) => {
    const reply: Reply = () => {
      throw new McpError(code, 'modern refusal');
    };
    await using h = await harness(reply, { protocol: 'auto' });
    expect(h.client.protocolVersion).toBe('2026-07-28');
    expect(h.server.requests).toHaveLength(1);
  });

  it('any other error means 2025-11-25: initialize, then notifications/initialized', async () => {
    await using h = await harness(legacyServer(), { protocol: 'auto', roots: () => ({ roots: [] }) });
    expect(h.client.protocolVersion).toBe('2025-11-25');
    expect(h.server.requests.map((r) => r.method)).toEqual(['server/discover', 'initialize']);
    expect(h.server.requests[1]?.params).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: { roots: {} },
      clientInfo: INFO,
    });
    await h.server.waitForNotification('notifications/initialized');
  });

  it('no answer within protocolProbeTimeoutMs means 2025-11-25 (the probe is cancelled)', async () => {
    const reply: Reply = (request) => (request.method === 'server/discover' ? NO_REPLY : INITIALIZED);
    await using h = await harness(reply, { protocol: 'auto', protocolProbeTimeoutMs: 20 });
    expect(h.client.protocolVersion).toBe('2025-11-25');
    const cancelled = await h.server.waitForNotification('notifications/cancelled');
    expect(cancelled.params).toMatchObject({ requestId: h.server.requests[0]?.id });
  });

  it('a transport failure (nothing heard from the server) fails connect: no initialize is sent', async () => {
    const reply: Reply = () => {
      throw new McpError(-32603, 'HTTP transport: could not POST server/discover', transportFailureData());
    };
    await expect(harness(reply, { protocol: 'auto' })).rejects.toMatchObject({
      message: expect.stringMatching(/could not POST/),
    });
  });

  it('an HTTP 5xx without a JSON-RPC body fails connect; a 4xx without one means 2025-11-25', async () => {
    const refusing =
      (status: number): Reply =>
      (request, index, server) => {
        if (request.method === 'server/discover') {
          throw new McpError(-32603, `HTTP transport: got HTTP ${status}`, transportFailureData(status));
        }
        return legacyServer()(request, index, server);
      };
    await expect(harness(refusing(502), { protocol: 'auto' })).rejects.toMatchObject({ code: -32603 });
    await using h = await harness(refusing(400), { protocol: 'auto' });
    expect(h.client.protocolVersion).toBe('2025-11-25');
  });

  it('waits for the probe without a time limit on a request transport (HTTP: every outcome is reported)', async () => {
    let answer: (() => void) | undefined;
    const discover = { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} };
    const slow: Reply = () => new Promise((resolve) => (answer = () => resolve(discover)));
    const connecting = harness(slow, {
      protocol: 'auto',
      protocolProbeTimeoutMs: 10,
      asRequestTransport: true,
    });
    await new Promise((resolve) => setTimeout(resolve, 50)); // five probe timeouts: nothing happens
    answer?.();
    await using h = await connecting;
    expect(h.client.protocolVersion).toBe('2026-07-28');
    expect(h.server.requests.map((r) => r.method)).toEqual(['server/discover']);
  });

  it('rejects connect when the server answers initialize with a version it does not speak', async () => {
    const reply = legacyServer();
    const old: Reply = (request, i, s) =>
      request.method === 'initialize'
        ? { ...INITIALIZED, protocolVersion: '2024-11-05' }
        : reply(request, i, s);
    await expect(harness(old, { protocol: 'auto' })).rejects.toMatchObject({ code: -32022 });
  });
});

describe('fixed protocol', () => {
  it("'2025-11-25' initializes without probing", async () => {
    await using h = await harness(legacyServer(), { protocol: '2025-11-25' });
    expect(h.server.requests.map((r) => r.method)).toEqual(['initialize']);
    expect(h.client.protocolVersion).toBe('2025-11-25');
  });

  it("'2026-07-28' sends nothing when connecting", async () => {
    await using h = await harness(() => NO_REPLY, { protocol: '2026-07-28' });
    expect(h.server.requests).toEqual([]);
  });

  it('checks the options', () => {
    expect(() => new Client(INFO, { protocol: '2025-06-18' as never })).toThrow(TypeError);
    expect(() => new Client(INFO, { protocolProbeTimeoutMs: 0 })).toThrow(RangeError);
  });
});

describe('a 2025-11-25 connection', () => {
  it('sends requests without _meta and reads legacy results', async () => {
    const reply = legacyServer((request) =>
      request.method === 'tools/list' ? { tools: [] } : { content: [{ type: 'text', text: 'hi' }] },
    );
    await using h = await harness(reply, { protocol: '2025-11-25' });
    expect(await h.client.callTool('greet', { who: 'x' })).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: 'hi' }],
    });
    expect(await h.client.listTools()).toMatchObject({ tools: [], ttlMs: 0 });
    await h.client.listTools();
    expect(h.server.requests.map((r) => [r.method, r.params._meta])).toEqual([
      ['initialize', undefined],
      ['tools/call', undefined],
      ['tools/list', undefined],
      ['tools/list', undefined], // never cached: a legacy result has no ttlMs
    ]);
  });

  it("answers the server's elicitation, sampling and roots requests with the MRTR callbacks", async () => {
    const seen: unknown[] = [];
    const reply = legacyServer(async (request, _i, server) => {
      if (request.method !== 'tools/call') return {};
      const form = { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } };
      await server.send({ jsonrpc: '2.0', id: 'e', method: 'elicitation/create', params: form } as never);
      const sampling = { messages: [], maxTokens: 5 };
      await server.send({
        jsonrpc: '2.0',
        id: 's',
        method: 'sampling/createMessage',
        params: sampling,
      } as never);
      await server.send({ jsonrpc: '2.0', id: 'r', method: 'roots/list' } as never);
      await server.send({ jsonrpc: '2.0', id: 'p', method: 'ping' } as never);
      return new Promise((resolve) => setTimeout(() => resolve({ content: [] }), 20));
    });
    await using h = await harness(reply, {
      protocol: '2025-11-25',
      elicitation: (params, ctx) => {
        seen.push([params.message, ctx.method, 'name' in ctx ? ctx.name : undefined]);
        return { action: 'accept', content: {} };
      },
      sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' }),
      roots: () => ({ roots: [{ uri: 'file:///r' }] }),
    });
    const answered = captureAnswers(h.transport);
    expect(await h.client.callTool('ask')).toMatchObject({ content: [] });
    expect(seen).toEqual([['Sure?', 'tools/call', 'ask']]);
    expect(answered.get('e')).toMatchObject({ result: { action: 'accept', content: {} } });
    expect(answered.get('s')).toMatchObject({ result: { model: 'm', role: 'assistant' } });
    expect(answered.get('r')).toMatchObject({ result: { roots: [{ uri: 'file:///r' }] } });
    expect(answered.get('p')).toMatchObject({ result: {} });
  });

  it("aborts the callback's signal when the server cancels its request", async () => {
    let aborted: unknown;
    const reply = legacyServer(async (request, _i, server) => {
      if (request.method === 'tools/call') {
        await server.send({ jsonrpc: '2.0', id: 'r', method: 'roots/list' } as never);
        await new Promise((resolve) => setTimeout(resolve, 5));
        const params = { requestId: 'r', reason: 'timed out' };
        await server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params } as never);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return { content: [] };
    });
    await using h = await harness(reply, {
      protocol: '2025-11-25',
      roots: (ctx) =>
        new Promise((_resolve, reject) =>
          ctx.signal.addEventListener('abort', () => {
            aborted = ctx.signal.reason;
            reject(ctx.signal.reason);
          }),
        ),
    });
    await h.client.callTool('t');
    expect(aborted).toMatchObject({ message: 'Cancelled by the server' });
  });

  it('answers -32603 when a callback throws, without its details', async () => {
    const reply = legacyServer(async (request, _i, server) => {
      if (request.method === 'tools/call') {
        await server.send({ jsonrpc: '2.0', id: 'r', method: 'roots/list' } as never);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { content: [] };
    });
    await using h = await harness(reply, {
      protocol: '2025-11-25',
      roots: () => {
        throw new Error('secret path');
      },
    });
    const answered = captureAnswers(h.transport);
    await h.client.callTool('t');
    expect(answered.get('r')).toMatchObject({ error: { code: -32603, message: 'Internal error' } });
  });

  it('answers -32601 for a request no callback covers', async () => {
    const reply = legacyServer(async (request, _i, server) => {
      if (request.method === 'tools/call') {
        await server.send({ jsonrpc: '2.0', id: 'x', method: 'roots/list' } as never);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { content: [] };
    });
    await using h = await harness(reply, { protocol: '2025-11-25' });
    const answered = captureAnswers(h.transport);
    await h.client.callTool('t');
    expect(answered.get('x')).toMatchObject({ error: { code: -32601 } });
  });

  it('answers -32601 for a capability declared through the option but without a callback', async () => {
    const reply = legacyServer(async (request, _i, server) => {
      if (request.method === 'tools/call') {
        await server.send({ jsonrpc: '2.0', id: 'x', method: 'roots/list' } as never);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { content: [] };
    });
    await using h = await harness(reply, { protocol: '2025-11-25', capabilities: { roots: {} } });
    const answered = captureAnswers(h.transport);
    await h.client.callTool('t');
    expect(h.server.requests[0]?.params.capabilities).toEqual({ roots: {} });
    expect(answered.get('x')).toMatchObject({ error: { code: -32601 } });
  });
});

describe('a 2025-11-25 connection: limits', () => {
  it("does not count the time spent answering the server's questions against responseTimeoutMs", async () => {
    let answered: Map<unknown, unknown> | undefined;
    const reply = legacyServer(async (request, _i, server) => {
      if (request.method !== 'tools/call') return {};
      const form = { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } };
      await server.send({ jsonrpc: '2.0', id: 'e', method: 'elicitation/create', params: form } as never);
      while (!answered?.has('e')) await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { content: [{ type: 'text', text: 'after the form' }] };
    });
    await using h = await harness(reply, {
      protocol: '2025-11-25',
      responseTimeoutMs: 60,
      elicitation: async () => {
        await new Promise((resolve) => setTimeout(resolve, 150)); // a person filling in the form
        return { action: 'accept', content: {} };
      },
    });
    answered = captureAnswers(h.transport);
    expect(await h.client.callTool('ask')).toMatchObject({ content: [{ text: 'after the form' }] });
  });

  it("answers the server's requests beyond maxInputRequests at once with -32603, running no callback", async () => {
    const gate = deferred();
    let calls = 0;
    const reply = legacyServer(async (request, _i, server) => {
      if (request.method !== 'tools/call') return {};
      for (const id of ['r1', 'r2', 'r3']) {
        await server.send({ jsonrpc: '2.0', id, method: 'roots/list' } as never);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
      gate.resolve();
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { content: [] };
    });
    await using h = await harness(reply, {
      protocol: '2025-11-25',
      maxInputRequests: 2,
      roots: async () => {
        calls++;
        await gate.promise;
        return { roots: [] };
      },
    });
    const answered = captureAnswers(h.transport);
    await h.client.callTool('t');
    expect(calls).toBe(2);
    expect(answered.get('r1')).toMatchObject({ result: { roots: [] } });
    expect(answered.get('r2')).toMatchObject({ result: { roots: [] } });
    expect(answered.get('r3')).toMatchObject({
      error: {
        code: -32603,
        message:
          'Too many requests at once: this client answers at most 2 server requests at the same time (maxInputRequests)',
      },
    });
  });
});

describe('a 2026-07-28 connection', () => {
  it('answers server→client requests -32601 (modern servers never send them)', async () => {
    const reply: Reply = async (_request, _i, server) => {
      await server.send({ jsonrpc: '2.0', id: 'x', method: 'roots/list' } as never);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { resultType: 'complete', content: [] };
    };
    await using h = await harness(reply, { roots: () => ({ roots: [] }) });
    const answered = captureAnswers(h.transport);
    await h.client.callTool('t');
    expect(answered.get('x')).toMatchObject({ error: { code: -32601 } });
  });
});
