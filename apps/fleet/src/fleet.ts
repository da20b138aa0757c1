#!/usr/bin/env node
// pnpm fleet: PostgreSQL + Redis + nginx + three bookshop instances on 127.0.0.1 under load, through key rotation,
// kill -9, a tool added, a task across instances, 2025-11-25 sessions and a direct comparison; about five minutes
// (`--short`: about a minute, what CI runs). Ends with the figure line; exit 1 when the run missed the bar.
//   node apps/fleet/dist/fleet.js [--short] [--instances 3] [--concurrency N] [--bus redis|postgres] [--no-traces]
//   [--trace-html FILE] (every process traced to a receiver the run starts; traces-complete=K/N in the figure line)
import { parseArgs } from 'node:util';
import { runFleet, stopEverything } from './fleet-runner.js';

const USAGE =
  'Usage: node apps/fleet/dist/fleet.js [--short] [--instances <n ≥ 3>] [--concurrency <n>] [--bus redis|postgres] [--no-traces] [--trace-html <file>]';

function parse(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      short: { type: 'boolean', default: false },
      instances: { type: 'string', default: '3' },
      concurrency: { type: 'string' },
      bus: { type: 'string', default: 'redis' },
      'no-traces': { type: 'boolean', default: false },
      'trace-html': { type: 'string' },
    },
  });
  const instances = Number(values.instances);
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  if (!Number.isInteger(instances) || instances < 3 || instances > 9) throw new Error('--instances: 3 to 9');
  if (
    concurrency !== undefined &&
    !(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 256)
  ) {
    throw new Error('--concurrency: 1 to 256');
  }
  if (values.bus !== 'redis' && values.bus !== 'postgres') throw new Error('--bus: redis or postgres');
  return {
    short: values.short,
    instances,
    concurrency,
    bus: values.bus as 'redis' | 'postgres',
    traces: !values['no-traces'],
    traceHtml: values['trace-html'],
  };
}

let options: ReturnType<typeof parse>;
try {
  options = parse(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`${signal}: stopping the fleet\n`);
    void stopEverything().finally(() => process.exit(130));
  });
}
const report = await runFleet(options, (line) => process.stdout.write(`${line}\n`));
process.exitCode = report.ok ? 0 : 1;
