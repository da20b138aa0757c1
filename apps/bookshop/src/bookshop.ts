// The bookshop McpServer: five tools, each showing one part of the resolver story.
import { McpServer, type McpServerOptions } from '@boomerang/mcp-server';
import type { Tasks } from '@boomerang/tasks';
import { type Listening, listen } from '@boomerang/transport-http/node';
import { z } from 'zod';
import { registerPrintRun } from './print-run.js';
import {
  blurb,
  CATALOGUE,
  checkStock,
  confirmBackorder,
  estimateDelivery,
  giftWrap,
  type Stock,
  signInWith,
  workspace,
} from './resolvers.js';
import { createSignInDesk, SIGN_IN_PATH, type SignInDesk } from './sign-in.js';

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** The past orders of each demo account. */
const ORDERS: Readonly<Record<string, string>> = {
  alice: '"Dune" (2024-03-02), "Neuromancer" (2025-11-19)',
  bob: '"Solaris" (2025-06-30)',
};

const titleInput = z.object({ title: z.string().min(1).describe('The exact title, e.g. "Dune"') });

function stockLine(stock: Stock): string {
  if (!stock.known) return `"${stock.title}" is not in our catalogue.`;
  return stock.count > 0
    ? `"${stock.title}" by ${stock.author}: ${stock.count} in stock, EUR ${stock.price.toFixed(2)}.`
    : `"${stock.title}" by ${stock.author}: out of stock (backorder: about three weeks).`;
}

/** Options of {@link createBookshopServer}. */
export interface BookshopOptions {
  readonly logger?: McpServerOptions['logger'];
  /**
   * Where `order_history`'s sign-in happens (default: a new desk published at `https://bookshop.example`).
   * Serve `desk.page` at `SIGN_IN_PATH` and `publishAt` the server's URL to make it reachable.
   */
  readonly signIn?: SignInDesk | undefined;
  /**
   * The tasks runtime (`createTasks({ store })` of `@boomerang/tasks`) that runs `print_run`, the long-running
   * tool: without one the shop has no print run. The apps keep its tasks in PGlite on disk.
   */
  readonly tasks?: Tasks | undefined;
  /** How long `print_run` takes per batch of ten copies, in ms (default 250). */
  readonly printBatchMs?: number | undefined;
  /**
   * McpServer's `answerBinding` (default `'question'`). The `--auth` demo uses `'round'`: every answer then rides
   * a state sealed to the signed-in user, from the first question on.
   */
  readonly answerBinding?: McpServerOptions['answerBinding'];
}

/**
 * Builds the bookshop. Request state is sealed by default (a key made for this instance), so a retry must
 * come back to the same process: fine for one `listen` (the demo), give `requestStateSecurity.keys` for more.
 * With `tasks`, it also runs `print_run` (src/print-run.ts) as a task.
 *
 * | tool              | resolvers                                   | asks                                           |
 * | ----------------- | ------------------------------------------- | ---------------------------------------------- |
 * | `check_stock`     | `checkStock` (pure)                         | nothing                                        |
 * | `order_book`      | stock, backorder, shipping, delivery, gift  | backorder (out of stock) + gift; then shipping |
 * | `write_blurb`     | `blurb`                                     | the client's LLM (sampling)                    |
 * | `export_wishlist` | `workspace`                                 | the client's roots                             |
 * | `order_history`   | `signIn` (checked against the sign-in desk) | a URL elicitation (sign in out of band)        |
 * | `print_run`       | `checkStock`, `approveProof`                | mid-task: approve the proof (a task)           |
 */
