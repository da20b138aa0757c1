// An MCP server that counts how often each flow is resumed: the witness of the exactly-once tests and of the
// benchmark. Its one tool, `approve { n }`, asks a yes/no question (an ordinary resolver, state sealed by default)
// and, once answered, runs its handler: one run per resume that reached it, counted per `n`.
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { type Listening, listen } from '@boomerang/transport-http/node';
import { z } from 'zod';

/** A counting server, listening. */
export interface CountingServer {
  /** Its MCP endpoint, e.g. `http://127.0.0.1:54321/mcp`. */
  readonly url: URL;
  /** How many times the handler ran for each `n` (the resumes that reached the server). */
  readonly runs: ReadonlyMap<number, number>;
  /** Every run, in order. */
  total(): number;
  close(): Promise<void>;
}

/** Options of {@link startCountingServer}. */
export interface CountingServerOptions {
  /** Time the handler takes, ms (default 0): makes concurrent resumers overlap. */
  readonly workMs?: number;
  /** Lifetime of its sealed state, seconds (default 600). */
  readonly ttlSeconds?: number;
}

/** Serves the counting server on 127.0.0.1 (a free port). */
export async function startCountingServer(options: CountingServerOptions = {}): Promise<CountingServer> {
  const runs = new Map<number, number>();
  let total = 0;
  const mcp = new McpServer(
    { name: 'approvals', version: '1.0.0' },
    {
      requestStateSecurity: { ttlSeconds: options.ttlSeconds ?? 600 },
      // Approvals wait in an inbox: each answer must ride a state bound to the call and expiring with it.
      answerBinding: 'round',
      logger: { warn: () => {} },
    },
  );
  const approval = resolver({ args: ['n'] }, ({ n }: { n: number }) =>
    elicit(`Approve request #${n}?`, z.object({ ok: z.boolean().describe('Approve it') })),
  );
  mcp.tool(
    'approve',
    { input: z.object({ n: z.number().int() }), resolve: { approval } },
    async ({ n }, { approval: answer }) => {
      runs.set(n, (runs.get(n) ?? 0) + 1);
      total++;
      if ((options.workMs ?? 0) > 0) await new Promise((resolve) => setTimeout(resolve, options.workMs));
      return { content: [{ type: 'text', text: `#${n} ${answer.ok ? 'approved' : 'refused'}` }] };
    },
  );
  const endpoint: Listening = await listen(mcp, { port: 0, host: '127.0.0.1' });
  return {
    url: endpoint.url,
    runs,
    total: () => total,
    close: async () => {
      await endpoint.close();
      await mcp.close();
    },
  };
}
