// Cold start, as the performance issue's table has it: spawn → the first line answered, median of `--runs` (10),
// every row measured in one run, interleaved (run i starts each process once, the order rotating). Rows:
//   node alone (one line echoed)                 — `node cold-child.mjs echo`
//   a Boomerang server with one zod tool         — stdio McpServer, first `tools/call` answered
//   the official SDK's server                    — the transport bench's official stdio server (three zod tools)
//   import '@boomerang/mcp-server' alone         — imports it, then echoes a line
//   import 'zod/v4' alone                        — the same for zod
//   import '@boomerang/client' alone             — the same for the client
// Targets (issue: performance where users mount it): `import '@boomerang/mcp-server'` ≤ node + 25 ms (zod is loaded
// only by the user's own zod schemas), and the zod tool's first answer ≤ `import 'zod/v4'` + 30 ms. The CPU ms
// column is the median CPU time (user + system) each process reported as it exited: on a loaded machine the wall
// times stretch with the load, the CPU times far less.
//
// Run after `pnpm build`:  node apps/bench/src/cold-start.bench.mjs [--runs=10] [--no-official]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { REQUEST } from './transports/cold-start.mjs';
import { STDIO_SERVER } from './transports/stdio-clients.mjs';

const CHILD = fileURLToPath(new URL('./transports/cold-child.mjs', import.meta.url));
const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 10);
const CALL = REQUEST;
const ECHO = 'ready\n';
const answered = (line) => JSON.parse(line).result?.content?.[0]?.text === 'plain 1';

const rows = [
  { key: 'node', label: 'node alone (one line echoed)', argv: [CHILD, 'echo'], input: ECHO },
  {
    key: 'zod-tool',
    label: 'a Boomerang server with one zod tool',
    argv: [CHILD, 'zod-tool'],
    input: CALL,
    check: answered,
  },
  {
    key: 'official',
    label: "the official SDK's server",
    argv: [STDIO_SERVER, 'official'],
    input: CALL,
    check: answered,
  },
  {
    key: 'mcp-server',
    label: "`import '@boomerang/mcp-server'` alone",
    argv: [CHILD, 'import:@boomerang/mcp-server'],
    input: ECHO,
  },
  { key: 'zod', label: "`import 'zod/v4'` alone", argv: [CHILD, 'import:zod/v4'], input: ECHO },
  {
    key: 'client',
    label: "`import '@boomerang/client'` alone",
    argv: [CHILD, 'import:@boomerang/client'],
    input: ECHO,
  },
].filter((row) => row.key !== 'official' || !process.argv.includes('--no-official'));

/** CPU ms each process of a row used (from cold-child.mjs's exit line; none for the official server). */
const cpuOf = new Map(rows.map((row) => [row.key, []]));
for (const row of rows) await firstLine(row); // page cache and compile cache warmed, not counted
const times = new Map(rows.map((row) => [row.key, []]));
cpuOf.clear(); // the warm-up round's CPU figures are not counted either
for (const row of rows) cpuOf.set(row.key, []);
for (let i = 0; i < runs; i++) {
  for (let k = 0; k < rows.length; k++) {
    const row = rows[(i + k) % rows.length];
    times.get(row.key).push(await firstLine(row));
  }
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const med = (key) => median(times.get(key));
const targets = {
  'mcp-server': () => {
    const limit = med('node') + 25;
    return `≤ node + 25 ms = ${limit.toFixed(1)}: ${med('mcp-server') <= limit ? 'met' : 'MISSED'}`;
  },
  'zod-tool': () => {
    const limit = med('zod') + 30;
    return `≤ zod + 30 ms = ${limit.toFixed(1)}: ${med('zod-tool') <= limit ? 'met' : 'MISSED'}`;
  },
};
console.log(
  `\nCold start: spawn → first line answered, median of ${runs} (one run, interleaved) — node ${process.version}, load ${loadAverage()}\n`,
);
const body = rows.map((row) => [
  row.label,
  med(row.key).toFixed(1),
  Math.min(...times.get(row.key)).toFixed(1),
  Math.max(...times.get(row.key)).toFixed(1),
  row.key === 'node' ? '' : (med(row.key) - med('node')).toFixed(1),
  cpuOf.get(row.key).length === 0 ? 'n/a' : median(cpuOf.get(row.key)).toFixed(1),
  targets[row.key]?.() ?? '',
]);
const header = ['what was started', 'median ms', 'min ms', 'max ms', 'over node ms', 'CPU ms', 'target'];
const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
const line = (cols) =>
  `| ${cols.map((c, i) => (i === 0 || i === 6 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
console.log(line(header));
console.log(
  `|${widths.map((w, i) => (i === 0 || i === 6 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
);
for (const r of body) console.log(line(r));

/** Milliseconds from spawn to the first stdout line `row.check` accepts (any line without a check). */
function firstLine(row) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, row.argv, { stdio: ['pipe', 'pipe', 'pipe'] });
    let errors = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      errors += chunk;
    });
    let buffer = '';
    let elapsed;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      if (elapsed !== undefined) return;
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end === -1) return;
      elapsed = performance.now() - started;
      const first = buffer.slice(0, end);
      if (row.check !== undefined && !row.check(first)) {
        elapsed = Number.NaN;
        reject(new Error(`${row.key}: unexpected first line ${first.slice(0, 200)}`));
      }
      child.stdin.end();
      setTimeout(() => child.kill('SIGKILL'), 2000).unref();
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (elapsed === undefined) reject(new Error(`${row.key} exited (${code ?? signal}) before answering`));
      else if (!Number.isNaN(elapsed)) {
        const cpu = /^cold-child cpu (\d+)$/m.exec(errors);
        if (cpu !== null) cpuOf.get(row.key)?.push(Number(cpu[1]) / 1000);
        else if (errors !== '') process.stderr.write(errors);
        resolve(elapsed);
      }
    });
    child.stdin.write(row.input);
  });
}

function loadAverage() {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
}
