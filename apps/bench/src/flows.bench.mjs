// Flow benchmark: one workload on Boomerang and on the official MCP TypeScript SDK 2.4.0, in the same process and
// run, each over its own in-memory transport pair. Boomerang runs twice: hand-written low-level `Server` handlers
// (boomerang-server.mjs), and `McpServer` with zod inputs and resolvers as users write it (boomerang-mcp.mjs),
// state sealed on both; the `McpServer/Server` column is their CPU per flow, side by side.
//   plain   — one tools/call                                    (1 request per flow)
//   confirm — one form elicitation                              (2 requests per flow)
//   wizard  — three sequential elicitations, protected state    (4 requests per flow)
// at concurrency 1 and 32 (workers sharing one connected client). Prints flows/s, p50/p99 latency, CPU ms per
// flow (process.cpuUsage over the measured window) and the Boomerang/official ratio. Each cell's measured time is
// split in slices that alternate between the two sides (A B, then B A, …), so a load burst from elsewhere on the
// machine hits both sides alike; the first slice of each side runs after its warm-up.
//
// Run after `pnpm build`:  node apps/bench/src/flows.bench.mjs [--duration=3500] [--warmup=1500]
//   [--slices=4] [--flows=plain,confirm,wizard] [--concurrency=1,32] [--side=all|official|boomerang|mcp]
// (--side=mcp: both Boomerang sides, no official one; --side=boomerang: the low-level one alone; --side=mcp-only:
// McpServer + resolvers alone, with the official side)
//   [--client=raw]  every side driven by one raw JSON-RPC client over its SDK's own in-memory pair
//   (flows/raw-memory.mjs) instead of each SDK's Client: the servers' own cost of an MRTR round
//   [--questions=args]  questions that carry the call's argument (`Proceed with ${n}?`), as real ones do
// (env FLOWS_BENCH_DURATION_MS / FLOWS_BENCH_WARMUP_MS work too; `node --expose-gc` collects between cells.)
import { measure, summarize } from './flows/harness.mjs';
import { expected } from './flows/workload.mjs';

const TARGETS = { confirm: 3, wizard: 4 }; // Boomerang/official flows/s at c=32
const HIGH_OVER_LOW = 1.25; // McpServer + resolvers CPU per flow ÷ hand-written low-level handlers'
const SLICE_WARMUP_MS = 250; // refills the pipeline before every slice after the first
const options = parseOptions();
// --questions=args: questions that carry the call's argument (flows/workload.mjs), read as each side loads.
if (process.argv.includes('--questions=args')) process.env.BENCH_QUESTIONS = 'args';
const raw = options.client === 'raw' ? await import('./flows/raw-memory.mjs') : undefined;

const sides = [];
if (options.side === 'all' || options.side === 'official' || options.side === 'mcp-only') {
  const { setupOfficial } = await import('./flows/official.mjs');
  sides.push({ name: 'official 2.4.0', key: 'official', setup: raw?.setupRawOfficial ?? setupOfficial });
}
if (options.side !== 'official') {
  try {
    const { setupBoomerang } = await import('./flows/boomerang.mjs');
    const probe = await setupBoomerang();
    await probe.close();
    const { createBoomerangServer } = await import('./flows/boomerang-server.mjs');
    const low = raw === undefined ? setupBoomerang : () => raw.setupRawBoomerang(createBoomerangServer);
    if (options.side !== 'mcp-only') sides.push({ name: 'boomerang', key: 'boomerang', setup: low });
    if (options.side !== 'boomerang') {
      const { setupMcpServer, createMcpServer } = await import('./flows/boomerang-mcp.mjs');
      const high = raw === undefined ? setupMcpServer : () => raw.setupRawBoomerang(createMcpServer);
      sides.push({ name: 'boomerang McpServer', key: 'mcp', setup: high });
    }
  } catch (error) {
    console.log(`flows: Boomerang side unavailable (${firstLine(error)}); run \`pnpm build\` first.`);
  }
}

const perSide = options.warmupMs + options.durationMs + (options.slices - 1) * SLICE_WARMUP_MS;
const cells = options.flows.length * options.concurrency.length;
console.log(
  `\nflows: ${cells} cells × ${sides.length} sides × (${options.warmupMs} ms warm-up + ${options.durationMs} ms measured` +
    ` in ${options.slices} alternating slices) ≈ ${Math.round((cells * sides.length * perSide) / 1000)} s` +
    ` — node ${process.version}, ${process.platform}/${process.arch}`,
);

const rows = [];
for (const flow of options.flows) {
  for (const concurrency of options.concurrency) {
    const results = await runCell(flow, concurrency);
    for (const [i, side] of sides.entries()) {
      rows.push({ flow, concurrency, side: side.name, key: side.key, ...results[i] });
    }
    const low = results[sides.findIndex((s) => s.key === 'boomerang')];
    const high = results[sides.findIndex((s) => s.key === 'mcp')];
    const theirs = results[sides.findIndex((s) => s.key === 'official')];
    const row = (key) =>
      rows.findLast((r) => r.key === key && r.flow === flow && r.concurrency === concurrency);
    for (const [key, ours] of [
      ['boomerang', low],
      ['mcp', high],
    ]) {
      if (ours && theirs) {
        row(key).ratio = ours.flowsPerSec / theirs.flowsPerSec;
        row(key).cpuRatio = theirs.cpuMsPerFlow / ours.cpuMsPerFlow;
      }
    }
    if (low && high) row('mcp').highOverLow = high.cpuMsPerFlow / low.cpuMsPerFlow;
  }
}
printTable(rows);

