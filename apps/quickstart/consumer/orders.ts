// A server with an MRTR flow, for the HTTP and harness checks of tarballs.test.ts (in the fresh npm project).
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { z } from 'zod';

export const orders = new McpServer({ name: 'orders', version: '1.0.0' });
const confirm = resolver({ args: ['item'] }, ({ item }: { item: string }) =>
  elicit(`Order ${item}?`, z.object({ ok: z.boolean() })),
);
orders.tool(
  'order',
  { input: z.object({ item: z.string() }), resolve: { confirm } },
  ({ item }, { confirm }) => ({
    content: [{ type: 'text', text: confirm.ok ? `Ordered ${item}` : `Did not order ${item}` }],
  }),
);
