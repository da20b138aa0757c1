// The soak: concurrent multi-round-trip flows over real Streamable HTTP for a while, with a subscriptions/listen
// stream open throughout and aborted calls mixed in, reporting throughput, latency and memory as it goes.
import { Client } from '@boomerang/client';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { listen } from '@boomerang/transport-http/node';
import { soakServer, TICK_URI } from './soak-server.js';

/** How long and how hard to soak. */
export interface SoakOptions {
  /** Concurrent flows, each a client calling the two-round tool in a loop (default 32). */
  readonly flows?: number;
  /** How long to run, in milliseconds (default 10 minutes). */
  readonly durationMs?: number;
  /** How often to print a line, in milliseconds (default every minute). */
  readonly reportEveryMs?: number;
  /** Every n-th call of a flow is aborted after 1-8 ms, wherever it is by then (default 10). */
  readonly abortEvery?: number;
}

/** What a soak saw, in total. */
export interface SoakSummary {
  readonly completed: number;
  readonly failed: number;
  readonly aborted: number;
  /** Notifications the listen stream received, and how many times it had to be opened again. */
  readonly notifications: number;
  readonly listenRestarts: number;
  /** p99 of completed flows over the whole run, in milliseconds. */
  readonly p99Ms: number;
  /** Resident memory at the first report (after warm-up) and at the last, MiB. */
  readonly rssMiB: { readonly warm: number; readonly last: number };
  /** The first failures' messages (at most 5), for the log. */
  readonly failures: readonly string[];
}

const MiB = 1024 * 1024;

/** The p99 of `samples` (milliseconds), 0 for none. */
function p99(samples: readonly number[]): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] as number;
}

function clock(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function newClient(url: URL): Promise<Client> {
  const client = new Client(
    { name: 'soak', version: '1.0.0' },
    {
      elicitation: () => ({ action: 'accept', content: { region: 'eu-west-1' } }),
      sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'orders' }, model: 'soak' }),
    },
  );
  return client.connect(new StreamableHttpClientTransport(url)).then(() => client);
}

/** Runs the soak, printing a line every `reportEveryMs` through `out`; resolves to the totals. */
export async function runSoak(options: SoakOptions, out: (line: string) => void): Promise<SoakSummary> {
  const flows = options.flows ?? 32;
  const durationMs = options.durationMs ?? 10 * 60_000;
  const reportEveryMs = options.reportEveryMs ?? 60_000;
  const abortEvery = options.abortEvery ?? 10;
  const server = soakServer(Math.max(50, Math.min(1000, reportEveryMs / 20)));
  const endpoint = await listen(server.mcp, { port: 0, host: '127.0.0.1' });
  const totals = { completed: 0, failed: 0, aborted: 0, notifications: 0, listenRestarts: 0 };
  const failures: string[] = [];
  const all: number[] = [];
  let window: number[] = [];
  const rss: number[] = [];
  const started = performance.now();
  const until = Date.now() + durationMs;
  let stopping = false;

  const fail = (message: string) => {
    totals.failed++;
    if (failures.length < 5) failures.push(message);
  };

  // With `node --expose-gc` (as `pnpm soak` runs it), a full collection before each line makes the heap figure
  // the live heap, so that a leak shows as a trend instead of hiding in the collector's timing.
  const gc = (globalThis as { gc?: () => void }).gc;
  const report = () => {
    gc?.();
    const memory = process.memoryUsage();
    rss.push(memory.rss / MiB);
    out(
      `[${clock(performance.now() - started)}] flows ${totals.completed.toLocaleString('en')} completed, ` +
        `${totals.failed} failed, ${totals.aborted.toLocaleString('en')} aborted | p99 ${p99(window).toFixed(1)} ms | ` +
        `rss ${(memory.rss / MiB).toFixed(1)} MiB, ${gc === undefined ? 'heap' : 'live heap'} ${(memory.heapUsed / MiB).toFixed(1)}/${(memory.heapTotal / MiB).toFixed(1)} MiB, ` +
        `external ${(memory.external / MiB).toFixed(1)} MiB | ` +
        `listen: ${totals.notifications.toLocaleString('en')} notifications`,
    );
    window = [];
  };

  const clients = await Promise.all(Array.from({ length: flows + 1 }, () => newClient(endpoint.url)));
  const listener = clients.pop() as Client;

  const listening = (async () => {
    while (!stopping) {
      const subscription = listener.listen({ resourceSubscriptions: [TICK_URI] });
      try {
        for await (const _ of subscription) {
          totals.notifications++;
          if (stopping) break;
        }
      } catch (error) {
        if (!stopping) fail(`listen: ${(error as Error).message}`);
      } finally {
        await subscription.close();
      }
      if (!stopping) totals.listenRestarts++;
    }
  })();

  const flow = async (client: Client, index: number) => {
    for (let n = 1; Date.now() < until; n++) {
      const id = index * 1_000_000 + n;
      const abort = n % abortEvery === 0 ? new AbortController() : undefined;
      const timer = abort && setTimeout(() => abort.abort(new Error('soak abort')), 1 + Math.random() * 7);
      const start = performance.now();
      try {
        const result = await client.callTool('provision', { id }, abort && { signal: abort.signal });
        const block = result.content[0];
        if (block?.type !== 'text' || block.text !== `#${id}: orders in eu-west-1`) {
          fail(`call ${id} answered ${JSON.stringify(result).slice(0, 120)}`);
          continue;
        }
        const ms = performance.now() - start;
        totals.completed++;
        window.push(ms);
        all.push(ms);
      } catch (error) {
        if (abort?.signal.aborted && error === abort.signal.reason) totals.aborted++;
        else fail(`call ${id}: ${(error as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
    }
  };

  const reporter = setInterval(report, reportEveryMs);
  try {
    await Promise.all(clients.map((client, index) => flow(client, index)));
  } finally {
    clearInterval(reporter);
    stopping = true;
    report();
    await Promise.all([...clients, listener].map((client) => client.close().catch(() => {})));
    await listening;
    await server.stop();
    await endpoint.close();
  }
  return {
    ...totals,
    p99Ms: p99(all),
    rssMiB: { warm: rss[0] ?? 0, last: rss.at(-1) ?? 0 },
    failures,
  };
}
