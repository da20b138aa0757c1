// The process valgrind counts for instructions.bench.mjs (and cpu-per-flow.bench.mjs times): connects the flow benchmark's Boomerang client and
// server (from the checkout at `root`, so that two builds of the repository can be compared: the hand-written
// low-level Server, or with `mcp` McpServer + resolvers), runs `warm` flows at concurrency 32 to get past the
// JIT's tiers, then `n` flows more, and exits.
//   node count-flows.mjs <root> <plain|confirm|wizard> <warm> <n> [boomerang|mcp|mcp-otel]
// (`mcp-otel`: McpServer + resolvers with serverTelemetry() and clientTelemetry() recording through an SDK.)
import { pathToFileURL } from 'node:url';
import { runFlows } from '../flows/workload.mjs';

const [root, flow, warm, n, side = 'boomerang'] = process.argv.slice(2);
if (side !== 'boomerang' && side !== 'mcp' && side !== 'mcp-otel')
  throw new TypeError(`side expected boomerang, mcp or mcp-otel, got ${side}`);
const flows = (name) => import(pathToFileURL(`${root}/apps/bench/src/flows/${name}`).href);
const session =
  side === 'mcp'
    ? await (await flows('boomerang-mcp.mjs')).setupMcpServer()
    : side === 'mcp-otel'
      ? await (await flows('boomerang-mcp-otel.mjs')).setupTracedMcpServer()
      : await (await flows('boomerang.mjs')).setupBoomerang();

await runFlows(session.call, flow, Number(warm));
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await runFlows(session.call, flow, Number(n), Number(warm));
const cpu = process.cpuUsage(cpu0);
const ms = performance.now() - t0;
await session.close();
// For cpu-per-flow.bench.mjs (valgrind's runs ignore it): CPU µs per counted flow, and the wall time.
if (Number(n) > 0) {
  process.stdout.write(`${JSON.stringify({ cpuUsPerFlow: (cpu.user + cpu.system) / Number(n), ms })}\n`);
}