/** One cell: every side set up once, then measured in alternating slices; one summary per side. */
async function runCell(flow, concurrency) {
  const check = expected[flow];
  const sessions = [];
  const slices = sides.map(() => []);
  const failed = sides.map(() => undefined);
  try {
    for (const side of sides) sessions.push(await side.setup());
    for (const [i, session] of sessions.entries()) {
      // Sanity: the first flow must complete with the right text before anything is timed.
      const first = await session.call(flow, -1).catch((error) => error);
      if (first?.content?.[0]?.text !== check(-1))
        failed[i] = new Error(`bad first result: ${describe(first)}`);
    }
    for (let slice = 0; slice < options.slices; slice++) {
      const order = sides.map((_, i) => i);
      if (slice % 2 === 1) order.reverse();
      for (const i of order) {
        if (failed[i] !== undefined) continue;
        globalThis.gc?.();
        const session = sessions[i];
        slices[i].push(
          await measure(
            async (worker, n0) => {
              const n = worker * 1_000_000 + n0;
              const result = await session.call(flow, n);
              if (result.content[0].text !== check(n)) throw new Error(`bad result ${describe(result)}`);
            },
            {
              concurrency,
              warmupMs: slice === 0 ? options.warmupMs : SLICE_WARMUP_MS,
              durationMs: options.durationMs / options.slices,
            },
          ),
        );
      }
    }
  } finally {
    for (const session of sessions) await session.close();
  }
  return sides.map((_, i) =>
    failed[i] === undefined
      ? summarize(slices[i])
      : { flows: 0, flowsPerSec: Number.NaN, errors: 1, firstError: failed[i] },
  );
}

function describe(value) {
  return value instanceof Error ? firstLine(value) : JSON.stringify(value);
}

function printTable(rows) {
  const header = [
    'flow',
    'c',
    'side',
    'flows/s',
    'p50 ms',
    'p99 ms',
    'CPU ms/flow',
    'B/official',
    'CPU gain',
    'McpServer/Server CPU',
    'target (flows/s)',
  ];
  const body = rows.map((r) => {
    const target = r.key !== 'official' && r.concurrency === 32 ? TARGETS[r.flow] : undefined;
    return [
      r.flow,
      String(r.concurrency),
      r.side,
      fmt(r.flowsPerSec, 0),
      fmt(r.p50, 3),
      fmt(r.p99, 3),
      fmt(r.cpuMsPerFlow, 4),
      r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}×`,
      r.cpuRatio === undefined ? '' : `${r.cpuRatio.toFixed(2)}×`,
      r.highOverLow === undefined
        ? ''
        : `${r.highOverLow.toFixed(2)}× ${r.highOverLow <= HIGH_OVER_LOW ? 'met' : 'MISSED'}`,
      target === undefined || r.ratio === undefined
        ? ''
        : `≥ ${target}× ${r.ratio >= target ? 'met' : 'MISSED'}`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cols) =>
    `| ${cols.map((c, i) => (i < 3 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(`\n${line(header)}`);
  console.log(
    `|${widths.map((w, i) => (i < 3 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
  );
  for (const row of body) console.log(line(row));
  for (const r of rows) {
    if (r.errors > 0)
      console.log(
        `  ${r.side} ${r.flow} c=${r.concurrency}: ${r.errors} error(s), first: ${firstLine(r.firstError)}`,
      );
  }
  console.log(
    'B/official: Boomerang flows/s ÷ official flows/s. CPU gain: official CPU ms/flow ÷ Boomerang CPU ms/flow ' +
      '(less sensitive to other load on the machine). McpServer/Server CPU: CPU ms/flow of McpServer + resolvers ÷ ' +
      `that of the hand-written low-level handlers (target ≤ ${HIGH_OVER_LOW}×). Targets apply at c=32.\n`,
  );
}

function fmt(value, digits) {
  if (value === undefined || Number.isNaN(value)) return 'n/a';
  return digits === 0 ? Math.round(value).toLocaleString('en-US') : value.toFixed(digits);
}

function firstLine(error) {
  return String(error?.stack ?? error).split('\n')[0];
}

function parseOptions() {
  const args = new Map(
    process.argv
      .slice(2)
      .filter((a) => a.startsWith('--'))
      .map((a) => {
        const [k, v = ''] = a.slice(2).split('=');
        return [k, v];
      }),
  );
  const num = (flag, env, fallback) => Number(args.get(flag) ?? process.env[env] ?? fallback);
  const list = (flag, fallback) => (args.get(flag) ?? fallback).split(',').filter(Boolean);
  return {
    durationMs: num('duration', 'FLOWS_BENCH_DURATION_MS', 3500),
    warmupMs: num('warmup', 'FLOWS_BENCH_WARMUP_MS', 1500),
    flows: list('flows', 'plain,confirm,wizard'),
    concurrency: list('concurrency', '1,32').map(Number),
    side: args.get('side') ?? 'all',
    slices: Math.max(1, num('slices', 'FLOWS_BENCH_SLICES', 4)),
    client: args.get('client') === 'raw' ? 'raw' : 'sdk',
  };
}
