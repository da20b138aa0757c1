// The process valgrind counts for instructions.bench.mjs (and cpu-per-flow.bench.mjs times): connects the flow benchmark's Boomerang client and
// low-level server (from the checkout at `root`, so that two builds of the repository can be compared), runs
// `warm` flows at concurrency 32 to get past the JIT's tiers, then `n` flows more, and exits.
//   node count-flows.mjs <root> <plain|confirm|wizard> <warm> <n>
import { pathToFileURL } from 'node:url';

const [root, flow, warm, n] = process.argv.slice(2);
const { setupBoomerang } = await import(pathToFileURL(`${root}/apps/bench/src/flows/boomerang.mjs`).href);
const { expected } = await import(pathToFileURL(`${root}/apps/bench/src/flows/workload.mjs`).href);
const session = await setupBoomerang();

/** Runs `count` flows on 32 workers, checking every result. */
async function run(count, offset) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = offset + next++;
      const result = await session.call(flow, i);
      if (result.content?.[0]?.text !== expected[flow](i))
        throw new Error(`bad result ${JSON.stringify(result)}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}

await run(Number(warm), 0);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await run(Number(n), Number(warm));
const cpu = process.cpuUsage(cpu0);
const ms = performance.now() - t0;
await session.close();
// For cpu-per-flow.bench.mjs (valgrind's runs ignore it): CPU µs per counted flow, and the wall time.
if (Number(n) > 0) {
  process.stdout.write(`${JSON.stringify({ cpuUsPerFlow: (cpu.user + cpu.system) / Number(n), ms })}\n`);
}
