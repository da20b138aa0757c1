// The "after" of the migration guide: what the codemod makes of before.examples.ts (formatted with biome),
// checked by examples.test.ts, which also serves it over HTTP and calls it with the Boomerang client.
// #region after
import { elicitResult, McpServer, resolver } from '@boomerang/mcp-server';
import { createHttpHandler } from '@boomerang/transport-http';
import * as z from 'zod/v4';

const ORDERS = new Map([['A-1', { item: 'Dune', status: 'shipped' }]]);

export function buildServer(): McpServer {
  const server = new McpServer({ name: 'orders', version: '1.0.0' });

  server.tool(
    'order_status',
    { description: 'Status of an order', input: z.object({ id: z.string() }) },
    async ({ id }) => ({
      content: [{ type: 'text', text: ORDERS.get(id)?.status ?? 'unknown order' }],
    }),
  );

  // tool 'cancel_order': asked before the handler runs; the answer is sealed in the request state and bound to this question.
  const askCancelOrderAnswer = resolver({ args: ['id'] }, ({ id }: { id: string }) =>
    elicitResult(`Cancel order ${id}?`, {
      type: 'object',
      properties: { confirm: { type: 'boolean', title: 'Cancel it' } },
      required: ['confirm'],
    }),
  );
  server.tool(
    'cancel_order',
    {
      description: 'Cancels an order once the user confirms',
      input: z.object({ id: z.string() }),
      resolve: { answer: askCancelOrderAnswer },
    },
    async ({ id }, { answer }) => {
      // "answer" is the answer of the resolver askCancelOrderAnswer (asked before this handler runs).
      if (answer.action !== 'accept' || answer.content?.confirm !== true) {
        return { content: [{ type: 'text', text: `order ${id} kept` }] };
      }
      ORDERS.delete(id);
      return { content: [{ type: 'text', text: `order ${id} cancelled` }] };
    },
  );

  server.prompt(
    'complain',
    { description: 'Write a complaint', input: z.object({ id: z.string() }) },
    ({ id }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Write a complaint about order ${id}` } }],
    }),
  );

  server.resourceTemplate('orders://{id}', { name: 'order', mimeType: 'application/json' }, async (vars) => {
    const { id } = vars;
    const uri = new URL(`orders://${encodeURIComponent(String(vars.id))}`);
    return {
      contents: [{ uri: uri.href, text: JSON.stringify(ORDERS.get(String(id)) ?? null) }],
    };
  });

  return server;
}

/** A web-standard handler: mount it in any framework, or serve it with @hono/node-server and the like. */
export const handler = createHttpHandler(buildServer());
// #endregion after
