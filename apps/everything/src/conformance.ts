// `node dist/conformance.js [options]`: runs the official MCP conformance suite (the pinned devDependency) at
// 2026-07-28 and at 2025-11-25 against dist/server.js and dist/client.js (`--spec-version V` picks one). One line
// per scenario, a count per revision, then `N passed, M failed`. Exit status 0 when nothing failed beyond
// conformance/expected-failures*.yml; 1 otherwise; 2 on usage errors.
// From the repository root, `pnpm conformance` builds what it needs first.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { liveGroups, stopGroup } from './conformance/processes.js';
import { runConformance } from './conformance/run.js';
import { SPEC_VERSIONS, type SpecVersion, suitePaths } from './conformance/suite.js';
import type { Verdict } from './conformance/verdicts.js';

const USAGE = `usage: node dist/conformance.js [--spec-version ${SPEC_VERSIONS.join('|')}]... [--server-only | --client-only] [--scenario NAME]... [--timeout MS] [--out DIR]`;

function line(version: SpecVersion, verdict: Verdict): string {
  const { status, leg, scenario, detail } = verdict;
  return `${status.padEnd(5)} ${version} ${leg.padEnd(6)} ${scenario.padEnd(46)} ${detail}`;
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
  const versions = values['spec-version'] ?? [...SPEC_VERSIONS];
  const unknown = versions.find((v) => !(SPEC_VERSIONS as readonly string[]).includes(v));
  if (unknown !== undefined) {
    console.error(`--spec-version expected ${SPEC_VERSIONS.join(' or ')}, got ${unknown}\n${USAGE}`);
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
    `conformance ${paths.version} on node ${process.version}, spec ${versions.join(' + ')}; results in ${out}`,
  );
  const started = Date.now();
  const counts: string[] = [];
  let failed = 0;
  let passed = 0;
  let xfail = 0;
  let broken = false;
  for (const version of versions as SpecVersion[]) {
    const { verdicts, problems } = await runConformance({
      paths,
      version,
      out: join(out, version),
      timeoutMs,
      ...(legs === undefined ? {} : { legs }),
      ...(values.scenario === undefined ? {} : { only: values.scenario }),
      report: (verdict) => console.log(line(version, verdict)),
      note: (text) => console.log(`-- ${version}: ${text}`),
    });
    for (const problem of problems) console.log(`ERROR ${version}: ${problem}`);
    const bad = verdicts.filter((v) => v.status === 'FAIL' || v.status === 'STALE');
    xfail += verdicts.filter((verdict) => verdict.status === 'XFAIL').length;
    failed += bad.length;
    passed += verdicts.length - bad.length;
    broken ||= problems.length > 0 || verdicts.length === 0;
    for (const leg of legs ?? (['server', 'client'] as const)) {
      const mine = verdicts.filter((verdict) => verdict.leg === leg);
      const ok = mine.filter((v) => v.status !== 'FAIL' && v.status !== 'STALE').length;
      counts.push(`${version} ${leg} ${ok}/${mine.length}`);
    }
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`${xfail > 0 ? `(${xfail} expected failure(s) counted as passed) ` : ''}in ${seconds} s`);
  console.log(counts.join(', '));
  console.log(`${passed} passed, ${failed} failed`);
  return failed > 0 || broken ? 1 : 0;
}

function parse() {
  return parseArgs({
    options: {
      'spec-version': { type: 'string', multiple: true },
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
