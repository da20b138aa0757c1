// The web-standard handler where users mount it: `createHttpHandler(server)` served by Bun's and Deno's own
// servers (`Bun.serve`, `Deno.serve`; binaries from the `bun` and `deno` npm packages) and on Node by
// @hono/node-server, against `listen(server)` on Node, in one run. Prints the server's CPU per HTTP request
// (utime + stime of the server process from /proc/<pid>/stat, every thread of it: Linux only) for each flow of the
// workload (plain, confirm = 1 question, wizard = 3 questions), and its ratio to `listen(server)` measured in the
// same run. `--floor` adds, on each runtime, a hand-written fetch handler of the same workload
// (transports/fetch-server.mjs `floor`: no checks, no validation, no sealing): what the runtime alone costs.
//
// Each of `--runs` runs starts fresh server processes, then for each one in turn (the order alternating run after
// run) warms it with `--warm` flows and counts `--flows` flows, c=32, driven by the raw keep-alive HTTP/1.1
// client of the HTTP bench (transports/raw-net-http.mjs, the same for every server). Rows are medians over runs.
//
// Run after `pnpm build`:
//   node apps/bench/src/web-runtimes.bench.mjs [--flow=plain,confirm,wizard] [--warm=3000] [--flows=10000]
//     [--runs=3] [--side=mcp|boomerang] [--runtimes=node-listen,node-hono,bun,deno] [--floor]
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFlows } from './flows/workload.mjs';
import { startHttpServer } from './transports/http-child.mjs';
import { rawNetClient } from './transports/raw-net-http.mjs';

const appDir = fileURLToPath(new URL('..', import.meta.url));
const FETCH_SERVER = fileURLToPath(new URL('./transports/fetch-server.mjs', import.meta.url));
const REQUESTS_PER_FLOW = { plain: 1, confirm: 2, wizard: 4 };
const TICK_US = 10_000; // USER_HZ = 100 on Linux

const args = process.argv.slice(2);
const value = (key, fallback) =>
  args.find((a) => a.startsWith(`--${key}=`))?.slice(key.length + 3) ?? fallback;
const flows = value('flow', 'plain,confirm,wizard').split(',');
const warm = Number(value('warm', 3000));
const counted = Number(value('flows', 10_000));
const runs = Number(value('runs', 3));
const side = value('side', 'mcp');
const wanted = value('runtimes', 'node-listen,node-hono,bun,deno').split(',');
const floor = args.includes('--floor');

/** Every fetch-server child still running, killed if this process exits first (one `exit` hook for all). */
const running = new Set();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** How each runtime serves a side: resolves to `{ url, pid, stop() }`. */
const RUNTIMES = {
  'node-listen': { label: 'node listen(server)', start: (s) => startListen(s) },
  'node-hono': {
    label: 'node @hono/node-server',
    start: (s) => startFetch(process.execPath, [FETCH_SERVER, s]),
  },
  bun: {
    label: 'bun Bun.serve',
    binary: join(appDir, 'node_modules/bun/bin/bun.exe'),
    start: (s) => startFetch(RUNTIMES.bun.binary, [FETCH_SERVER, s]),
  },
  deno: {
    label: 'deno Deno.serve',
    binary: join(appDir, 'node_modules/deno/deno'),
    start: (s) =>
      startFetch(RUNTIMES.deno.binary, [
        'run',
        '--allow-net=127.0.0.1',
        '--allow-read',
        '--allow-env',
        '--no-lock',
        FETCH_SERVER,
        s,
      ]),
  },
};

const servers = [];
for (const name of wanted) {
  const runtime = RUNTIMES[name];
  if (runtime === undefined) throw new TypeError(`--runtimes: unknown ${name}`);
  if (runtime.binary !== undefined && !existsSync(runtime.binary)) {
    console.log(
      `${name}: skipped, ${runtime.binary} is missing (pnpm install runs its package's postinstall)`,
    );
    continue;
  }
  servers.push({ key: name, label: runtime.label, side, start: () => runtime.start(side) });
  if (floor && name !== 'node-listen') {
    servers.push({
      key: `${name}-floor`,
      label: `${runtime.label}, floor`,
      side: 'floor',
      start: () => runtime.start('floor'),
    });
  }
}

console.log(
  `Server CPU µs per HTTP request, ${side} side (c=32, raw keep-alive client; ${runs} runs of fresh processes, each ` +
    `${warm} warm-up + ${counted} counted flows per server, order alternating) — ${process.platform}, load ${loadAverage()}`,
);
const samples = new Map(); // `${flow} ${key}` → [µs per request, …]
for (let run = 0; run < runs; run++) {
  const started = [];
  try {
    for (const server of servers) started.push({ ...server, ...(await server.start()) });
    for (const flow of flows) {
      const order = run % 2 === 0 ? started : [...started].reverse();
      for (const server of order) {
        const client = rawNetClient(server.url);
        try {
          await runFlows(client.call, flow, warm);
          const before = cpuTicks(server.pid);
          const requests0 = client.requests;
          await runFlows(client.call, flow, counted, warm);
          const us = ((cpuTicks(server.pid) - before) * TICK_US) / (client.requests - requests0);
          const key = `${flow} ${server.key}`;
          samples.set(key, [...(samples.get(key) ?? []), us]);
        } finally {
          client.close();
        }
      }
    }
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (const flow of flows) {
  const reference = samples.get(`${flow} node-listen`);
  for (const server of servers) {
    const own = samples.get(`${flow} ${server.key}`);
    // Ratio per run (the servers of one run measured back to back), then the median of those.
    const ratio = reference === undefined ? undefined : median(own.map((x, i) => x / reference[i]));
    rows.push([
      flow,
      server.label,
      median(own).toFixed(1),
      ratio === undefined ? '' : `${ratio.toFixed(2)}×`,
      own.map((x) => x.toFixed(1)).join(', '),
    ]);
  }
}
table(['flow', 'server', 'CPU µs/request', 'vs listen(server)', 'runs'], rows);
console.log(`requests per flow: ${JSON.stringify(REQUESTS_PER_FLOW)}; ratio: the median of per-run ratios.`);

/** utime + stime of `pid` (all its threads), in clock ticks. */
function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** `listen(server)` in the HTTP bench's own server child (transports/http-server.mjs). */
async function startListen(name) {
  const server = await startHttpServer(name, { env: { ...process.env, BENCH_MOUNT: 'node' } });
  return { url: server.url, pid: server.pid, stop: server.stop };
}

/** A fetch-server.mjs child on `binary`; resolves once it printed its URL. */
function startFetch(binary, argv) {
  const child = spawn(binary, argv, {
    cwd: appDir,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code, signal) => reject(new Error(`${binary} exited (${code ?? signal}): ${out}`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /^URL (\S+)/m.exec(out)?.[1];
      if (url !== undefined) resolve({ url, pid: child.pid, stop });
    });
  });
}

function table(header, body) {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cols) =>
    `| ${cols.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(`\n${line(header)}`);
  console.log(`|${widths.map((w, i) => (i < 2 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const row of body) console.log(line(row));
}

function loadAverage() {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
}
