// CPU per flow of two builds of the repository, in one run, the builds alternating (A B, B A, …) so that other load
// on the machine falls on both alike. Prints the median CPU µs per flow of each build and their ratio.
//
// In memory (the default): the flow benchmark's Client and server (apps/bench/src/flows/ of each checkout: the
// hand-written low-level Server, or with `--side=mcp` McpServer + resolvers), each run in a fresh process
// (`--warm` flows, then `--flows` counted, c=32; the process's own CPU time, client and server, over the counted
// flows). instructions.bench.mjs counts instructions instead (steadier, but slow).
//
// `--transport=http`: each build's HTTP server child (apps/bench/src/transports/http-server.mjs of that checkout,
// `listen()` on 127.0.0.1, hand-written handlers; `--side=mcp` for McpServer + resolvers where the build has it),
// both running at once, driven by this checkout's raw socket client (the same client for both, c=32); each of
// `--runs` runs forks a fresh pair, warms each with `--warm` flows, then counts `--flows` flows on each (the order
// alternating run after run): the server child's CPU per counted flow.
// `--opts-a=JSON` / `--opts-b=JSON`: extra `listen()` options for A's / B's server (give one root twice to
// compare two settings of one build, or none to see the method's own noise: an A/A run).
// `--mount=M`, `--mount-a=M` / `--mount-b=M`: how the server is mounted: `node` (`listen(server)`, the default),
// `web-hono` (`createHttpHandler(server)` served by @hono/node-server), `hono-app` (the same behind a Hono app's
// route), `web-node` (`listen(createHttpHandler(server))`); see transports/web-mounts.mjs. With one root twice,
// `--mount-a=node --mount-b=web-hono` is the web-standard handler's cost against `listen(server)`, paired.
// `--side-a` / `--side-b` (both transports): the side of A's / B's server; with one root twice,
// `--side-a=boomerang --side-b=mcp` compares McpServer + resolvers with the hand-written Server of one build, with
// the same pairing (and, over HTTP, pinning).
// `--pin` (Linux, `taskset`): both server children on the last CPU, this process on the first, so that neither
// build's server runs on a core the other does not (on a shared machine cores differ). `--pin=same`: this process
// (the client) on that CPU too. Across CPUs, each response that wakes an idle client costs the server a cross-CPU
// wakeup (on a VM, an interrupt that exits to the hypervisor), and the slower the server the idler the client:
// added server work shows magnified. On one CPU, a wakeup is a local switch and the server's CPU is its own work.
// `--spin-b=µs`: B's server busy-waits that long in every request before handling it: a known cost, to see what a
// method makes of it (A/A with one root twice; on this project's 2-vCPU VM, 5 µs per request measured +21 µs per
// confirm flow with `--pin` and +12 µs with `--pin=same`, where the true cost is 10 µs).
//
//   node apps/bench/src/cpu-per-flow.bench.mjs --root=<before> --root=<after> [--flow=plain,confirm,wizard]
//     [--warm=20000] [--flows=100000] [--runs=5] [--transport=memory|http] [--side=boomerang|mcp] [--pin[=same]] [--cpu-prof=DIR]
//     [--opts-a=JSON] [--opts-b=JSON] [--side-a=boomerang|mcp|mcp-otel] [--side-b=…] [--spin-b=µs]
//     [--mount=node|web-hono|hono-app|web-node] [--mount-a=…] [--mount-b=…]
//   (`mcp-otel`, in memory: McpServer + resolvers with serverTelemetry() and clientTelemetry() through an SDK whose
//   exporter drops the spans: `--side-a=mcp --side-b=mcp-otel` is what tracing costs per flow)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHttpServer } from './transports/http-child.mjs';

const counter = fileURLToPath(new URL('./instructions/count-flows.mjs', import.meta.url));
const args = process.argv.slice(2).filter((a) => a.startsWith('--'));
const values = (key) => args.filter((a) => a.startsWith(`--${key}=`)).map((a) => a.slice(key.length + 3));
const roots = values('root');
if (roots.length !== 2) {
  console.error(
    'Usage: node apps/bench/src/cpu-per-flow.bench.mjs --root=<before> --root=<after> [--flow=…]',
  );
  process.exit(2);
}
const flows = (values('flow').at(-1) ?? 'plain,confirm,wizard').split(',');
const warm = Number(values('warm').at(-1) ?? 20_000);
const counted = Number(values('flows').at(-1) ?? 100_000);
const runs = Number(values('runs').at(-1) ?? 5);
const transport = values('transport').at(-1) ?? 'memory';
const side = values('side').at(-1) ?? 'boomerang';
// --side-a / --side-b: a side per build (give one root twice to compare the hand-written Server with McpServer).
const sideOf = (index) => values(index === 0 ? 'side-a' : 'side-b').at(-1) ?? side;
// --mount-a / --mount-b (HTTP): how each build's server is mounted (transports/web-mounts.mjs).
const mountOf = (index) =>
  values(index === 0 ? 'mount-a' : 'mount-b').at(-1) ?? values('mount').at(-1) ?? 'node';
const pin = args.includes('--pin') || values('pin').length > 0;
const pinSame = values('pin').at(-1) === 'same';
const spinB = values('spin-b').at(-1);
const cpuProf = values('cpu-prof').at(-1);
if (transport !== 'memory' && transport !== 'http') {
  console.error(`--transport expected memory or http, got ${transport}`);
  process.exit(2);
}
const sides =
  transport === 'memory'
    ? ['boomerang', 'mcp', 'mcp-otel']
    : ['boomerang', 'mcp', 'mcp-otel', 'official', 'floor'];
