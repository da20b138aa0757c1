// The server every instance of the fleet runs: a small bookshop whose tools cover what a fleet must carry. Nothing
// of a flow lives in the instance: a round's state is sealed under the fleet's keys (from the environment), tasks
// live in PostgreSQL and notifications travel on the shared bus, so any instance serves any round.
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import type { NotificationSource } from '@boomerang/server';
import type { Tasks } from '@boomerang/tasks';
import { z } from 'zod';

/** The shelves: titles and copies in stock. */
export const SHELVES: Readonly<Record<string, number>> = { Dune: 3, Solaris: 0, Neuromancer: 1 };

/** Options of {@link createFleetServer}. */
export interface FleetServerOptions {
  /** Request-state keys, newest first (`SEAL_KEYS` parsed): the first seals, every one opens. */
  readonly keys: readonly Uint8Array[];
  /** How long a round's state stays valid, in seconds. */
  readonly ttlSeconds: number;
  /** The shared bus (Redis or PostgreSQL). */
  readonly notifications: NotificationSource;
  /** The tasks runtime on the shared store. */
  readonly tasks: Tasks;
  /** How long each batch of `print_run` takes, in ms. */
  readonly printBatchMs: number;
  readonly logger?: { readonly warn?: (message: string) => void; readonly error?: (message: string) => void };
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
const title = z.object({ title: z.string().min(1) });

const stock = resolver({ args: ['title'] }, ({ title: name }: { title: string }) => ({
  title: name,
  count: SHELVES[name] ?? -1,
}));

/** Round 1 of `order_book`: confirm the order (a backorder when out of stock). */
const confirm = resolver({ uses: { stock } }, ({ stock: book }) =>
  elicit(
    book.count > 0 ? `Order "${book.title}"?` : `"${book.title}" is out of stock. Backorder it?`,
    z.object({ confirm: z.boolean() }),
  ),
);

/** Round 2 of `order_book`: how to ship, asked once the order is confirmed (so in the next round). */
const shipping = resolver({ uses: { stock, confirm } }, ({ stock: book, confirm: answer }) =>
  answer.confirm
    ? elicit(`How should "${book.title}" ship?`, z.object({ shipping: z.enum(['standard', 'express']) }))
    : { shipping: 'none' as const },
);

/** The expected answer of `order_book` for `title` when the client confirms and ships `express`. */
export function orderText(name: string): string {
  return `Ordered "${name}" (${(SHELVES[name] ?? 0) > 0 ? 'in stock' : 'backorder'}), express shipping.`;
}

/** The expected answer of `check_stock`. */
export function stockText(name: string): string {
  const count = SHELVES[name];
  return count === undefined ? `"${name}" is not in our catalogue.` : `"${name}": ${count} in stock.`;
}

/**
 * The fleet's bookshop:
 *
 * | tool          | rounds | what                                                                        |
 * | ------------- | ------ | --------------------------------------------------------------------------- |
 * | `check_stock` | 1      | a pure resolver: answers at once                                            |
 * | `order_book`  | 3      | asks to confirm (round 1), then how to ship (round 2), then orders         |
 * | `print_run`   | task   | a task: asks to approve the proof mid-task, then prints in batches         |
 *
 * `check_stock` says it is read-only, so a client with `restartOnInvalidState` may restart it.
 */
export function createFleetServer(options: FleetServerOptions): McpServer {
  const mcp = new McpServer(
    { name: 'fleet-bookshop', version: '1.0.0' },
    {
      notifications: options.notifications,
      tasks: options.tasks,
      requestStateSecurity: { keys: [...options.keys], ttlSeconds: options.ttlSeconds },
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    },
  );
  mcp.tool(
    'check_stock',
    { input: title, resolve: { stock }, annotations: { readOnlyHint: true } },
    ({ title: name }) => text(stockText(name)),
  );
  mcp.tool('order_book', { input: title, resolve: { confirm, shipping } }, ({ title: name }, resolved) => {
    if (!resolved.confirm.confirm) return text(`Not ordered: "${name}".`);
    return text(
      `Ordered "${name}" (${(SHELVES[name] ?? 0) > 0 ? 'in stock' : 'backorder'}), ${resolved.shipping.shipping} shipping.`,
    );
  });
  const proof = resolver({ args: ['copies'] }, ({ copies }: { copies: number }) =>
    elicit(`Print ${copies} copies?`, z.object({ approve: z.boolean() })),
  );
  mcp.tool(
    'print_run',
    {
      input: z.object({ title: z.string().min(1), copies: z.number().int().min(1).max(100) }),
      task: 'required',
      resolve: { proof },
    },
    async ({ title: name, copies }, { proof: answer }, ctx) => {
      if (!answer.approve) return text(`Print run of "${name}" not approved.`);
      for (let printed = 0; printed < copies; printed += 10) {
        await new Promise((resolve) => setTimeout(resolve, options.printBatchMs));
        await ctx.sendProgress(Math.min(copies, printed + 10), copies, `Printed ${printed + 10} copies`);
      }
      return text(`Printed ${copies} copies of "${name}".`);
    },
  );
  return mcp;
}
