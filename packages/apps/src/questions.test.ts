import { Client, type ElicitationCallback } from '@boomerang/client';
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { elicitApp, elicitAppResult } from './questions.js';
import { createShop } from './server.examples.js';
import { request, resultOf } from './test-support/wire.js';
import { elicitationViewUri } from './wire.js';

async function connect(mcp: McpServer, elicitation: ElicitationCallback): Promise<Client> {
  const [clientEnd, serverEnd] = createInMemoryPair();
  await mcp.connect(serverEnd);
  const client = new Client({ name: 'test', version: '1' }, { elicitation });
  await client.connect(clientEnd);
  return client;
}

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('a question an App answers, on the wire', () => {
  it('is a form elicitation naming the view in _meta.ui.resourceUri', async () => {
    const asked: unknown[] = [];
    const client = await connect(createShop(), (params) => {
      asked.push(params);
      return { action: 'accept', content: { isbn: '9780441013593' } };
    });
    expect(textOf(await client.callTool('order_book', {}))).toBe('Ordered "Dune"');
    expect(asked).toEqual([
      {
        mode: 'form',
        message: 'Which book shall I order?',
        requestedSchema: expect.objectContaining({ type: 'object', required: ['isbn'] }),
        _meta: { ui: { resourceUri: 'ui://shop/picker' } },
      },
    ]);
    expect(elicitationViewUri(asked[0])).toBe('ui://shop/picker');
  });

  it('validates the answer against the schema on the server', async () => {
    const client = await connect(createShop(), () => ({ action: 'accept', content: { isbn: '0000000000' } }));
    await expect(client.callTool('order_book', {})).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/does not match the requested schema/),
    });
  });

  it('fails the call on a refusal, unless the resolver asked for the outcome', async () => {
    const declined = await connect(createShop(), () => ({ action: 'decline' }));
    expect((await declined.callTool('order_book', {})).isError).toBe(true);

    const mcp = new McpServer({ name: 'outcome', version: '1' });
    const Pick = z.object({ colour: z.enum(['red', 'blue']) });
    const pick = resolver({}, () => elicitAppResult('ui://paint/picker', Pick, { message: 'Colour?' }));
    mcp.tool('paint', { resolve: { pick } }, async (_args, { pick }) => ({
      content: [{ type: 'text', text: pick.action === 'accept' ? pick.content.colour : pick.action }],
    }));
    const client = await connect(mcp, () => ({ action: 'cancel' }));
    expect(textOf(await client.callTool('paint', {}))).toBe('cancel');
  });

  it('binds the answer to the view: the input request key changes with the view named', async () => {
    const keyFor = async (uri: string) => {
      const mcp = new McpServer({ name: 'digest', version: '1' });
      const pick = resolver({}, () => elicitApp(uri, z.object({ a: z.string() }), { message: 'm' }));
      mcp.tool('t', { resolve: { pick } }, async () => ({ content: [] }));
      const response = await mcp.handle(
        request('tools/call', { name: 't', arguments: {} }, { elicitation: { form: {} } }),
      );
      return Object.keys((resultOf(response) as { inputRequests: object }).inputRequests);
    };
    const [a, b] = [await keyFor('ui://one/v'), await keyFor('ui://two/v')];
    expect(a).toHaveLength(1);
    expect(a).not.toEqual(b);
    expect(await keyFor('ui://one/v')).toEqual(a);
  });

  it.each([
    ['a non-ui URI', () => elicitApp('https://x', z.object({ a: z.string() }), { message: 'm' })],
    ['no options', () => elicitApp('ui://x', z.object({ a: z.string() }), undefined as never)],
    [
      'a message that is no string',
      () => elicitApp('ui://x', z.object({ a: z.string() }), { message: 1 as never }),
    ],
    [
      'a nested schema',
      () => elicitApp('ui://x', z.object({ a: z.object({ b: z.string() }) }) as never, { message: 'm' }),
    ],
    [
      'elicit() with a _meta that is no object',
      () => elicit('m', z.object({ a: z.string() }), { _meta: [] as never }),
    ],
    [
      'elicit() with options that are no object',
      () => elicit('m', z.object({ a: z.string() }), 'x' as never),
    ],
  ])('throws TypeError for %s', (_, build) => {
    expect(build).toThrow(TypeError);
  });
});
