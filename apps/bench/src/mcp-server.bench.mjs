// McpServer resolver benchmark: a tool whose three resolvers ask in turn (each `uses` the previous one, so each
// round asks one question), request state sealed (McpServer's default), the Boomerang client answering from its
// `elicitation` callback, over the in-memory pair. 4 requests per flow. Prints flows/s, p50/p99 latency and CPU ms
// per flow at concurrency 1 and 32, and the `requestState` size after each round.
//
// Run after `pnpm build`:  node apps/bench/src/mcp-server.bench.mjs [--duration=3000] [--warmup=1000]
//   [--concurrency=1,32] [--inline]
// (env MCP_SERVER_BENCH_DURATION_MS / MCP_SERVER_BENCH_WARMUP_MS work too.) The same flow on the low-level server
// and on the official SDK is the `wizard` workload of flows.bench.mjs.
import { Client } from '@boomerang/client';
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { connectInMemory } from '@boomerang/transport-memory';
import { z } from 'zod';
import { measure, summarize } from './flows/harness.mjs';

const options = parseOptions();

// Schemas and messages are static, as in the wizard workload: each side pays only for its own machinery.
// `--inline` builds each question's zod schema inside the resolver instead, as the README's examples do.
const STEP = z.object({ value: z.string() });
const schema = options.inline ? () => z.object({ value: z.string() }) : () => STEP;
const step1 = resolver({}, () => elicit('Wizard step 1 of 3: pick a value', schema()));
const step2 = resolver({ uses: { prev: step1 } }, () => elicit('Wizard step 2 of 3: pick a value', schema()));
const step3 = resolver({ uses: { prev: step2 } }, () => elicit('Wizard step 3 of 3: pick a value', schema()));

function makeServer() {
  const mcp = new McpServer({ name: 'bench', version: '1.0.0' });
  mcp.tool(
    'wizard',
    { input: z.object({ n: z.number() }), resolve: { step1, step2, step3 } },
    ({ n }, { step1: a, step2: b, step3: c }) => ({
      content: [{ type: 'text', text: `wizard ${n}: ${a.value},${b.value},${c.value}` }],
    }),
  );
  return mcp;
}

/** The scripted user: step k → `{ value: 'v<k>' }`. */
const elicitation = async (params) => ({
  action: 'accept',
  content: { value: `v${params.message.charCodeAt(12) - 48}` },
});

const expected = (n) => `wizard ${n}: v1,v2,v3`;

async function setup() {
  const client = new Client({ name: 'bench-client', version: '1.0.0' }, { elicitation });
  const link = await connectInMemory(client, makeServer());
  return {
    client,
    call: async (n) => {
      const result = await client.callTool('wizard', { n });
      if (result.content?.[0]?.text !== expected(n)) throw new Error(`bad result: ${JSON.stringify(result)}`);
    },
    close: () => link[Symbol.asyncDispose](),
  };
}

/** Drives one flow a step at a time and returns the `requestState` length (characters = bytes) after each round. */
async function tokenSizes() {
  const session = await setup();
  const sizes = [];
  try {
    let step = await session.client.start('tools/call', { name: 'wizard', arguments: { n: 1 } });
    for (let round = 0; round < 10 && step.continuation !== undefined; round++) {
      const { continuation } = step;
      sizes.push(continuation.requestState?.length ?? 0);
      const answers = {};
      for (const [key, request] of Object.entries(continuation.inputRequests)) {
        answers[key] = await elicitation(request.params);
      }
      step = await session.client.resume(continuation, answers);
    }
  } finally {
    await session.close();
  }
  return sizes;
}

const sizes = await tokenSizes();
console.log(
  `\nmcp-server: 3-question resolver tool, sealed, in-memory, 4 requests per flow — node ${process.version}, ` +
    `${process.platform}/${process.arch}; ${options.warmupMs} ms warm-up + ${options.durationMs} ms per cell` +
    (options.inline ? '; schemas built inline' : ''),
);
console.log(`requestState after each round (chars): ${sizes.join(', ')}`);

const rows = [];
for (const concurrency of options.concurrency) {
  const session = await setup();
  try {
    await session.call(-1);
    globalThis.gc?.();
    const slice = await measure((_, i) => session.call(i), {
      concurrency,
      warmupMs: options.warmupMs,
      durationMs: options.durationMs,
    });
    const s = summarize([slice]);
    rows.push({
      concurrency,
      'flows/s': Math.round(s.flowsPerSec),
      'p50 ms': s.p50.toFixed(2),
      'p99 ms': s.p99.toFixed(2),
      'CPU ms/flow': s.cpuMsPerFlow.toFixed(3),
      errors: s.errors,
    });
    if (s.firstError !== undefined) console.log(`c=${concurrency}: first error: ${s.firstError}`);
  } finally {
    await session.close();
  }
}
console.table(rows);

function parseOptions() {
  const args = Object.fromEntries(
    process.argv
      .slice(2)
      .filter((a) => a.startsWith('--'))
      .map((a) => a.slice(2).split('=')),
  );
  const number = (value, fallback) => (value === undefined ? fallback : Number(value));
  return {
    durationMs: number(args.duration ?? process.env.MCP_SERVER_BENCH_DURATION_MS, 3000),
    warmupMs: number(args.warmup ?? process.env.MCP_SERVER_BENCH_WARMUP_MS, 1000),
    concurrency: (args.concurrency ?? '1,32').split(',').map(Number),
    inline: 'inline' in args,
  };
}
