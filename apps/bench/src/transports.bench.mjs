// Transport benchmark: the flow bench's workload (plain / confirm / wizard, see flows/workload.mjs) on Boomerang
// and on the official MCP TypeScript SDK 2.4.0, each server in its own child process, in one run:
//
//   http  — Streamable HTTP on 127.0.0.1, JSON responses; one load generator, the same for both SDKs, drives the
//           flows: by default raw keep-alive HTTP/1.1 over node:net with precomputed request heads and a minimal
//           response parser (transports/raw-net-http.mjs), cheap enough that the server is what the ratio measures
//           on a 2-core machine; `--http-client=fetch` uses the global fetch (undici keep-alive,
//           transports/raw-http.mjs) instead. Prints flows/s, p50/p99, the server child's CPU ms per HTTP request
//           (its own process.cpuUsage over IPC, same window) and its RSS after the run.
//   stdio — each SDK's own Client and stdio client transport spawning the server; flows/s, p50/p99, and the
//           server child's CPU per flow (read from /proc/<pid>/stat where there is one).
//   cold  — spawn → first stdio `tools/call` answered, median of N, for both SDKs, `node -e 0` as the floor.
//   Boomerang's HTTP server runs twice: the hand-written low-level handlers, and the same workload as users write it
//           (McpServer, zod inputs, resolvers, state sealed by default: flows/boomerang-mcp.mjs), side by side with
//           the ratio of their CPU per request (`--no-mcp` leaves the McpServer side out).
//   --floor adds one more HTTP server, the workload hand-written on bare node:http (transports/floor-server.mjs: no
//           checks, no validation, state echoed in plain text), to show what node:http and JSON alone cost per
//           request on this machine.
//
// Every cell is measured in slices that alternate between the two sides (A B, then B A …), as in the flow bench.
// Servers listen on 127.0.0.1 only; every child process is stopped at the end (IPC `exit`, then SIGKILL).
//
// Run after `pnpm build`:  node apps/bench/src/transports.bench.mjs [--duration=4000] [--warmup=1000]
//   [--slices=2] [--flows=plain,confirm,wizard] [--concurrency=32] [--parts=http,stdio,cold] [--cold-runs=10]
//   [--side=both|official|boomerang] [--floor] [--no-mcp] [--http-client=net|fetch] [--cpu-prof=DIR]  (--cpu-prof runs every server child with `node --cpu-prof`
//   and writes the .cpuprofile files to DIR when it exits; summarize one with transports/cpuprofile-top.mjs)
//   [--server-flags=--expose-gc,…]  (more node flags for every server child; with --expose-gc the HTTP memory
//   table also reports the live heap after a full collection)
//   [--mount=node|web-hono|hono-app|web-node]  (how Boomerang's HTTP servers are mounted: `listen(server)` by
//   default, or the web-standard `createHttpHandler(server)` served by @hono/node-server, a Hono app, or
//   `listen(createHttpHandler(server))`; see transports/web-mounts.mjs and, for Bun and Deno,
//   web-runtimes.bench.mjs)
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { measure, summarize } from './flows/harness.mjs';
import { expected } from './flows/workload.mjs';
import { coldStart, nodeFloor } from './transports/cold-start.mjs';
import { startHttpServer } from './transports/http-child.mjs';
import { rawHttpClient } from './transports/raw-http.mjs';
import { rawNetClient } from './transports/raw-net-http.mjs';
import { setupBoomerangStdio, setupOfficialStdio } from './transports/stdio-clients.mjs';

