// `HttpMessageHandler.toolSchema`: a handler that describes its tools (as `McpServer` does) gets its `Mcp-Param-*`
// headers validated without the `tools` option.
import { describe, expect, it, vi } from 'vitest';
import type { HttpMessageHandler } from './endpoint.js';
import { createHttpHandler } from './handler.js';
import { bodyOf, makeServer, post, rpc, tools } from './test-support/fixture.js';

/** An McpServer-like handler: the fixture server, plus a `toolSchema` lookup over its tool list. */
function describingHandler(lookups: string[] = []): HttpMessageHandler {
  const server = makeServer();
  return {
    handle: (message, ctx) => server.handle(message, ctx),
    toolSchema: (name) => {
      lookups.push(name);
      const tool = tools.find((t) => t.name === name);
      return tool === undefined ? undefined : { inputSchema: tool.inputSchema };
    },
  };
}

const echo = (args: Record<string, unknown>) =>
  rpc('tools/call', { name: 'echo', arguments: { text: 'hi', ...args } });

describe('HttpMessageHandler.toolSchema', () => {
  it('validates Mcp-Param-* headers through the handler when no tools option is given', async () => {
    const lookups: string[] = [];
    const handler = createHttpHandler(describingHandler(lookups), { onError: () => {} });
    const missing = await handler(post(echo({ region: 'us-west1' })));
    expect(missing.status).toBe(400);
    expect(await bodyOf(missing)).toMatchObject({
      error: { code: -32020, message: /missing Mcp-Param-Region/ },
    });
    const wrong = await handler(post(echo({ region: 'eu' }), { 'mcp-param-region': 'us' }));
    expect(wrong.status).toBe(400);
    const ok = await handler(post(echo({ region: 'us-west1' }), { 'mcp-param-region': 'us-west1' }));
    expect(ok.status).toBe(200);
    expect(lookups).toEqual(['echo', 'echo', 'echo']);
  });

  it('leaves unknown tools to the server', async () => {
    const handler = createHttpHandler(describingHandler(), { onError: () => {} });
    const response = await handler(post(rpc('tools/call', { name: 'nope', arguments: {} })));
    expect(response.status).not.toBe(400);
  });

  it('prefers an explicit tools option over toolSchema', async () => {
    const lookups: string[] = [];
    const handler = createHttpHandler(describingHandler(lookups), { tools: [], onError: () => {} });
    const response = await handler(post(echo({ region: 'us-west1' })));
    expect(response.status).toBe(200); // no declarations in the explicit (empty) list
    expect(lookups).toEqual([]);
  });

  it('answers 500 with -32603 when toolSchema throws', async () => {
    const onError = vi.fn();
    const server = makeServer();
    const handler = createHttpHandler(
      {
        handle: (message, ctx) => server.handle(message, ctx),
        toolSchema: () => {
          throw new Error('boom');
        },
      },
      { onError },
    );
    const response = await handler(post(echo({ region: 'x' }), { 'mcp-param-region': 'x' }));
    expect(response.status).toBe(500);
    expect(await bodyOf(response)).toMatchObject({ error: { code: -32603 } });
    expect(onError).toHaveBeenCalledOnce();
  });

  it('does not check Mcp-Param-* headers of a handler without toolSchema and without tools', async () => {
    const handler = createHttpHandler(makeServer(), { onError: () => {} });
    const response = await handler(post(echo({ region: 'us-west1' })));
    expect(response.status).toBe(200);
  });
});
