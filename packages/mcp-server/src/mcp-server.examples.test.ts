import { readFileSync } from 'node:fs';
import { Client } from '@boomerang/client';
import { connectInMemory } from '@boomerang/transport-memory';
import { describe, expect, it, vi } from 'vitest';

vi.spyOn(console, 'log').mockImplementation(() => {});
const { orderSolaris, shop } = await import('./mcp-server.examples.js');

describe('README examples', () => {
  it('README.md quotes every example region verbatim', () => {
    const source = readFileSync(new URL('./mcp-server.examples.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const regions = [...source.matchAll(/\/\/ #region (\w+)\n([\s\S]*?)\n+\/\/ #endregion \1/g)];
    expect(regions.map((m) => m[1])).toEqual(['shop', 'client', 'handbuilt', 'resources', 'method']);
    for (const [, , body] of regions) expect(readme).toContain(body?.trim());
  });

  it('shop + client: an out-of-stock order asks once and completes', async () => {
    expect(await orderSolaris()).toBe('Ordered "Solaris" (backorder)');
  });

  it('handbuilt, resources: the rest of the shop works end to end', async () => {
    const client = new Client(
      { name: 'c', version: '1' },
      { elicitation: async () => ({ action: 'accept', content: { paper: 'gold' } }) },
    );
    await using _link = await connectInMemory(client, shop);
    const wrapped = await client.callTool('gift_wrap', { title: 'Dune' });
    expect(wrapped.content[0]).toMatchObject({ text: 'Wrapping "Dune" in gold paper' });
    expect((await client.readResource('shop://catalogue')).contents[0]).toMatchObject({
      text: 'Dune\nSolaris',
    });
    expect((await client.readResource('shop://books/Dune')).contents[0]).toMatchObject({
      text: '{"count":3}',
    });
    const completion = await client.complete({
      ref: { type: 'ref/resource', uri: 'shop://books/{title}' },
      argument: { name: 'title', value: 'S' },
    });
    expect(completion.completion.values).toEqual(['Solaris']);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(['order_book', 'gift_wrap']);
    expect(JSON.stringify(tools.tools[0]?.inputSchema)).not.toContain('backorder');
  });

  it('method: a vendor method asks through its resolver, then answers', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    };
    const call = (id: number, params: Record<string, unknown>) =>
      shop.handle({ jsonrpc: '2.0', id, method: 'shop/hold', params: { _meta: meta, ...params } });
    const first = (await call(1, { title: 'Solaris' })) as { result: Record<string, unknown> };
    expect(first.result.resultType).toBe('input_required');
    const [key] = Object.keys(first.result.inputRequests as object);
    const answers = { [key as string]: { action: 'accept', content: { notify: true } } };
    const second = await call(2, {
      title: 'Solaris',
      inputResponses: answers,
      requestState: first.result.requestState,
    });
    expect(second).toMatchObject({ result: { resultType: 'complete', held: 'Solaris', notify: true } });
  });
});