const REQUESTS_PER_FLOW = { plain: 1, confirm: 2, wizard: 4 };
const TARGETS = { http: 5, httpCpuMs: 0.2, rssMb: 80, stdio: 2, coldMs: 150 };
const SLICE_WARMUP_MS = 250;
const options = parseOptions();
const nodeFlags = [
  ...(options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProf}`] : []),
  ...options.serverFlags,
];
const children = new Set();
const track = (child) => {
  children.add(child);
  child.once('exit', () => children.delete(child));
};
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

const sides = [
  { name: 'official 2.4.0', key: 'official', stdio: setupOfficialStdio },
  { name: 'boomerang', key: 'boomerang', stdio: setupBoomerangStdio },
].filter((s) => options.side === 'both' || options.side === s.key);

const cellSeconds = (options.warmupMs + options.durationMs + (options.slices - 1) * SLICE_WARMUP_MS) / 1000;
console.log(
  `\ntransports: ${options.parts.join(', ')}; ${options.flows.length} flows × c=${options.concurrency.join(',')} × ` +
    `${sides.length} sides × (${options.warmupMs} ms warm-up + ${options.durationMs} ms in ${options.slices} ` +
    `alternating slices) ≈ ${Math.round(cellSeconds * options.flows.length * options.concurrency.length * sides.length)} s per ` +
    `transport — node ${process.version}, ${process.platform}/${process.arch}, load ${loadAverage()}`,
);

try {
  if (options.parts.includes('http')) await benchHttp();
  if (options.parts.includes('stdio')) await benchStdio();
  if (options.parts.includes('cold')) await benchCold();
} finally {
  await stopChildren();
}

// ---------------------------------------------------------------------------------------------------- HTTP

async function benchHttp() {
  // --floor: one more server, hand-written on bare node:http (transports/floor-server.mjs), for the machine's floor.
  // Boomerang's HTTP server runs twice: hand-written low-level handlers, and McpServer + resolvers as users write it.
  const httpSides = [
    ...sides,
    ...(sides.some((s) => s.key === 'boomerang') && options.mcp
      ? [{ name: 'boomerang McpServer', key: 'mcp' }]
      : []),
    ...(options.floor ? [{ name: 'node:http floor', key: 'floor' }] : []),
  ];
  const servers = [];
  try {
    for (const side of httpSides) {
      // --mount: the Boomerang sides served as the web-standard handler (transports/web-mounts.mjs).
      const mounted = side.key === 'boomerang' || side.key === 'mcp';
      const env = mounted ? { ...process.env, BENCH_MOUNT: options.mount } : undefined;
      servers.push(await startHttpServer(side.key, { execArgv: nodeFlags, track, env }));
    }
    const makeClient = options.httpClient === 'fetch' ? rawHttpClient : rawNetClient;
    const clients = servers.map((server) => makeClient(server.url));
    const rows = [];
    for (const flow of options.flows) {
      for (const concurrency of options.concurrency) {
        const results = await runCell(
          flow,
          concurrency,
          httpSides.map((_, i) => ({
            call: (name, n) => clients[i].call(name, n),
            window: () => httpWindow(servers[i], clients[i]),
          })),
        );
        for (const [i, side] of httpSides.entries()) rows.push({ flow, concurrency, side, ...results[i] });
      }
    }
    const memory = [];
    for (const [i, side] of httpSides.entries()) {
      const after = await servers[i].stats();
      // With --server-flags=--expose-gc: the live heap after a full collection, to tell retention from garbage.
      const live = options.serverFlags.includes('--expose-gc') ? await servers[i].stats(true) : undefined;
      memory.push({ side, ...after, live });
    }
    printHttp(rows, memory);
  } finally {
    for (const server of servers) await server.stop();
  }
}

/** Opens a CPU window on the server child: `close()` resolves to `{ cpuMs, requests }` since it opened. */
async function httpWindow(server, client) {
  const before = await server.stats();
  const requests0 = client.requests;
  return {
    close: async () => {
      const after = await server.stats();
      const cpuUs = after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system;
      return { cpuMs: cpuUs / 1000, requests: client.requests - requests0 };
    },
  };
}

function printHttp(rows, memory) {
  const ratios = ratiosOf(rows);
  table(
    `Streamable HTTP, 127.0.0.1, server child process, JSON responses, raw JSON-RPC ${
      options.httpClient === 'fetch' ? 'fetch client' : 'HTTP/1.1 client over node:net'
    }; Boomerang mounted ${options.mount === 'node' ? 'with listen(server)' : `as ${options.mount} (createHttpHandler)`}`,
    [
      'flow',
      'c',
      'side',
      'flows/s',
      'req/s',
      'p50 ms',
      'p99 ms',
      'server CPU ms/req',
      'client CPU ms/req',
      'B/official',
      'CPU gain',
      'McpServer/Server CPU',
      'target',
    ],
    rows.map((r) => {
      const ratio = ratios.get(r);
      const cpuPerRequest = r.server.cpuMs / r.server.requests;
      const low =
        r.side.key === 'mcp'
          ? rows.find(
              (o) => o.side.key === 'boomerang' && o.flow === r.flow && o.concurrency === r.concurrency,
            )
          : undefined;
      const highOverLow =
        low === undefined ? undefined : cpuPerRequest / (low.server.cpuMs / low.server.requests);
      const target =
        ratio === undefined
          ? ''
          : `≥ ${TARGETS.http}× ${ratio.flows >= TARGETS.http ? 'met' : 'MISSED'}, ≤ ${TARGETS.httpCpuMs} ms ${
              cpuPerRequest <= TARGETS.httpCpuMs ? 'met' : 'MISSED'
            }`;
      return [
        r.flow,
        String(r.concurrency),
        r.side.name,
        fmt(r.flowsPerSec, 0),
        fmt(r.flowsPerSec * REQUESTS_PER_FLOW[r.flow], 0),
        fmt(r.p50, 2),
        fmt(r.p99, 2),
        fmt(cpuPerRequest, 3),
        fmt(r.cpuMsPerFlow / REQUESTS_PER_FLOW[r.flow], 3),
        ratio === undefined ? '' : `${ratio.flows.toFixed(2)}×`,
        ratio === undefined ? '' : `${ratio.cpu.toFixed(2)}×`,
        highOverLow === undefined
          ? ''
          : `${highOverLow.toFixed(2)}× ${highOverLow <= 1.25 ? 'met' : 'MISSED'}`,
        target,
      ];
    }),
  );
  for (const m of memory) {
    if (m.live !== undefined)
      console.log(
        `${m.side.name}: after a full GC, heap used ${fmt(m.live.heapUsed / 2 ** 20, 1)} MB, RSS ${fmt(m.live.rss / 2 ** 20, 1)} MB`,
      );
  }
  table(
    'HTTP server child memory after the run',
    ['side', 'RSS MB', 'max RSS MB', 'heap used MB', 'heap total MB', 'external MB', 'target'],
    memory.map((m) => [
      m.side.name,
      fmt(m.rss / 2 ** 20, 1),
      fmt(m.maxRss / 2 ** 20, 1),
      fmt(m.heapUsed / 2 ** 20, 1),
      fmt(m.heapTotal / 2 ** 20, 1),
      fmt(m.external / 2 ** 20, 1),
      m.side.key === 'boomerang' || m.side.key === 'mcp'
        ? `< ${TARGETS.rssMb} MB ${m.rss / 2 ** 20 < TARGETS.rssMb ? 'met' : 'MISSED'}`
        : '',
    ]),
  );
  console.log(
    'req/s = flows/s × HTTP requests per flow (1, 2, 4). server CPU ms/req: the child’s process.cpuUsage() over the ' +
      'measured slices ÷ the POSTs answered in them; client CPU ms/req: this process (the load generator, the same for ' +
      'both sides), which shares the machine’s cores with the server. CPU gain: official ÷ Boomerang server CPU/req. ' +
      'McpServer/Server CPU: server CPU/req of McpServer + resolvers ÷ that of the hand-written handlers (≤ 1.25×).',
  );
  printErrors(rows);
}

// ---------------------------------------------------------------------------------------------------- stdio

async function benchStdio() {
  const rows = [];
  for (const flow of options.flows) {
    for (const concurrency of options.concurrency) {
      const sessions = [];
      try {
        for (const side of sides) {
          const session = await side.stdio(nodeFlags);
          sessions.push(session);
        }
        const results = await runCell(
          flow,
          concurrency,
          sessions.map((session) => ({ call: session.call, window: () => procWindow(session.pid) })),
        );
        for (const [i, side] of sides.entries()) rows.push({ flow, concurrency, side, ...results[i] });
      } finally {
        for (const session of sessions) await session.close().catch(() => {});
      }
    }
  }
  const ratios = ratiosOf(rows);
  table(
    "stdio, server child process, each SDK's own Client + stdio client transport",
    [
      'flow',
      'c',
      'side',
      'flows/s',
      'p50 ms',
      'p99 ms',
      'server CPU ms/flow',
      'client CPU ms/flow',
      'B/official',
      'target',
    ],
    rows.map((r) => {
      const ratio = ratios.get(r);
      return [
        r.flow,
        String(r.concurrency),
        r.side.name,
        fmt(r.flowsPerSec, 0),
        fmt(r.p50, 2),
        fmt(r.p99, 2),
        r.server === undefined ? 'n/a' : fmt(r.server.cpuMs / r.flows, 3),
        fmt(r.cpuMsPerFlow, 3),
        ratio === undefined ? '' : `${ratio.flows.toFixed(2)}×`,
        ratio === undefined ? '' : `≥ ${TARGETS.stdio}× ${ratio.flows >= TARGETS.stdio ? 'met' : 'MISSED'}`,
      ];
    }),
  );
  console.log(
    'server CPU: utime + stime of the child from /proc/<pid>/stat (10 ms ticks) over the measured slices; ' +
      'client CPU: this process (client + transport), flow bench harness.',
  );
  printErrors(rows);
}

/** A CPU window on a child read from /proc (Linux); `undefined` elsewhere. */
async function procWindow(pid) {
  const ticks = () => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14, 15 of stat(5))
    } catch {
      return undefined;
    }
  };
  const before = ticks();
  if (before === undefined) return undefined;
  return {
    close: async () => {
      const after = ticks();
      return after === undefined ? undefined : { cpuMs: (after - before) * 10, requests: 0 };
    },
  };
}

// ---------------------------------------------------------------------------------------------------- cold start

async function benchCold() {
  const runs = { node: [] };
  for (const side of sides) runs[side.key] = [];
  await nodeFloor(track); // the first spawn of a run pays for page cache misses: discarded
  for (let i = 0; i < options.coldRuns; i++) {
    runs.node.push(await nodeFloor(track));
    const order = i % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) runs[side.key].push(await coldStart(side.key, track));
  }
  const floor = median(runs.node);
  const official = runs.official === undefined ? undefined : median(runs.official);
  table(
    `Cold start: spawn → first stdio tools/call answered (median of ${options.coldRuns}, interleaved)`,
    ['process', 'median ms', 'min ms', 'max ms', 'over node ms', 'official/B', 'target'],
    [['node -e 0', runs.node], ...sides.map((side) => [side.name, runs[side.key], side.key])].map(
      ([name, values, key]) => [
        name,
        fmt(median(values), 1),
        fmt(Math.min(...values), 1),
        fmt(Math.max(...values), 1),
        key === undefined ? '' : fmt(median(values) - floor, 1),
        key === 'boomerang' && official !== undefined ? `${(official / median(values)).toFixed(2)}×` : '',
        key === 'boomerang'
          ? `≤ ${TARGETS.coldMs} ms ${median(values) <= TARGETS.coldMs ? 'met' : 'MISSED'}`
          : '',
      ],
    ),
  );
}

// ---------------------------------------------------------------------------------------------------- shared

/**
 * One cell: every side's `call` checked once, then measured in alternating slices with the flow bench's harness;
 * `window()` (optional) brackets each measured slice to read the server child's CPU. One summary per side, with
 * `server: { cpuMs, requests }` summed over the slices when windows were read.
 */
async function runCell(flow, concurrency, targets) {
  const check = expected[flow];
  const slices = targets.map(() => []);
  const server = targets.map(() => ({ cpuMs: 0, requests: 0, ok: true }));
  const failed = targets.map(() => undefined);
  for (const [i, target] of targets.entries()) {
    const first = await target.call(flow, -1).catch((error) => error);
    if (first?.content?.[0]?.text !== check(-1))
      failed[i] = new Error(`bad first result: ${describe(first)}`);
  }
  for (let slice = 0; slice < options.slices; slice++) {
    const order = targets.map((_, i) => i);
    if (slice % 2 === 1) order.reverse();
    for (const i of order) {
      if (failed[i] !== undefined) continue;
      const warmupMs = slice === 0 ? options.warmupMs : SLICE_WARMUP_MS;
      let window;
      const opening = new Promise((resolve) => setTimeout(resolve, warmupMs)).then(async () => {
        window = await targets[i].window?.();
      });
      slices[i].push(
        await measure(
          async (worker, n0) => {
            const n = worker * 1_000_000 + n0;
            const result = await targets[i].call(flow, n);
            if (result?.content?.[0]?.text !== check(n)) throw new Error(`bad result ${describe(result)}`);
          },
          { concurrency, warmupMs, durationMs: options.durationMs / options.slices },
        ),
      );
      await opening;
      const used = await window?.close();
      if (used === undefined) server[i].ok = false;
      else {
        server[i].cpuMs += used.cpuMs;
        server[i].requests += used.requests;
      }
    }
  }
  return targets.map((_, i) =>
    failed[i] === undefined
      ? { ...summarize(slices[i]), ...(server[i].ok && { server: server[i] }) }
      : { flows: 0, flowsPerSec: Number.NaN, errors: 1, firstError: failed[i] },
  );
}

/** Boomerang rows → `{ flows: B/official flows/s, cpu: official/B server CPU per request }`. */
function ratiosOf(rows) {
  const ratios = new Map();
  for (const r of rows) {
    if (r.side.key !== 'boomerang' && r.side.key !== 'mcp') continue;
    const theirs = rows.find(
      (o) => o.side.key === 'official' && o.flow === r.flow && o.concurrency === r.concurrency,
    );
    if (theirs === undefined) continue;
    const perRequest = (x) =>
      x.server === undefined ? Number.NaN : x.server.cpuMs / (x.server.requests || x.flows);
    ratios.set(r, { flows: r.flowsPerSec / theirs.flowsPerSec, cpu: perRequest(theirs) / perRequest(r) });
  }
  return ratios;
}

async function stopChildren() {
  for (const child of children) {
    if (child.connected) child.send({ type: 'exit' });
    else child.stdin?.end();
  }
  const deadline = Date.now() + 3000;
  while (children.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const child of children) child.kill('SIGKILL');
}

function table(title, header, body) {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const left = (i) =>
    i < 3 && (header[i] === 'flow' || header[i] === 'c' || header[i] === 'side' || header[i] === 'process');
  const line = (cols) =>
    `| ${cols.map((c, i) => (left(i) ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(`\n${title}\n\n${line(header)}`);
  console.log(
    `|${widths.map((w, i) => (left(i) ? `${'-'.repeat(w + 2)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
  );
  for (const row of body) console.log(line(row));
}

function printErrors(rows) {
  for (const r of rows) {
    if (r.errors > 0)
      console.log(
        `  ${r.side.name} ${r.flow} c=${r.concurrency}: ${r.errors} error(s), first: ${describe(r.firstError)}`,
      );
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function fmt(value, digits) {
  if (value === undefined || Number.isNaN(value)) return 'n/a';
  return digits === 0 ? Math.round(value).toLocaleString('en-US') : value.toFixed(digits);
}

function describe(value) {
  return value instanceof Error ? String(value.stack ?? value).split('\n')[0] : JSON.stringify(value);
}

function loadAverage() {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
}

function parseOptions() {
  const args = new Map(
    process.argv
      .slice(2)
      .filter((a) => a.startsWith('--'))
      .map((a) => {
        const at = a.indexOf('='); // split at the first '=' only: --server-flags=--max-semi-space-size=2
        return at < 0 ? [a.slice(2), ''] : [a.slice(2, at), a.slice(at + 1)];
      }),
  );
  const num = (flag, fallback) => Number(args.get(flag) ?? fallback);
  const list = (flag, fallback) => (args.get(flag) ?? fallback).split(',').filter(Boolean);
  return {
    durationMs: num('duration', 4000),
    warmupMs: num('warmup', 1000),
    slices: Math.max(1, num('slices', 2)),
    flows: list('flows', 'plain,confirm,wizard'),
    concurrency: list('concurrency', '32').map(Number),
    parts: list('parts', 'http,stdio,cold'),
    coldRuns: Math.max(1, num('cold-runs', 10)),
    side: args.get('side') ?? 'both',
    cpuProf: args.get('cpu-prof') || undefined,
    serverFlags: list('server-flags', ''),
    httpClient: args.get('http-client') === 'fetch' ? 'fetch' : 'net',
    mount: args.get('mount') || 'node',
    floor: args.has('floor'),
    mcp: !args.has('no-mcp'),
  };
}