export function createBookshopServer(options: BookshopOptions = {}): McpServer {
  const { logger, tasks, signIn = createSignInDesk(), answerBinding } = options;
  const mcp = new McpServer(
    { name: 'Bookshop', version: '1.0.0' },
    {
      ...(logger === undefined ? {} : { logger }),
      ...(tasks === undefined ? {} : { tasks }),
      ...(answerBinding === undefined ? {} : { answerBinding }),
      instructions: `A small bookshop. Titles: ${CATALOGUE.map((b) => b.title).join(', ')}.`,
    },
  );

  mcp.tool(
    'check_stock',
    {
      title: 'Check stock',
      description: 'How many copies of a book are on the shelf. Never asks anything.',
      input: titleInput,
      annotations: { readOnlyHint: true },
      resolve: { stock: checkStock },
    },
    (_args, { stock }) => text(stockLine(stock)),
  );

  mcp.tool(
    'order_book',
    {
      title: 'Order a book',
      description:
        'Order a book. Asks to confirm a backorder when it is out of stock, how to ship it, and whether it is a gift.',
      input: titleInput,
      resolve: { stock: checkStock, backorder: confirmBackorder, delivery: estimateDelivery, gift: giftWrap },
    },
    (_args, { stock, backorder, delivery, gift }) => {
      if (!stock.known) return { ...text(stockLine(stock)), isError: true };
      if (!backorder.confirm || !delivery.ship) return text(`Not ordered: "${stock.title}" is out of stock.`);
      const wrapped =
        gift.action === 'accept' && gift.content.wrap
          ? `, gift-wrapped${gift.content.note === undefined ? '' : ` with a card: "${gift.content.note}"`}`
          : '';
      const how = delivery.shipping === 'pickup' ? 'ready for pickup' : `${delivery.shipping} shipping`;
      const total = stock.price * delivery.copies + (delivery.shipping === 'express' ? 6 : 0);
      const notify =
        backorder.notify.length > 0 ? `; we will tell you by ${backorder.notify.join(' and ')}` : '';
      return text(
        `Ordered ${delivery.copies} × "${stock.title}" (${delivery.binding})${stock.count > 0 ? '' : ' on backorder'}` +
          `${wrapped}: ${how}, arriving in ${delivery.days} days, EUR ${total.toFixed(2)}${notify}.`,
      );
    },
  );

  mcp.tool(
    'write_blurb',
    {
      title: 'Write a shelf-talker',
      description: "Writes a one-line blurb for a book with the client's LLM (sampling).",
      input: titleInput,
      resolve: { stock: checkStock, completion: blurb },
    },
    (_args, { stock, completion }) => {
      const blocks = Array.isArray(completion.content) ? completion.content : [completion.content];
      const line = blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join(' ');
      return text(`Shelf-talker for "${stock.title}" (${completion.model}): ${line}`);
    },
  );

  mcp.tool(
    'export_wishlist',
    {
      title: 'Export a wishlist',
      description: "Plans where a wishlist file would go in the client's workspace (its roots).",
      input: z.object({ titles: z.array(z.string()).min(1).describe('Titles to put on the wishlist') }),
      resolve: { roots: workspace },
    },
    ({ titles }, { roots }) => {
      const root = roots.roots[0];
      if (root === undefined)
        return { ...text('The client shared no roots: nowhere to write.'), isError: true };
      const file = new URL('wishlist.md', root.uri.endsWith('/') ? root.uri : `${root.uri}/`);
      return text(
        `Wishlist of ${titles.length} title(s) would be written to ${file.href} ` +
          `(the first of ${roots.roots.length} root(s)${root.name === undefined ? '' : `, "${root.name}"`}).`,
      );
    },
  );

  mcp.tool(
    'order_history',
    {
      title: 'Order history',
      description: 'Shows the past orders of the customer, once signed in out of band (URL elicitation).',
      annotations: { readOnlyHint: true },
      resolve: { signedIn: signInWith(signIn) },
    },
    (_args, _resolved, ctx) => {
      // The accept only says the user agreed to open the URL: the sign-in page must have seen the account.
      const account = signIn.accountOf(ctx.auth);
      if (account === undefined) {
        const where = signIn.urlFor(ctx.auth);
        const why =
          where === undefined
            ? 'this connection names no customer to sign in'
            : `the sign-in at ${where} was not completed; finish it in the browser, then ask again`;
        return { ...text(`Not signed in: ${why}.`), isError: true };
      }
      return text(`Signed in as ${account}. Past orders: ${ORDERS[account] ?? 'none yet'}.`);
    },
  );

  if (tasks !== undefined) registerPrintRun(mcp, { batchMs: options.printBatchMs ?? 250 });
  return mcp;
}

/** A bookshop served by {@link listenBookshop}. */
export interface ListeningBookshop {
  readonly server: McpServer;
  readonly endpoint: Listening;
}

/**
 * Serves a bookshop on `http://<host>:<port>/mcp` with its sign-in page at `/sign-in` beside it, published at the
 * endpoint's origin, so the URL of `order_history`'s elicitation is a page this process really serves.
 */
export async function listenBookshop(
  options: Omit<BookshopOptions, 'signIn'>,
  at: { readonly port: number; readonly host: string },
): Promise<ListeningBookshop> {
  const signIn = createSignInDesk();
  const routes = { [SIGN_IN_PATH]: signIn.page };
  const server = createBookshopServer({ ...options, signIn });
  const endpoint = await listen(server, { ...at, routes });
  signIn.publishAt(endpoint.url);
  return { server, endpoint };
}
