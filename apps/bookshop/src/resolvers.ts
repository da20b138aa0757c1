// The bookshop's resolvers: dependencies of its tools that compute a value, or ask the client for one.
import {
  type ElicitOutcome,
  elicit,
  elicitResult,
  elicitUrl,
  type ListRootsAnswer,
  listRoots,
  type Resolver,
  resolver,
  type SampleAnswer,
  sample,
} from '@boomerang/mcp-server';
import { z } from 'zod';
import type { SignInDesk } from './sign-in.js';

/** One book on the shelves. */
export interface Book {
  readonly title: string;
  readonly author: string;
  /** Copies on the shelf; 0 means out of stock (a backorder takes three weeks). */
  readonly count: number;
  /** Euros. */
  readonly price: number;
}

/** The shelves (a fixed catalogue: the demo and the tests depend on these counts). */
export const CATALOGUE: readonly Book[] = [
  { title: 'Dune', author: 'Frank Herbert', count: 3, price: 12.5 },
  { title: 'Solaris', author: 'Stanisław Lem', count: 0, price: 14 },
  { title: 'Neuromancer', author: 'William Gibson', count: 1, price: 11 },
  { title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin', count: 0, price: 13 },
];

/** What `checkStock` resolves to. `known` is false for a title the shop has never carried. */
export interface Stock {
  readonly title: string;
  readonly author: string;
  readonly count: number;
  readonly price: number;
  readonly known: boolean;
}

/** Days from order to door, per shipping option. */
export const SHIPPING_DAYS = { standard: 5, express: 2, pickup: 1 } as const;
/** Extra days when the book must be backordered. */
export const BACKORDER_DAYS = 21;

/** `check_stock`: a pure resolver (never asks). It reads the `title` argument by name. */
export const checkStock: Resolver<Stock, { title: string }> = resolver(
  { args: ['title'] },
  ({ title }: { title: string }): Stock => {
    const book = CATALOGUE.find((b) => b.title.toLowerCase() === title.trim().toLowerCase());
    return book === undefined
      ? { title, author: 'unknown', count: 0, price: 0, known: false }
      : { ...book, known: true };
  },
);

/** The backorder form (asked only when the book is out of stock). */
export const backorderForm = z.object({
  confirm: z.boolean().describe('Order it anyway? It ships when it arrives, in about three weeks'),
  notify: z
    .array(z.enum(['email', 'sms', 'push']))
    .max(2)
    .default(['email'])
    .describe('How should we tell you it has arrived? (up to two)'),
  maxPrice: z
    .number()
    .min(0)
    .max(500)
    .optional()
    .meta({ title: 'Price ceiling (EUR)' })
    .describe('Cancel the backorder if the price rises above this'),
});

/** What `confirmBackorder` resolves to. */
export type Backorder = z.output<typeof backorderForm>;

/**
 * `confirm_backorder`: asks only when the book is out of stock; in stock, it resolves to `{ confirm: true }`
 * without a question (and to `{ confirm: false }` for a title the shop does not carry). A declined form fails the tool (an `isError` result the model can read).
 */
export const confirmBackorder: Resolver<Backorder, { title: string }> = resolver(
  { uses: { stock: checkStock } },
  ({ stock }) => {
    if (!stock.known) return { confirm: false, notify: [] }; // nothing to backorder
    return stock.count > 0
      ? { confirm: true, notify: [] }
      : elicit(`"${stock.title}" is out of stock. Backorder it?`, backorderForm);
  },
);

/** The shipping form: a titled single choice, an integer with bounds, a plain enum, defaults everywhere. */
export const shippingForm = z.object({
  shipping: z
    .union([
      z.literal('standard').meta({ title: `Standard (free, ${SHIPPING_DAYS.standard} days)` }),
      z.literal('express').meta({ title: `Express (EUR 6, ${SHIPPING_DAYS.express} days)` }),
      z.literal('pickup').meta({ title: 'Pick up in the shop (next day)' }),
    ])
    .default('standard')
    .meta({ title: 'Shipping' }),
  copies: z.number().int().min(1).max(5).default(1).meta({ title: 'Copies' }),
  binding: z.enum(['paperback', 'hardcover']).default('paperback').meta({ title: 'Binding' }),
});

/** What `chooseShipping` resolves to: the shipping form, or `null` when nothing ships. */
export type ShippingChoice = z.output<typeof shippingForm> | null;

/**
 * Asks how to ship, after the backorder question (it depends on its answer: no shipping question when the
 * customer refused the backorder), so for an out-of-stock book it goes out in a later round.
 */
export const chooseShipping: Resolver<ShippingChoice, { title: string }> = resolver(
  { uses: { stock: checkStock, backorder: confirmBackorder } },
  ({ stock, backorder }) =>
    backorder.confirm ? elicit(`How should "${stock.title}" ship?`, shippingForm) : null,
);

/** What `estimateDelivery` resolves to. */
export type Delivery =
  | { readonly ship: false }
  | ({ readonly ship: true; readonly days: number } & z.output<typeof shippingForm>);

/** `estimate_delivery`: a pure computation that depends on the stock (a backorder adds three weeks). */
export const estimateDelivery: Resolver<Delivery, { title: string }> = resolver(
  { uses: { stock: checkStock, shipping: chooseShipping } },
  ({ stock, shipping }): Delivery =>
    shipping === null
      ? { ship: false }
      : {
          ship: true,
          ...shipping,
          days: SHIPPING_DAYS[shipping.shipping] + (stock.count > 0 ? 0 : BACKORDER_DAYS),
        },
);

/** The gift form, asked with `elicitResult`: a refusal is an answer ("no wrapping"), not a failure. */
export const giftForm = z.object({
  wrap: z.boolean().default(false).meta({ title: 'Gift-wrap it?' }),
  note: z
    .string()
    .max(140)
    .optional()
    .meta({ title: 'Card note' })
    .describe('Printed on the card (optional)'),
});

/** `gift_wrap`: independent of the stock, so it is asked in the first round, next to the other questions. */
export const giftWrap: Resolver<ElicitOutcome<z.output<typeof giftForm>>> = resolver({}, () =>
  elicitResult('Is it a gift?', giftForm),
);

/** `blurb`: samples the client's LLM for a one-line shelf-talker. */
export const blurb: Resolver<SampleAnswer, { title: string }> = resolver(
  { uses: { stock: checkStock } },
  ({ stock }) =>
    sample({
      systemPrompt: 'You write one-line bookshop shelf-talkers. No spoilers.',
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Write a one-line blurb for "${stock.title}" by ${stock.author}.` },
        },
      ],
      maxTokens: 60,
    }),
);

/** `workspace`: the client's roots (where a wishlist file would go). */
export const workspace: Resolver<ListRootsAnswer> = resolver({}, () => listRoots());

/**
 * `signIn`: URL elicitation. The customer signs in out of band on the desk's page; the client never sees the
 * credentials. Asks only when the desk does not know the caller yet (the URL is the caller's own, the same in
 * every round, so the question is asked once per call). Its value, `{ action: 'accept' }`, says only that the
 * user agreed to open the URL: whoever consumes it must ask the desk whether a sign-in really happened.
 */
export function signInWith(desk: SignInDesk): Resolver<{ action: 'accept' }> {
  return resolver({}, (_input, ctx) => {
    const url = desk.accountOf(ctx.auth) === undefined ? desk.urlFor(ctx.auth) : undefined;
    return url === undefined
      ? { action: 'accept' as const }
      : elicitUrl('Sign in to Bookshop to see your order history', url);
  });
}
