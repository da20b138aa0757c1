// "Migrating from the official TypeScript SDK": the same tool before (official SDK 2.4.0, a hand-written
// phase switch over its request-state codec) and after (Boomerang resolvers). migrating.examples.test.ts runs
// both against their own clients and checks they answer alike.
// #region before
import { randomBytes } from 'node:crypto';
import {
  acceptedContent,
  createRequestStateCodec,
  inputRequired,
  McpServer as OfficialServer,
} from '@modelcontextprotocol/server';
import * as z from 'zod';

const stock = new Map([
  ['Dune', 3],
  ['Solaris', 0],
]);
const Confirm = z.object({ confirm: z.boolean() });
const Wrap = z.object({ wrap: z.boolean() });

/** Signs (does not encrypt) the state; binding it to the tool and the user is up to `bind`. */
const codec = createRequestStateCodec<{ phase: 'backorder' | 'wrap'; backorder: boolean }>({
  key: randomBytes(32),
  bind: (ctx) => ctx.mcpReq.method,
});

export function officialServer(): OfficialServer {
  const server = new OfficialServer(
    { name: 'shop', version: '1.0.0' },
    { capabilities: { tools: {} }, requestState: { verify: codec.verify } },
  );
  server.registerTool(
    'order_book',
    { inputSchema: z.object({ title: z.string() }) },
    async ({ title }, ctx) => {
      // Which question was asked last lives in the state; every branch re-derives where the call stands.
      const state = ctx.mcpReq.requestState<{ phase: 'backorder' | 'wrap'; backorder: boolean }>();
      const inStock = (stock.get(title) ?? 0) > 0;
      if (state === undefined && !inStock) {
        return inputRequired({
          inputRequests: {
            backorder: inputRequired.elicit({
              message: `"${title}" is out of stock. Order it anyway?`,
              requestedSchema: Confirm,
            }),
          },
          requestState: await codec.mint({ phase: 'backorder', backorder: false }, ctx),
        });
      }
      let backorder = state?.backorder ?? false;
      if (state?.phase === 'backorder') {
        const answer = acceptedContent(ctx.mcpReq.inputResponses, 'backorder', Confirm);
        if (answer?.confirm !== true) return { content: [{ type: 'text', text: 'Not ordered' }] };
        backorder = true;
      }
      if (state?.phase !== 'wrap') {
        return inputRequired({
          inputRequests: { wrap: inputRequired.elicit({ message: 'Gift-wrap it?', requestedSchema: Wrap }) },
          requestState: await codec.mint({ phase: 'wrap', backorder }, ctx),
        });
      }
      const wrap = acceptedContent(ctx.mcpReq.inputResponses, 'wrap', Wrap)?.wrap === true;
      return { content: [{ type: 'text', text: receipt(title, backorder, wrap) }] };
    },
  );
  return server;
}
// #endregion before

function receipt(title: string, backorder: boolean, wrap: boolean): string {
  return `Ordered "${title}"${backorder ? ' (backorder)' : ''}${wrap ? ', gift-wrapped' : ''}`;
}

// #region after
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';

// One resolver per question. The engine asks each once, records the answers in sealed (encrypted, bound)
// state, and runs the tool body only when every value is there.
const backorder = resolver({ args: ['title'] }, ({ title }: { title: string }) =>
  (stock.get(title) ?? 0) > 0
    ? { confirm: false }
    : elicit(`"${title}" is out of stock. Order it anyway?`, Confirm),
);
const wrap = resolver({}, () => elicit('Gift-wrap it?', Wrap));

export const boomerangServer = new McpServer({ name: 'shop', version: '1.0.0' });
boomerangServer.tool(
  'order_book',
  { input: z.object({ title: z.string() }), resolve: { backorder, wrap } },
  ({ title }, { backorder, wrap }) => {
    const outOfStock = (stock.get(title) ?? 0) === 0;
    if (outOfStock && !backorder.confirm) return { content: [{ type: 'text', text: 'Not ordered' }] };
    return { content: [{ type: 'text', text: receipt(title, outOfStock, wrap.wrap) }] };
  },
);
// #endregion after
