// CPU per flow of two builds of the repository, in one run: the flow benchmark's in-memory low-level Server + Client
// (apps/bench/src/flows/boomerang.mjs) of each checkout, each run in a fresh process (`--warm` flows, then
// `--flows` counted, c=32; the process's own CPU time over the counted flows), the builds alternating run after run
// (A B, B A, …) so that other load on the machine falls on both alike. Prints the median CPU µs per flow of each
// build and their ratio. instructions.bench.mjs counts instructions instead (steadier, but slow under valgrind).
//
//   node apps/bench/src/cpu-per-flow.bench.mjs --root=<before> --root=<after> [--flow=plain,confirm,wizard]
//     [--warm=20000] [--flows=100000] [--runs=5]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

/** CPU µs per flow of one fresh process of `root`. */
function once(root, flow) {
  const out = execFileSync(process.execPath, [counter, root, flow, String(warm), String(counted)], {
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1)).cpuUsPerFlow;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `CPU µs per flow (in-memory low-level Server + Client, c=32; ${warm} warm-up + ${counted} counted flows per ` +
    `process, ${runs} processes per build, alternating) — node ${process.version}`,
);
console.log(`A = ${roots[0]}\nB = ${roots[1]}`);
for (const flow of flows) {
  const samples = [[], []];
  for (let r = 0; r < runs; r++) {
    const order = r % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) samples[i].push(once(roots[i], flow));
  }
  const [a, b] = samples.map(median);
  console.log(
    `${flow.padEnd(8)} A ${a.toFixed(1)} µs  B ${b.toFixed(1)} µs  B/A ${(b / a).toFixed(3)}   ` +
      `(A: ${samples[0].map((x) => x.toFixed(1)).join(', ')}; B: ${samples[1].map((x) => x.toFixed(1)).join(', ')})`,
  );
}
