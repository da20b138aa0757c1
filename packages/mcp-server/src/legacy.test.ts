// The same resolvers on a 2025-11-25 session: they ask through real server→client requests mid-call.
import type { JSONRPCMessage, JSONRPCResponse } from '@boomerang/protocol';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './mcp-server.js';
import { elicit, elicitUrl, listRoots, resolver } from './resolvers/index.js';
import { recordingLogger } from './test-support/wire.js';
import type { McpServerOptions } from './types.js';

type Asked = { method: string; params?: Record<string, unknown> };

/** A raw 2025-11-25 client: initialize, then calls; server→client requests go to `answer`. */
async function legacyClient(mcp: McpServer, capabilities: object, answer: (r: Asked) => unknown) {
  const [client, serverEnd] = createInMemoryPair();
  const connection = await mcp.connect(serverEnd);
  const waiting = new Map<unknown, (r: JSONRPCResponse) => void>();
  const asked: Asked[] = [];
  const notified: Asked[] = [];
  void (async () => {
    for await (const message of client.messages) {
      const m = message as Record<string, unknown>;
      if (typeof m.method !== 'string') waiting.get(m.id)?.(message as JSONRPCResponse);
      else if (!('id' in m)) notified.push(m as Asked);
      else {
        asked.push(m as Asked);
        const result = await answer(m as Asked);
        await client.send({ jsonrpc: '2.0', id: m.id, result } as JSONRPCMessage);
      }
    }
  })();
  let id = 0;
  const call = (method: string, params: object) => {
    const requestId = ++id;
    const done = new Promise<JSONRPCResponse>((resolve) => waiting.set(requestId, resolve));
    void client.send({ jsonrpc: '2.0', id: requestId, method, params } as JSONRPCMessage);
    return done;
  };
  const clientInfo = { name: 'old-host', version: '1' };
  const init = await call('initialize', { protocolVersion: '2025-11-25', capabilities, clientInfo });
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { call, asked, notified, connection, init: (init as { result?: Record<string, unknown> }).result };
}

const Confirm = z.object({ confirm: z.boolean() });

function shop(options: McpServerOptions = {}) {
  const mcp = new McpServer({ name: 'shop', version: '1' }, { logger: recordingLogger(), ...options });
  const backorder = resolver({ args: ['title'] }, ({ title }: { title: string }) =>
    elicit(`Backorder ${title}?`, Confirm),
  );
  const roots = resolver({}, () => listRoots());
  mcp.tool(
    'order',
    { input: z.object({ title: z.string() }), resolve: { backorder, roots } },
    ({ title }, { backorder, roots }) => ({
      content: [{ type: 'text', text: `${title}: ${backorder.confirm} (${roots.roots.length} roots)` }],
    }),
  );
  return mcp;
}

const accept = (r: Asked) =>
  r.method === 'roots/list'
    ? { roots: [{ uri: 'file:///a' }] }
    : { action: 'accept', content: { confirm: true } };

