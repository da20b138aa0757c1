// The "before" of the migration guide: a small server on the official SDK v2 (@modelcontextprotocol/server
// 2.4.0, typechecked against it). examples.test.ts runs the codemod on this file and checks that it gives
// after.examples.ts.
// #region before
import { createMcpHandler, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

const ORDERS = new Map([['A-1', { item: 'Dune', status: 'shipped' }]]);

export function buildServer(): McpServer {
  const server = new McpServer({ name: 'orders', version: '1.0.0' });

  server.registerTool(
    'order_status',
    { description: 'Status of an order', inputSchema: { id: z.string() } },
    async ({ id }) => ({
      content: [{ type: 'text', text: ORDERS.get(id)?.status ?? 'unknown order' }],
    }),
  );

  server.registerTool(
    'cancel_order',
    { description: 'Cancels an order once the user confirms', inputSchema: z.object({ id: z.string() }) },
    async ({ id }, ctx) => {
      const answer = await ctx.mcpReq.elicitInput({
        message: `Cancel order ${id}?`,
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', title: 'Cancel it' } },
          required: ['confirm'],
        },
      });
      if (answer.action !== 'accept' || answer.content?.confirm !== true) {
        return { content: [{ type: 'text', text: `order ${id} kept` }] };
      }
      ORDERS.delete(id);
      return { content: [{ type: 'text', text: `order ${id} cancelled` }] };
    },
  );

  server.registerPrompt(
    'complain',
    { description: 'Write a complaint', argsSchema: z.object({ id: z.string() }) },
    ({ id }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Write a complaint about order ${id}` } }],
    }),
  );

  server.registerResource(
    'order',
    new ResourceTemplate('orders://{id}', { list: undefined }),
    { mimeType: 'application/json' },
    async (uri, { id }) => ({
      contents: [{ uri: uri.href, text: JSON.stringify(ORDERS.get(String(id)) ?? null) }],
    }),
  );

  return server;
}

/** A web-standard handler: mount it in any framework, or serve it with @hono/node-server and the like. */
export const handler = createMcpHandler(buildServer);
// #endregion before
