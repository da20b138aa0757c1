// Prints the top self-time functions of a `node --cpu-prof` profile:
//   node apps/bench/src/transports/cpuprofile-top.mjs FILE.cpuprofile [--top=25] [--by=function|file]
import { readFileSync } from 'node:fs';
import process from 'node:process';

const file = process.argv[2];
const top = Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 25);
const by = process.argv.find((a) => a.startsWith('--by='))?.slice(5) ?? 'function';
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const groups = new Map();
for (const [id, us] of self) {
  const { functionName, url, lineNumber } = nodes.get(id).callFrame;
  const where = url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')
    .replace(/^\/work\/main\//, '');
  const key =
    by === 'file'
      ? where || '(native)'
      : `${functionName || '(anonymous)'}  ${where}${where ? `:${lineNumber + 1}` : ''}`;
  groups.set(key, (groups.get(key) ?? 0) + us);
}
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
for (const [key, us] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(
    `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`,
  );
}
