// Examples quoted into the README (they typecheck with the package and run in resolvers.examples.test.ts).
import { z } from 'zod';
import { elicit, elicitResult, listRoots, resolver, sample } from './index.js';

const inventory = new Map<string, number>([['Dune', 3]]);

// #region bookshop
/** A pure dependency: reads a tool argument by name (annotate it to type it). */
export const checkStock = resolver({ args: ['title'] }, ({ title }: { title: string }) => ({
  title,
  count: inventory.get(title) ?? 0,
}));

/** A question's schema, built once: the SDK converts each schema object to JSON Schema once. */
const Backorder = z.object({ confirm: z.boolean() });

/** Asks only when out of stock; its value is `{ confirm: boolean }` either way. */
export const confirmBackorder = resolver({ uses: { stock: checkStock } }, ({ stock }) =>
  stock.count > 0
    ? { confirm: true }
    : elicit(`"${stock.title}" is out of stock. Order it anyway?`, Backorder),
);

/** Depends on the stock too: `checkStock` still runs once per round. */
export const estimateDelivery = resolver({ uses: { stock: checkStock } }, ({ stock }) =>
  stock.count > 0 ? '2 days' : '3 weeks',
);
// #endregion bookshop

// #region outcomes
const GiftWrap = z.object({ wrap: z.boolean(), note: z.string().max(140).optional() });

/** The consumer sees accept, decline and cancel, instead of the call failing on a refusal. */
export const giftWrap = resolver({}, () => elicitResult('Gift-wrap it?', GiftWrap));

/** Samples the client's LLM; the value is the client's CreateMessageResult. */
export const blurb = resolver({ args: ['title'] }, ({ title }: { title: string }) =>
  sample({
    messages: [{ role: 'user', content: { type: 'text', text: `One line on ${title}` } }],
    maxTokens: 60,
  }),
);

/** Lists the client's roots; the value is `{ roots }`. */
export const workspace = resolver({}, () => listRoots());
// #endregion outcomes
