// Examples quoted in README.md: they typecheck with the package and run in mcp-server.examples.test.ts.
// #region shop
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { z } from 'zod';

const inventory = new Map([
  ['Dune', { count: 3 }],
  ['Solaris', { count: 0 }],
]);

// A resolver computes a value from the tool's arguments; it may ask the user instead of answering.
const checkStock = resolver({ args: ['title'] }, ({ title }: { title: string }) => ({
  count: inventory.get(title)?.count ?? 0,
}));
// Build question schemas once (module scope): a zod schema per call costs its conversion to JSON Schema too.
const Backorder = z.object({ confirm: z.boolean() });
const confirmBackorder = resolver({ args: ['title'], uses: { stock: checkStock } }, ({ title, stock }) =>
  stock.count > 0 ? { confirm: true } : elicit(`"${title}" is out of stock. Order it anyway?`, Backorder),
);

export const shop = new McpServer({ name: 'shop', version: '1.0.0' }); // request state sealed by default

shop.tool(
  'order_book',
  {
    description: 'Order a book',
    input: z.object({ title: z.string().describe('Exact title') }),
    resolve: { stock: checkStock, backorder: confirmBackorder }, // invisible to the model
  },
  async ({ title }, { stock, backorder }) => ({
    content: [
      {
        type: 'text',
        text: backorder.confirm
          ? `Ordered "${title}"${stock.count > 0 ? '' : ' (backorder)'}`
          : `Not ordered: "${title}" is out of stock`,
      },
    ],
  }),
);

// #endregion shop

// #region client
import { Client } from '@boomerang/client';
import { connectInMemory } from '@boomerang/transport-memory';

/** A client whose elicitation callback answers the backorder question; the rounds are invisible to it. */
export async function orderSolaris(): Promise<string> {
  const client = new Client(
    { name: 'host', version: '1.0.0' },
    { elicitation: async () => ({ action: 'accept', content: { confirm: true } }) },
  );
  await using _link = await connectInMemory(client, shop);
  const result = await client.callTool('order_book', { title: 'Solaris' });
  return result.content[0]?.type === 'text' ? result.content[0].text : '';
}
console.log(await orderSolaris()); // Ordered "Solaris" (backorder)

// #endregion client

// #region handbuilt
import { elicitRequest, inputRequired } from '@boomerang/protocol';
import { ElicitResultSchema } from '@boomerang/protocol/schemas';

/** A tool without resolvers may drive the rounds itself; `ctx.requestState` comes back as plaintext. */
shop.tool('gift_wrap', { input: z.object({ title: z.string() }) }, ({ title }, _resolved, ctx) => {
  // Answers are client input: validate them like any other.
  const answer = ElicitResultSchema.safeParse(ctx.inputResponses?.paper);
  const paper = answer.success && answer.data.action === 'accept' ? answer.data.content?.paper : undefined;
  if (ctx.requestState === 'asked-paper' && typeof paper === 'string') {
    return { content: [{ type: 'text', text: `Wrapping "${title}" in ${paper} paper` }] };
  }
  return inputRequired({
    inputRequests: {
      paper: elicitRequest({
        message: 'Which paper?',
        requestedSchema: { type: 'object', properties: { paper: { type: 'string', enum: ['red', 'gold'] } } },
      }),
    },
    requestState: 'asked-paper', // sealed by the server; tamper-proof, expiring, bound to this call
  });
});
// #endregion handbuilt

// #region resources
/** A static resource, and a template whose variables are typed from the template string. */
shop.resource('shop://catalogue', { mimeType: 'text/plain' }, () => ({
  contents: [{ uri: 'shop://catalogue', text: [...inventory.keys()].join('\n') }],
}));
shop.resourceTemplate(
  'shop://books/{title}',
  {
    mimeType: 'application/json',
    complete: { title: (value) => [...inventory.keys()].filter((t) => t.startsWith(value)) },
  },
  ({ title }) => ({
    contents: [
      {
        uri: `shop://books/${encodeURIComponent(title)}`,
        text: JSON.stringify(inventory.get(title) ?? null),
      },
    ],
  }),
);
// #endregion resources

// #region method
// A vendor method with a resolver: it asks exactly as a tool would, in input_required rounds.
const Hold = z.object({ notify: z.boolean() });
const wantsNotice = resolver({ args: ['title'] }, ({ title }) =>
  elicit(`Tell you when "${title}" is back?`, Hold),
);

shop.method(
  'shop/hold',
  { params: z.object({ title: z.string() }), resolve: { notice: wantsNotice } },
  ({ title }, { notice }) => ({ held: title, notify: notice.notify }),
);
// #endregion method
