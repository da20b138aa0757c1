#!/usr/bin/env node
// pnpm soak: 32 concurrent multi-round-trip flows over Streamable HTTP for 10 minutes, a subscriptions/listen
// stream open throughout and every 10th call aborted, one line a minute; exit 1 when a flow failed.
//   node apps/hardening/dist/soak.js [--minutes 10 | --seconds N | --quick] [--flows 32] [--report-every <s>]
import { parseFlags, positiveNumber } from './cli-args.js';
import { runSoak } from './soak-main.js';

const USAGE =
  'Usage: node apps/hardening/dist/soak.js [--minutes 10 | --seconds <n> | --quick 1] [--flows 32] [--report-every <seconds>]';

async function main(argv: readonly string[]): Promise<number> {
  let options: { flows: number; durationMs: number; reportEveryMs: number };
  try {
    const flags = parseFlags(argv, ['minutes', 'seconds', 'quick', 'flows', 'report-every']);
    const quick = flags.has('quick');
    const seconds = flags.has('seconds')
      ? positiveNumber(flags, 'seconds', 0)
      : positiveNumber(flags, 'minutes', quick ? 1 / 3 : 10) * 60;
    options = {
      flows: Math.round(positiveNumber(flags, 'flows', 32)),
      durationMs: seconds * 1000,
      reportEveryMs: positiveNumber(flags, 'report-every', quick ? 5 : 60) * 1000,
    };
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const write = (line: string) => process.stdout.write(`${line}\n`);
  write(
    `soak: ${options.flows} flows for ${options.durationMs / 1000} s over Streamable HTTP (two rounds each: ` +
      'elicitation, then sampling), a subscriptions/listen stream, every 10th call aborted',
  );
  const summary = await runSoak(options, write);
  const growth = summary.rssMiB.warm === 0 ? 0 : (summary.rssMiB.last / summary.rssMiB.warm - 1) * 100;
  write(
    `total: ${summary.completed.toLocaleString('en')} completed, ${summary.failed} failed, ` +
      `${summary.aborted.toLocaleString('en')} aborted, p99 ${summary.p99Ms.toFixed(1)} ms, ` +
      `${summary.notifications.toLocaleString('en')} notifications (${summary.listenRestarts} listen restarts); ` +
      `rss ${summary.rssMiB.warm.toFixed(1)} → ${summary.rssMiB.last.toFixed(1)} MiB after warm-up (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} %)`,
  );
  for (const failure of summary.failures) write(`  failure: ${failure}`);
  return summary.failed === 0 ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