for (const index of [0, 1]) {
  if (!sides.includes(sideOf(index))) {
    console.error(`--side expected ${sides.join(', ')} with --transport=${transport}, got ${sideOf(index)}`);
    process.exit(2);
  }
}
const mounted = [0, 1].some((index) => mountOf(index) !== 'node');
if (transport === 'memory' && (pin || spinB !== undefined || mounted)) {
  console.error('--pin, --spin-b and --mount apply to --transport=http only');
  process.exit(2);
}

/** CPU µs per flow of one fresh process of `root`, serving build `index`'s side. */
function once(root, flow, index) {
  const argv = [counter, root, flow, String(warm), String(counted), sideOf(index)];
  const out = execFileSync(process.execPath, argv, { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1)).cpuUsPerFlow;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/**
 * Prints the median CPU of each build and the median of the per-run ratios B/A (runs are paired: A and B measured
 * back to back, so a burst of load from elsewhere falls on both of one pair and cancels in its ratio).
 */
const report = (flow, samples) => {
  const [a, b] = samples.map(median);
  const paired = median(samples[1].map((x, i) => x / samples[0][i]));
  console.log(
    `${flow.padEnd(8)} A ${a.toFixed(1)} µs  B ${b.toFixed(1)} µs  B/A ${paired.toFixed(3)} (median of paired runs)   ` +
      `(A: ${samples[0].map((x) => x.toFixed(1)).join(', ')}; B: ${samples[1].map((x) => x.toFixed(1)).join(', ')})`,
  );
};

if (transport === 'memory') {
  console.log(
    `CPU µs per flow (in-memory Client + ${sideOf(0)} / ${sideOf(1)} server, c=32; ${warm} warm-up + ${counted} counted flows per ` +
      `process, ${runs} processes per build, alternating) — node ${process.version}`,
  );
  console.log(`A = ${roots[0]}\nB = ${roots[1]}`);
  for (const flow of flows) {
    const samples = [[], []];
    for (let r = 0; r < runs; r++) {
      const order = r % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order) samples[i].push(once(roots[i], flow, i));
    }
    report(flow, samples);
  }
} else {
  await benchHttp();
}

async function benchHttp() {
  const { rawNetClient } = await import('./transports/raw-net-http.mjs');
  const { runFlows } = await import('./flows/workload.mjs');
  console.log(
    `Server CPU µs per flow (Streamable HTTP on 127.0.0.1, mounted ${mountOf(0)} / ${mountOf(1)}, ${sideOf(0)} / ${sideOf(1)} side, c=32, raw socket client; ` +
      `${runs} runs per build, each a fresh pair of server processes: ${warm} warm-up flows, then ${counted} ` +
      `counted, alternating; ${pin ? (pinSame ? 'client and servers pinned on one CPU' : 'client and servers pinned on two CPUs') : 'unpinned'}` +
      `${spinB === undefined ? '' : `; B busy-waits ${spinB} µs per request`}) — node ${process.version}`,
  );
  console.log(`A = ${roots[0]}\nB = ${roots[1]}`);
  const cpus = (await import('node:os')).availableParallelism();
  const clientCpu = pinSame ? cpus - 1 : 0;
  if (pin) execFileSync('taskset', ['-p', '-c', String(clientCpu), String(process.pid)], { stdio: 'ignore' });
  for (const flow of flows) {
    const samples = [[], []];
    const kernel = [[], []];
    for (let r = 0; r < runs; r++) {
      // Fresh processes every run: a process's own JIT and heap layout can bias it by several per cent for its
      // whole life, so one long-lived pair would compare two processes rather than two builds.
      const servers = [];
      const clients = [];
      try {
        for (const [i, root] of roots.entries()) servers.push(await startServer(root, i));
        if (pin) {
          for (const server of servers) {
            execFileSync('taskset', ['-a', '-p', '-c', String(cpus - 1), String(server.pid)], {
              stdio: 'ignore',
            });
          }
        }
        for (const server of servers) clients.push(rawNetClient(server.url));
        const burst = (i, count) => runFlows(clients[i].call, flow, count);
        const order = r % 2 === 0 ? [0, 1] : [1, 0];
        for (const i of order) await burst(i, warm);
        for (const i of order) {
          const before = await servers[i].cpu();
          await burst(i, counted);
          const after = await servers[i].cpu();
          samples[i].push((after.user + after.system - before.user - before.system) / counted);
          kernel[i].push((after.system - before.system) / counted);
        }
      } finally {
        for (const client of clients) client.close();
        await Promise.all(servers.map((server) => server.stop()));
      }
    }
    report(flow, samples);
    // The kernel's part (system time: mostly the socket writes, which on loopback include waking the client).
    const [ka, kb] = kernel.map(median);
    console.log(`${''.padEnd(8)} of which system time: A ${ka.toFixed(1)} µs  B ${kb.toFixed(1)} µs`);
  }
}

/** Starts `root`'s HTTP server child (its own http-server.mjs) as build `index` (0: A, 1: B); CPU (user, system) in µs. */
async function startServer(root, index) {
  const server = await startHttpServer(sideOf(index), {
    script: join(root, 'apps/bench/src/transports/http-server.mjs'),
    env: {
      ...process.env,
      BENCH_LISTEN_OPTIONS: values(index === 0 ? 'opts-a' : 'opts-b').at(-1) ?? '{}',
      BENCH_MOUNT: mountOf(index),
      BENCH_SPIN_US: index === 1 && spinB !== undefined ? spinB : '',
    },
    execArgv:
      cpuProf === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${join(cpuProf, index === 0 ? 'A' : 'B')}`],
  });
  const cpu = async () => (await server.stats()).cpu;
  return { ...server, cpu };
}
