// Instructions per flow, counted by valgrind (callgrind): a figure a shared, noisy machine does not move, for
// comparing two builds of the repository (a change against the commit before it, the wave against its start).
// For each flow, the flow benchmark's in-memory low-level Server + Client (apps/bench/src/flows/boomerang.mjs) runs
// `--warm` flows, then `--flows` more, under callgrind, and once more with no counted flows; the difference divided
// by `--flows` is the cost of one flow with start-up and JIT warm-up taken out. Runs are repeated (`--runs`) and the
// median reported, since the JIT's timing still moves single runs by a few percent.
//
//   node apps/bench/src/instructions.bench.mjs [--root=<checkout>]... [--flow=plain,confirm,wizard]
//     [--warm=2048] [--flows=2048] [--runs=3]
// Each `--root` is a checkout with its packages built (default: this one); with two roots, the last column is the
// second's count over the first's. Needs `valgrind` (Debian: apt-get install valgrind). Node runs with
// --single-threaded so that its background compiler threads are counted the same way in every run.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const options = parseOptions();

try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  console.error('instructions.bench: valgrind is not installed (Debian: apt-get install valgrind)');
  process.exit(2);
}

/** Instructions callgrind counted for one run of count-flows.mjs. */
function instructions(root, flow, counted) {
  const dir = mkdtempSync(join(tmpdir(), 'boomerang-callgrind-'));
  try {
    const out = join(dir, 'callgrind.out');
    const run = spawnSync(
      'valgrind',
      [
        '--tool=callgrind',
        `--callgrind-out-file=${out}`,
        process.execPath,
        '--single-threaded',
        join(here, 'instructions', 'count-flows.mjs'),
        root,
        flow,
        String(options.warm),
        String(counted),
      ],
      { encoding: 'utf8' },
    );
    if (run.status !== 0)
      throw new Error(`callgrind run failed (${root}, ${flow}):\n${run.stderr.slice(-2000)}`);
    const totals = /^(?:totals|summary):\s+(\d+)/m.exec(readFileSync(out, 'utf8'));
    if (totals === null) throw new Error(`no totals in callgrind output for ${root}, ${flow}`);
    return Number(totals[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

console.log(
  `instructions per flow (callgrind; in-memory low-level Server + Client, c=32; ${options.warm} warm-up flows, ` +
    `(I(${options.flows}) - I(0)) / ${options.flows}, median of ${options.runs} runs) — node ${process.version}`,
);
const rows = [];
for (const flow of options.flow) {
  const row = { flow };
  const perRoot = [];
  for (const root of options.roots) {
    const samples = [];
    for (let r = 0; r < options.runs; r++) {
      const base = instructions(root, flow, 0);
      const full = instructions(root, flow, options.flows);
      samples.push((full - base) / options.flows);
    }
    const value = median(samples);
    perRoot.push(value);
    row[root] = Math.round(value).toLocaleString('en');
    row[`${root} runs`] = samples.map((s) => Math.round(s / 1000)).join('k ') + 'k';
  }
  if (perRoot.length === 2) row.ratio = (perRoot[1] / perRoot[0]).toFixed(3);
  rows.push(row);
  console.log(JSON.stringify(row));
}
console.table(rows);

function parseOptions() {
  const args = process.argv.slice(2).filter((a) => a.startsWith('--'));
  const values = (key) => args.filter((a) => a.startsWith(`--${key}=`)).map((a) => a.slice(key.length + 3));
  const one = (key, fallback) => Number(values(key).at(-1) ?? fallback);
  const roots = values('root');
  return {
    roots:
      roots.length > 0 ? roots : [fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '')],
    flow: (values('flow').at(-1) ?? 'plain,confirm,wizard').split(','),
    warm: one('warm', 2048),
    flows: one('flows', 2048),
    runs: one('runs', 3),
  };
}