describe('McpServer on a 2025-11-25 session', () => {
  it('resolvers ask mid-call through server→client requests; one legacy result comes back', async () => {
    const { call, asked, connection } = await legacyClient(shop(), { elicitation: {}, roots: {} }, accept);
    const response = await call('tools/call', { name: 'order', arguments: { title: 'Dune' } });
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: 'Dune: true (1 roots)' }] },
    });
    expect(asked.map((r) => r.method).sort()).toEqual(['elicitation/create', 'roots/list']);
    expect(asked.find((r) => r.method === 'elicitation/create')?.params).toMatchObject({
      message: 'Backorder Dune?',
    });
    await connection.close();
  });

  it('a declined elicitation is an isError result the model can read', async () => {
    const answer = (r: Asked) => (r.method === 'roots/list' ? { roots: [] } : { action: 'decline' });
    const { call, connection } = await legacyClient(shop(), { elicitation: {}, roots: {} }, answer);
    const response = await call('tools/call', { name: 'order', arguments: { title: 'Dune' } });
    expect(response).toMatchObject({ result: { isError: true } });
    await connection.close();
  });

  it('asking for a capability the session lacks is -32021, nothing sent', async () => {
    const { call, asked, connection } = await legacyClient(shop(), { elicitation: {} }, accept);
    const response = await call('tools/call', { name: 'order', arguments: { title: 'Dune' } });
    expect(response).toMatchObject({ error: { code: -32021 } });
    expect(asked.map((r) => r.method)).not.toContain('roots/list');
    await connection.close();
  });

  it('a wrong answer is -32602 naming the resolver', async () => {
    const answer = (r: Asked) =>
      r.method === 'roots/list' ? { roots: [] } : { action: 'accept', content: { confirm: 'yes' } };
    const { call, connection } = await legacyClient(shop(), { elicitation: {}, roots: {} }, answer);
    const response = await call('tools/call', { name: 'order', arguments: { title: 'Dune' } });
    expect(response).toMatchObject({
      error: { code: -32602, message: expect.stringContaining("'backorder'") },
    });
    await connection.close();
  });

  it('advertises the list changes and subscriptions it delivers, as server/discover does', async () => {
    const mcp = shop();
    mcp.resource('file:///notes', { name: 'notes' }, () => ({ contents: [] }));
    const { init, notified, connection } = await legacyClient(mcp, {}, accept);
    expect(init?.capabilities).toMatchObject({
      tools: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
    });
    mcp.tool('added', {}, () => ({ content: [] }));
    await expect.poll(() => notified.map((n) => n.method)).toContain('notifications/tools/list_changed');
    await connection.close();
  });

  it('sends a URL elicitation with the elicitationId 2025-11-25 requires', async () => {
    const mcp = new McpServer({ name: 'pay', version: '1' }, { logger: recordingLogger() });
    const paid = resolver({}, () => elicitUrl('Pay here', 'https://pay.example/checkout'));
    mcp.tool('pay', { resolve: { paid } }, () => ({ content: [{ type: 'text', text: 'paid' }] }));
    const answer = () => ({ action: 'accept' });
    const { call, asked, connection } = await legacyClient(mcp, { elicitation: { url: {} } }, answer);
    expect(await call('tools/call', { name: 'pay' })).toMatchObject({
      result: { content: [{ text: 'paid' }] },
    });
    const params = asked[0]?.params;
    expect(params).toMatchObject({ mode: 'url', message: 'Pay here', url: 'https://pay.example/checkout' });
    expect(params?.elicitationId).toMatch(/^[0-9a-f-]{36}$/);
    await connection.close();
  });

  it('passes legacy and its requestTimeoutMs to the low-level server, which fulfils hand-built rounds', async () => {
    expect(() => new McpServer({ name: 's', version: '1' }, { legacy: { requestTimeoutMs: -1 } })).toThrow(
      RangeError,
    );
    expect(() => new McpServer({ name: 's', version: '1' }, { legacy: 'on' as never })).toThrow(TypeError);
    const { call, connection } = await legacyClient(shop({ legacy: false }), {}, accept);
    expect(await call('tools/list', {})).toMatchObject({ error: { code: -32602 } });
    await connection.close();

    const mcp = new McpServer({ name: 's', version: '1' }, { logger: recordingLogger() });
    mcp.tool('pick', {}, (_args, _resolved, ctx) =>
      ctx.inputResponses?.pick !== undefined
        ? { content: [{ type: 'text', text: `state ${ctx.requestState}` }] }
        : {
            resultType: 'input_required',
            inputRequests: { pick: { method: 'roots/list' } },
            requestState: 'step-1',
          },
    );
    const shim = await legacyClient(mcp, { roots: {} }, accept);
    expect(await shim.call('tools/call', { name: 'pick' })).toMatchObject({
      result: { content: [{ type: 'text', text: 'state step-1' }] },
    });
    await shim.connection.close();
  });
});
