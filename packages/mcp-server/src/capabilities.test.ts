import type { JSONRPCNotification } from '@boomerang/protocol';
import type { MessageHandler } from '@boomerang/protocol/transport';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './mcp-server.js';
import { request, resultOf } from './test-support/wire.js';

const info = { name: 's', version: '1' };
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const discover = async (mcp: McpServer) =>
  resultOf(await mcp.handle(request('server/discover'))).capabilities as Record<string, unknown>;

/** A server whose `chatty` tool logs at debug and at error before answering. */
function chatty(options: ConstructorParameters<typeof McpServer>[1] = {}): McpServer {
  const mcp = new McpServer(info, options);
  mcp.tool('chatty', {}, async (_args, _resolved, ctx) => {
    await ctx.log('debug', { step: 1 }, 'chatty');
    await ctx.log('error', 'oops');
    return text('done');
  });
  return mcp;
}

/** Calls `chatty` asking for logs from `debug` on; returns the notifications sent and the result. */
async function callChatty(mcp: McpServer) {
  const sent: JSONRPCNotification[] = [];
  const message = request('tools/call', {
    name: 'chatty',
    arguments: {},
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/logLevel': 'debug',
    },
  });
  const response = await mcp.handle(message, { notify: (n) => void sent.push(n) });
  return { sent, result: resultOf(response) };
}

describe('McpServer option `capabilities`', () => {
  it('is merged into what server/discover advertises', async () => {
    const mcp = new McpServer(info, { capabilities: { logging: {}, extensions: { 'x.example/ext': {} } } });
    expect(await discover(mcp)).toEqual({ logging: {}, extensions: { 'x.example/ext': {} } });
    mcp.tool('t', {}, () => text('t'));
    expect(await discover(mcp)).toEqual({
      logging: {},
      extensions: { 'x.example/ext': {} },
      tools: { listChanged: true }, // the default notification hub's
    });
  });

  it('carries declared feature capabilities once the feature appears', async () => {
    const mcp = new McpServer(info, { capabilities: { resources: { subscribe: false } } });
    expect(await discover(mcp)).toEqual({});
    const handle = mcp.resource('file:///a.md', { name: 'a' }, () => ({ contents: [] }));
    expect(await discover(mcp)).toEqual({ resources: { listChanged: true, subscribe: false } });
    handle.remove();
    expect(await discover(mcp)).toEqual({ resources: { listChanged: true, subscribe: false } }); // stays
  });

  it('is checked: a non-object is a TypeError', () => {
    expect(() => new McpServer(info, { capabilities: 'logging' as never })).toThrow(TypeError);
  });

  it('with { logging: {} }, ctx.log reaches the client as notifications/message at the asked level', async () => {
    const { sent, result } = await callChatty(chatty({ capabilities: { logging: {} } }));
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: expect.objectContaining({ level: 'debug', data: { step: 1 }, logger: 'chatty' }),
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: expect.objectContaining({ level: 'error', data: 'oops' }),
      },
    ]);
  });

  it('without logging advertised, ctx.log sends nothing', async () => {
    const { sent, result } = await callChatty(chatty());
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(sent).toEqual([]);
  });
});

/** What `@boomerang/transport-http` reads of a handler for its `Mcp-Param-*` checks (its `HttpMessageHandler`). */
type DescribesTools = MessageHandler & {
  toolSchema?(name: string): { readonly inputSchema: Record<string, unknown> } | undefined;
};

describe('McpServer.toolSchema (the HTTP seam for Mcp-Param-* validation)', () => {
  it('returns the published inputSchema of a registered tool, undefined otherwise', async () => {
    const mcp: McpServer = new McpServer(info);
    const seam: DescribesTools = mcp; // structurally what createHttpHandler(mcp) reads
    expect(seam.toolSchema?.('region')).toBeUndefined();
    const handle = mcp.tool(
      'region',
      { input: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }), text: z.string() }) },
      ({ text: t }) => text(t),
    );
    const listed = resultOf(await mcp.handle(request('tools/list'))).tools as { inputSchema: unknown }[];
    const schema = seam.toolSchema?.('region');
    expect(schema).toEqual({ inputSchema: listed[0]?.inputSchema });
    expect(schema?.inputSchema).toMatchObject({ properties: { region: { 'x-mcp-header': 'Region' } } });
    expect(mcp.toolSchema('other')).toBeUndefined();
    handle.remove();
    expect(mcp.toolSchema('region')).toBeUndefined();
  });
});
