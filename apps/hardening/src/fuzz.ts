#!/usr/bin/env node
// pnpm fuzz: every fuzz target at 10⁶ cases (or --cases N), printing cases/s; exit 1 when a property fails.
//   node apps/hardening/dist/fuzz.js [--cases 1e6] [--only "seal codec"] [--seed N]
import { parseFlags, positiveNumber } from './cli-args.js';
import { runTarget, TARGETS } from './fuzz/index.js';

const USAGE = 'Usage: node apps/hardening/dist/fuzz.js [--cases 1000000] [--only <target name>] [--seed <n>]';

async function main(argv: readonly string[]): Promise<number> {
  let flags: Map<string, string>;
  let cases: number;
  try {
    flags = parseFlags(argv, ['cases', 'only', 'seed']);
    cases = Math.round(positiveNumber(flags, 'cases', Number(process.env.FUZZ_CASES ?? 1_000_000)));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const only = flags.get('only');
  const seed = flags.has('seed') ? Number(flags.get('seed')) : undefined;
  const targets = TARGETS.filter((target) => only === undefined || target.name === only);
  if (targets.length === 0) {
    process.stderr.write(
      `no target named ${JSON.stringify(only)}: ${TARGETS.map((t) => t.name).join(', ')}\n`,
    );
    return 2;
  }
  process.stdout.write(`fuzzing ${targets.length} target(s) at ${cases.toLocaleString('en')} cases each\n`);
  let failed = 0;
  for (const target of targets) {
    process.stdout.write(`- ${target.name}: ${target.claim}\n`);
    const report = await runTarget(target, { cases, seed });
    const rate = Math.round(report.casesPerSecond).toLocaleString('en');
    const verdict = report.failure === undefined ? 'ok' : 'FAILED';
    process.stdout.write(
      `  ${verdict}: ${report.cases.toLocaleString('en')} cases in ${report.seconds.toFixed(1)} s (${rate} cases/s)\n`,
    );
    if (report.failure !== undefined) {
      failed++;
      process.stdout.write(`${report.failure.replace(/^/gm, '    ')}\n`);
    }
  }
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
