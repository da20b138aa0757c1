// The bookshop demo: a client calls every tool over Streamable HTTP and prints each round.
import { Client, type InputCallbacks } from '@boomerang/client';
import { createRoundPrinter, tapTransport } from '@boomerang/demo-kit';
import { openTaskStore } from '@boomerang/demo-kit/task-store';
import type { CallToolResult } from '@boomerang/protocol';
import { createTasks, type TaskStore } from '@boomerang/tasks';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { listenBookshop } from './bookshop.js';
import { runTaskCall } from './task-call.js';

/** One call of the demo. */
export interface DemoCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** What the call shows, printed above it. */
  readonly why: string;
  /** Run it as a task of io.modelcontextprotocol/tasks, step by step (see task-call.ts). */
  readonly task?: true;
}

/** The demo's calls, in order: every tool, and both paths of `order_book`. */
export const DEMO_CALLS: readonly DemoCall[] = [
  { tool: 'check_stock', args: { title: 'Dune' }, why: 'a pure resolver: no question, one round trip' },
  {
    tool: 'order_book',
    args: { title: 'Dune' },
    why: 'in stock: the backorder resolver does not ask; shipping and gift go out together',
  },
  {
    tool: 'order_book',
    args: { title: 'Solaris' },
    why: 'out of stock: backorder + gift in round 1, shipping (depends on the backorder) in round 2',
  },
  { tool: 'write_blurb', args: { title: 'Neuromancer' }, why: "sampling: the client's LLM writes the blurb" },
  {
    tool: 'export_wishlist',
    args: { titles: ['Solaris', 'The Left Hand of Darkness'] },
    why: "roots: the tool asks where the client's workspace is",
  },
  { tool: 'order_history', args: {}, why: 'URL elicitation: sign in out of band, the client never sees it' },
  {
    tool: 'print_run',
    args: { title: 'Dune', copies: 40 },
    why: 'a task: the server answers with a task id at once, asks mid-task (the proof), then prints for a while',
    task: true,
  },
];

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** The client's callbacks: scripted or the terminal forms (see callbacks.ts). */
  readonly callbacks: InputCallbacks;
  /** A running bookshop server's endpoint; without it the demo serves one in process on 127.0.0.1. */
  readonly url?: URL | string | undefined;
  /** The port of the in-process server (default 0: a free one). */
  readonly port?: number | undefined;
  /** The calls to make (default {@link DEMO_CALLS}). */
  readonly calls?: readonly DemoCall[] | undefined;
  /** Also print every JSON-RPC message in full. */
  readonly wire?: boolean | undefined;
  /**
   * Where the in-process server keeps `print_run`'s tasks (default: PGlite in a temporary folder, removed when
   * the demo ends).
   */
  readonly taskStore?: TaskStore | undefined;
  /** How long `print_run` takes per batch of ten copies, in ms (default 250). */
  readonly printBatchMs?: number | undefined;
}

/** What one call came to: the final result, or the error the call rejected with. */
export type DemoOutcome = DemoCall & ({ result: CallToolResult } | { error: Error });

function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join(' ');
}

/**
 * Runs the demo: serves the bookshop on `http://127.0.0.1:<port>/mcp` (unless `url` points at one), connects a
 * `Client` with `callbacks` over `StreamableHttpClientTransport`, and makes each call with `client.callTool`,
 * printing every round (question, answer, sealed state size) as the client's transport sees it; a `task` call
 * runs as a task instead, step by step ({@link runTaskCall}). The in-process server keeps its tasks in
 * `taskStore` (default: PGlite in a temporary folder). Stops the server it started and closes its store, also
 * on failure. Resolves to each call's outcome.
 */
export async function runDemo(options: DemoOptions, out: (line: string) => void): Promise<DemoOutcome[]> {
  const inProcess = options.url === undefined;
  const storage = inProcess && options.taskStore === undefined ? openTaskStore() : undefined;
  const store = options.taskStore ?? storage?.store;
  const tasks = store === undefined ? undefined : createTasks({ store, pollIntervalMs: 200 });
  const bookshop = inProcess
    ? await listenBookshop(
        {
          logger: { warn: (m) => out(`  [server] ${m}`), error: (m) => out(`  [server] ${m}`) },
          tasks,
          printBatchMs: options.printBatchMs,
        },
        { port: options.port ?? 0, host: '127.0.0.1' },
      )
    : undefined;
  const endpoint = bookshop?.endpoint;
  const url = endpoint?.url ?? new URL(String(options.url));
  const print = createRoundPrinter();
  const client = new Client({ name: 'bookshop-demo', version: '1.0.0' }, options.callbacks);
  const outcomes: DemoOutcome[] = [];
  try {
    out(
      `Boomerang bookshop demo: an McpServer over Streamable HTTP at ${url.href}${endpoint ? ' (in process)' : ''}.`,
    );
    out('Each tool that needs something only the client has answers input_required; the client answers');
    out(
      'every question and calls again with inputResponses (and the sealed requestState, byte for byte, once answers are recorded).',
    );
    await client.connect(
      tapTransport(new StreamableHttpClientTransport(url), (direction, message) => {
        for (const line of print(direction, message)) out(line);
        if (options.wire) out(`    ${direction === 'out' ? '>>' : '<<'} ${JSON.stringify(message)}`);
      }),
    );
    out('');
    await client.listTools();
    for (const call of options.calls ?? DEMO_CALLS) {
      out('');
      out(`== ${call.tool} ${JSON.stringify(call.args)}: ${call.why}`);
      try {
        const result =
          call.task === true
            ? await runTaskCall(
                call.tool,
                call.args,
                { url, callbacks: options.callbacks, wire: options.wire },
                out,
              )
            : await client.callTool(call.tool, call.args);
        out(`=> ${result.isError === true ? 'isError: ' : ''}${textOf(result)}`);
        outcomes.push({ ...call, result });
      } catch (error) {
        out(`=> rejected: ${(error as Error).message}`);
        outcomes.push({ ...call, error: error as Error });
      }
    }
  } finally {
    await client.close();
    await bookshop?.server.close();
    await endpoint?.close();
    await tasks?.close();
    await storage?.close();
  }
  return outcomes;
}
