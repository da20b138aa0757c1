// Instructions per flow, counted by valgrind (callgrind): a figure a shared, noisy machine does not move, for
// comparing two builds of the repository (a change against the commit before it, the wave against its start), or
// two sides of one build (McpServer + resolvers against the hand-written low-level Server).
//
// In memory (the default): the flow benchmark's Client and server (apps/bench/src/flows/: the low-level Server, or
// with `--side=mcp` McpServer + resolvers) run `--warm` flows, then `--flows` more, under callgrind, and once more
// with no counted flows; the difference divided by `--flows` is the cost of one flow, client and server, with
// start-up and JIT warm-up taken out.
// `--transport=http`: only the server is counted: the build's HTTP server child (apps/bench/src/transports/
// http-server.mjs of that checkout, `listen()` on 127.0.0.1) runs under callgrind, driven by this checkout's raw
// socket client at c=32 (`--warm` flows, then `--flows`, against a run with none counted, as above). Instructions
// are not time: code that misses the CPU's caches more costs more per instruction, which cpu-per-flow.bench.mjs
// sees and this does not; what this adds is a figure no other load on the machine moves.
// Runs are repeated (`--runs`) and the median reported, since the JIT's timing still moves single runs by a few
// percent.
//
//   node apps/bench/src/instructions.bench.mjs [--root=<checkout>]... [--flow=plain,confirm,wizard]
//     [--warm=2048] [--flows=2048] [--runs=3] [--transport=memory|http] [--side=boomerang|mcp]  (http: 4096 each)
//     [--side-a=boomerang|mcp] [--side-b=boomerang|mcp]
// Each `--root` is a checkout with its packages built (default: this one); with two roots, the last column is the
// second's count over the first's. `--side-a` / `--side-b` set the side of the first / second root: give one root
// twice with `--side-a=boomerang --side-b=mcp` to compare the two APIs of one build. Needs `valgrind` (Debian:
// apt-get install valgrind). Node runs with --single-threaded so that its background compiler threads are counted
// the same way in every run.
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

/**
 * Calls `run` with the leading arguments of a callgrind run (valgrind's, then node and its flags) that write to a
 * fresh file, and returns the instructions callgrind counted once `run` settles.
 */
async function underCallgrind(label, run) {
  const dir = mkdtempSync(join(tmpdir(), 'boomerang-callgrind-'));
  try {
    const out = join(dir, 'callgrind.out');
    await run([
      '--tool=callgrind',
      '--quiet',
      `--callgrind-out-file=${out}`,
      process.execPath,
      '--single-threaded',
    ]);
    const totals = /^(?:totals|summary):\s+(\d+)/m.exec(readFileSync(out, 'utf8'));
    if (totals === null) throw new Error(`no totals in callgrind output (${label})`);
    return Number(totals[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Instructions callgrind counted for one run of count-flows.mjs (client and server in one process). */
function inMemory(root, side, flow, counted) {
  return underCallgrind(`${root}, ${side}, ${flow}`, (callgrind) => {
    const argv = [
      join(here, 'instructions', 'count-flows.mjs'),
      root,
      flow,
      String(options.warm),
      String(counted),
    ];
    const run = spawnSync('valgrind', [...callgrind, ...argv, side], { encoding: 'utf8' });
    if (run.status !== 0)
      throw new Error(`callgrind run failed (${root}, ${side}, ${flow}):\n${run.stderr.slice(-2000)}`);
  });
}

/** Instructions callgrind counted in one HTTP server child of `root` over its whole life. */
function overHttp(root, side, flow, counted) {
  return underCallgrind(`${root}, ${side}, ${flow}`, async (callgrind) => {
    const [{ startHttpServer }, { rawNetClient }, { runFlows }] = await Promise.all([
      import('./transports/http-child.mjs'),
      import('./transports/raw-net-http.mjs'),
      import('./flows/workload.mjs'),
    ]);
    const server = await startHttpServer(side, {
      script: join(root, 'apps/bench/src/transports/http-server.mjs'),
      // valgrind runs node (the last of `callgrind`), which runs the script.
      execPath: 'valgrind',
      execArgv: callgrind,
      // callgrind writes its output as the child exits.
      graceMs: 60_000,
    });
    const client = rawNetClient(server.url);
    try {
      await runFlows(client.call, flow, options.warm);
      await runFlows(client.call, flow, counted, options.warm);
    } finally {
      client.close();
      await server.stop();
    }
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const count = options.transport === 'http' ? overHttp : inMemory;

console.log(
  `instructions per flow (callgrind; ${
    options.transport === 'http'
      ? 'the HTTP server child only, raw socket client'
      : 'in-memory Client + server, one process'
  }, c=32; ${options.warm} warm-up flows, (I(${options.flows}) - I(0)) / ${options.flows}, median of ` +
    `${options.runs} runs) — node ${process.version}`,
);
const rows = [];
for (const flow of options.flow) {
  const row = { flow };
  const perRoot = [];
  for (const [index, root] of options.roots.entries()) {
    const side = options.sideOf(index);
    const label = `${root} (${side})`;
    const samples = [];
    for (let r = 0; r < options.runs; r++) {
      const base = await count(root, side, flow, 0);
      const full = await count(root, side, flow, options.flows);
      samples.push((full - base) / options.flows);
    }
    const value = median(samples);
    perRoot.push(value);
    row[label] = Math.round(value).toLocaleString('en');
    row[`${label} runs`] = `${samples.map((s) => Math.round(s / 1000)).join('k ')}k`;
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
  const transport = values('transport').at(-1) ?? 'memory';
  const side = values('side').at(-1) ?? 'boomerang';
  const sideOf = (index) => values(index === 0 ? 'side-a' : 'side-b').at(-1) ?? side;
  const fail = (message) => {
    console.error(`instructions.bench: ${message}`);
    process.exit(2);
  };
  if (transport !== 'memory' && transport !== 'http')
    fail(`--transport expected memory or http, got ${transport}`);
  for (const index of [0, 1]) {
    if (sideOf(index) !== 'boomerang' && sideOf(index) !== 'mcp')
      fail(`--side expected boomerang or mcp, got ${sideOf(index)}`);
  }
  return {
    roots:
      roots.length > 0 ? roots : [fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '')],
    flow: (values('flow').at(-1) ?? 'plain,confirm,wizard').split(','),
    // Over HTTP a server's JIT takes longer to settle (every request is its own turn of the event loop).
    warm: one('warm', transport === 'http' ? 4096 : 2048),
    flows: one('flows', transport === 'http' ? 4096 : 2048),
    runs: one('runs', 3),
    transport,
    sideOf,
  };
}
