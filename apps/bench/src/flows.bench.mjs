// Flow benchmark: one workload on Boomerang and on the official MCP TypeScript SDK 2.4.0, in the same process and
// run, each over its own in-memory transport pair.
//   plain   — one tools/call                                    (1 request per flow)
//   confirm — one form elicitation                              (2 requests per flow)
//   wizard  — three sequential elicitations, protected state    (4 requests per flow)
// at concurrency 1 and 32 (workers sharing one connected client). Prints flows/s, p50/p99 latency, CPU ms per
// flow (process.cpuUsage over the measured window) and the Boomerang/official ratio.
//
// Run after `pnpm build`:  node apps/bench/src/flows.bench.mjs [--duration=3500] [--warmup=1500]
//   [--flows=plain,confirm,wizard] [--concurrency=1,32] [--side=both|official|boomerang]
// (env FLOWS_BENCH_DURATION_MS / FLOWS_BENCH_WARMUP_MS work too; `node --expose-gc` collects between cells.)
import { measure } from './flows/harness.mjs';
import { expected } from './flows/workload.mjs';

const TARGETS = { confirm: 2, wizard: 4 }; // Boomerang/official flows/s at c=32
const options = parseOptions();

const sides = [];
if (options.side !== 'boomerang') {
  const { setupOfficial } = await import('./flows/official.mjs');
  sides.push({ name: 'official 2.4.0', key: 'official', setup: setupOfficial });
}
if (options.side !== 'official') {
  try {
    const { setupBoomerang } = await import('./flows/boomerang.mjs');
    const probe = await setupBoomerang();
    await probe.close();
    sides.push({ name: 'boomerang', key: 'boomerang', setup: setupBoomerang });
  } catch (error) {
    console.log(`flows: Boomerang side unavailable (${firstLine(error)}); run \`pnpm build\` first.`);
  }
}

const cellMs = options.warmupMs + options.durationMs;
const cells = options.flows.length * options.concurrency.length * sides.length;
console.log(
  `\nflows: ${cells} cells × (${options.warmupMs} ms warm-up + ${options.durationMs} ms measured) ≈ ${Math.round((cells * cellMs) / 1000)} s` +
    ` — node ${process.version}, ${process.platform}/${process.arch}`,
);

const rows = [];
for (const flow of options.flows) {
  for (const concurrency of options.concurrency) {
    const bySide = {};
    for (const side of sides) {
      bySide[side.key] = await runCell(side, flow, concurrency);
      rows.push({ flow, concurrency, side: side.name, key: side.key, ...bySide[side.key] });
    }
    const ours = bySide.boomerang;
    const theirs = bySide.official;
    if (ours && theirs) rows.at(-1).ratio = ours.flowsPerSec / theirs.flowsPerSec;
  }
}
printTable(rows);

async function runCell(side, flow, concurrency) {
  const session = await side.setup();
  const check = expected[flow];
  try {
    // Sanity: the first flow must complete with the right text before anything is timed.
    const first = await session.call(flow, -1);
    if (first?.content?.[0]?.text !== check(-1)) throw new Error(`bad result ${JSON.stringify(first)}`);
    globalThis.gc?.();
    return await measure(
      async (worker, i) => {
        const n = worker * 1_000_000 + i;
        const result = await session.call(flow, n);
        if (result.content[0].text !== check(n)) throw new Error(`bad result ${JSON.stringify(result)}`);
      },
      { concurrency, warmupMs: options.warmupMs, durationMs: options.durationMs },
    );
  } catch (error) {
    return { flows: 0, flowsPerSec: Number.NaN, errors: 1, firstError: error };
  } finally {
    await session.close();
  }
}

function printTable(rows) {
  const header = ['flow', 'c', 'side', 'flows/s', 'p50 ms', 'p99 ms', 'CPU ms/flow', 'B/official', 'target'];
  const body = rows.map((r) => {
    const target = r.key === 'boomerang' && r.concurrency === 32 ? TARGETS[r.flow] : undefined;
    return [
      r.flow,
      String(r.concurrency),
      r.side,
      fmt(r.flowsPerSec, 0),
      fmt(r.p50, 3),
      fmt(r.p99, 3),
      fmt(r.cpuMsPerFlow, 4),
      r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}×`,
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
  console.log('');
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
    side: args.get('side') ?? 'both',
  };
}
