// The server the README's example tests (harness.examples.ts): a tool that asks before it orders a book that
// is out of stock, and one that asks the client's model for a blurb.
// #region server
import { elicit, McpServer, resolver, sample } from '@boomerang/mcp-server';
import { z } from 'zod';

const stock = new Map([
  ['Dune', 3],
  ['Solaris', 0],
]);
const Backorder = z.object({ confirm: z.boolean() });
const backorder = resolver({ args: ['title'] }, ({ title }: { title: string }) =>
  (stock.get(title) ?? 0) > 0
    ? { confirm: true }
    : elicit(`"${title}" is out of stock. Order it anyway?`, Backorder),
);
const blurb = resolver({ args: ['title'] }, ({ title }: { title: string }) =>
  sample({
    messages: [{ role: 'user', content: { type: 'text', text: `A blurb for ${title}` } }],
    maxTokens: 60,
  }),
);

export const bookshop = new McpServer({ name: 'bookshop', version: '1.0.0' });
bookshop.tool(
  'order_book',
  { input: z.object({ title: z.string() }), resolve: { backorder } },
  ({ title }, { backorder }) => ({
    content: [{ type: 'text', text: backorder.confirm ? `Ordered "${title}"` : `Not ordered: "${title}"` }],
  }),
);
bookshop.tool(
  'describe_book',
  { input: z.object({ title: z.string() }), resolve: { blurb } },
  (_args, { blurb }) => {
    const [reply] = [blurb.content].flat(); // the model's first content block
    return { content: [{ type: 'text', text: reply?.type === 'text' ? reply.text : '' }] };
  },
);
// #endregion server
