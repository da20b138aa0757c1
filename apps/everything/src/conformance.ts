// `node dist/conformance.js [options]`: runs the official MCP conformance suite (the pinned devDependency) at
// 2026-07-28 against dist/server.js and dist/client.js. One line per scenario, then `N passed, M failed`.
// Exit status 0 when nothing failed beyond conformance/expected-failures.yml; 1 otherwise; 2 on usage errors.
// From the repository root, `pnpm conformance` builds what it needs first.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { liveGroups, stopGroup } from './conformance/processes.js';
import { runConformance } from './conformance/run.js';
import { SPEC_VERSION, suitePaths } from './conformance/suite.js';
import type { Verdict } from './conformance/verdicts.js';

const USAGE = `usage: node dist/conformance.js [--server-only | --client-only] [--scenario NAME]... [--timeout MS] [--out DIR]`;

function line(verdict: Verdict): string {
  return `${verdict.status.padEnd(5)} ${verdict.leg.padEnd(6)} ${verdict.scenario.padEnd(46)} ${verdict.detail}`;
}

async function main(): Promise<number> {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse().values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const timeoutMs = Number(values.timeout ?? 30_000);
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) {
    console.error(`--timeout expected milliseconds, got ${values.timeout}\n${USAGE}`);
    return 2;
  }
  const paths = suitePaths();
  const out = values.out ?? mkdtempSync(join(tmpdir(), 'boomerang-conformance-'));
  const legs = values['server-only']
    ? (['server'] as const)
    : values['client-only']
      ? (['client'] as const)
      : undefined;
  console.log(
    `conformance ${paths.version} on node ${process.version}, spec ${SPEC_VERSION}; results in ${out}`,
  );
  const started = Date.now();
  const { verdicts, problems } = await runConformance({
    paths,
    out,
    timeoutMs,
    ...(legs === undefined ? {} : { legs }),
    ...(values.scenario === undefined ? {} : { only: values.scenario }),
    report: (verdict) => console.log(line(verdict)),
    note: (text) => console.log(`-- ${text}`),
  });
  for (const problem of problems) console.log(`ERROR ${problem}`);
  const failed = verdicts.filter((verdict) => verdict.status === 'FAIL' || verdict.status === 'STALE').length;
  const xfail = verdicts.filter((verdict) => verdict.status === 'XFAIL').length;
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`${xfail > 0 ? `(${xfail} expected failure(s) counted as passed) ` : ''}in ${seconds} s`);
  console.log(`${verdicts.length - failed} passed, ${failed} failed`);
  return failed > 0 || problems.length > 0 || verdicts.length === 0 ? 1 : 0;
}

function parse() {
  return parseArgs({
    options: {
      'server-only': { type: 'boolean' },
      'client-only': { type: 'boolean' },
      scenario: { type: 'string', multiple: true },
      timeout: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
}

const interrupted = async () => {
  await Promise.all([...liveGroups].map((pid) => stopGroup(pid, 1_000)));
  process.exit(130);
};
process.once('SIGINT', interrupted);
process.once('SIGTERM', interrupted);
process.exitCode = await main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 2;
});
