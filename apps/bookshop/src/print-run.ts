// The bookshop's long-running tool: a print run of a title, run as a task of io.modelcontextprotocol/tasks. It
// asks mid-task (its `proof` resolver: approve the proof, pick the paper), then prints in batches, each batch
// becoming the task's status message, and completes with what it printed.
import { elicit, type McpServer, type Resolver, resolver } from '@boomerang/mcp-server';
import { z } from 'zod';
import { checkStock, type Stock } from './resolvers.js';

/** Copies printed per batch: one status message each. */
export const PRINT_BATCH = 10;

/** The proof form, asked once the task runs (not before: the client already has its task id). */
export const proofForm = z.object({
  confirm: z.boolean().describe('The proof is ready: start the print run?'),
  paper: z.enum(['matte', 'gloss']).default('matte').meta({ title: 'Paper' }),
});

/** What `approveProof` resolves to. */
export type Proof = z.output<typeof proofForm>;

/** `print_run`'s question: the proof of the title, for the number of copies asked. */
export const approveProof: Resolver<Proof, { title: string; copies: number }> = resolver(
  { uses: { stock: checkStock }, args: ['copies'] },
  ({ stock, copies }: { stock: Stock; copies: number }) =>
    elicit(`The proof of "${stock.title}" is ready. Print ${copies} copies?`, proofForm),
);

/** Options of {@link registerPrintRun}. */
export interface PrintRunOptions {
  /** How long one batch of {@link PRINT_BATCH} copies takes, in ms (the demo: 250; tests: less). */
  readonly batchMs: number;
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** Resolves after `ms`, or at once when `signal` aborts (the task was cancelled, or the server stops). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => resolve(clearTimeout(timer)), { once: true });
  });
}

/**
 * Registers `print_run { title, copies }` on `mcp` (which needs a tasks runtime): a task whenever the client
 * declares the extension (`task: 'optional'`; without it, the same resolvers ask by ordinary rounds and the call
 * lasts as long as the printing). The `proof` resolver asks mid-task; an approved run prints batch by batch,
 * reporting `Printed n of N copies` as the status message, and stops early when the task is cancelled.
 */
export function registerPrintRun(mcp: McpServer, options: PrintRunOptions): void {
  mcp.tool(
    'print_run',
    {
      title: 'Print run',
      description:
        'Prints copies of a title in the back room: a long-running task. Asks to approve the proof first.',
      input: z.object({
        title: z.string().min(1).describe('The exact title, e.g. "Dune"'),
        copies: z.number().int().min(1).max(500).describe('How many copies to print'),
      }),
      task: 'optional',
      resolve: { stock: checkStock, proof: approveProof },
    },
    async ({ copies }, { stock, proof }, ctx) => {
      if (!stock.known) return { ...text(`"${stock.title}" is not in our catalogue.`), isError: true };
      if (!proof.confirm) return text(`Print run of "${stock.title}" stopped at the proof: nothing printed.`);
      for (let printed = 0; printed < copies; ) {
        await pause(options.batchMs, ctx.signal);
        if (ctx.signal.aborted) return text(`Print run of "${stock.title}" stopped after ${printed} copies.`);
        printed = Math.min(copies, printed + PRINT_BATCH);
        await ctx.sendProgress(printed, copies, `Printed ${printed} of ${copies} copies`);
      }
      return text(`Printed ${copies} copies of "${stock.title}" on ${proof.paper} paper.`);
    },
  );
}
