// Turning the CLI's checks.json files into one verdict per scenario, against the expected failures.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One row of a scenario's checks.json. */
export interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO' | string;
  readonly errorMessage?: string;
}

export type Leg = 'server' | 'client';

/**
 * The checked-in expected failures, per leg: `<scenario>` (the whole scenario may fail) or
 * `<scenario>:<check-id>` (only that check may fail), each with its reason.
 */
export type ExpectedFailures = Record<Leg, ReadonlyMap<string, string>>;

/**
 * Parses the expected-failures file: YAML the suite's own `--expected-failures` also reads, restricted to
 *
 * ```yaml
 * server:
 *   - <scenario>[:<check-id>]  # reason
 * client: []
 * ```
 *
 * Every entry must carry a reason (a `#` comment on its line). Throws `SyntaxError` naming the line otherwise.
 */
export function parseExpectedFailures(text: string): ExpectedFailures {
  const result: Record<Leg, Map<string, string>> = { server: new Map(), client: new Map() };
  let leg: Leg | undefined;
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trimEnd();
    const where = `expected failures, line ${index + 1}`;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const header = /^(server|client):\s*(\[\])?\s*(#.*)?$/.exec(line);
    if (header !== null) {
      leg = header[1] as Leg;
      continue;
    }
    const entry = /^\s+-\s+([^\s#:]+(?::[^\s#]+)?)\s*(?:#\s*(.*))?$/.exec(line);
    if (entry === null || leg === undefined)
      throw new SyntaxError(
        `${where}: expected "server:", "client:" or "  - <scenario>[:<check>]  # reason"`,
      );
    const [, name, reason] = entry as unknown as [string, string, string | undefined];
    if (reason === undefined || reason.trim() === '')
      throw new SyntaxError(`${where}: "${name}" needs a reason (# …)`);
    result[leg].set(name, reason.trim());
  }
  return result;
}

/** What the CLI left for one scenario. */
export interface ScenarioOutcome {
  /** Its checks; `undefined` when the CLI wrote none (it crashed or timed out before). */
  readonly checks: readonly Check[] | undefined;
  /** Client leg only: the exit code of `conformance client --scenario`, `null` when stopped. */
  readonly exitCode?: number | null;
  /** Client leg only: the runner stopped the scenario after its time limit. */
  readonly timedOut?: boolean;
  /** The scenario fails unless at least one of its checks ran (was neither SKIPPED nor INFO). */
  readonly mustRunChecks?: boolean;
}

export type Status = 'PASS' | 'FAIL' | 'XFAIL' | 'STALE';

/** The verdict on one scenario. */
export interface Verdict {
  readonly leg: Leg;
  readonly scenario: string;
  readonly status: Status;
  /** `succeeded/total checks`, and why it failed (or why a listed failure is stale). */
  readonly detail: string;
}

/**
 * Judges one scenario. It fails as the suite says: a server scenario when a check is FAILURE (WARNING is an
 * unmet SHOULD and does not fail it), a client scenario when `conformance client` exited non-zero (a FAILURE
 * or WARNING check, a client timeout or a bad client exit code). An expected failure that happens is XFAIL
 * (counts as passed); one that no longer happens is STALE (counts as failed, so the list shrinks).
 */
export function judge(
  leg: Leg,
  scenario: string,
  outcome: ScenarioOutcome,
  expected: ExpectedFailures,
): Verdict {
  const checks = outcome.checks ?? [];
  const ok = checks.filter((check) => check.status === 'SUCCESS').length;
  const counted = checks.filter((check) => check.status !== 'SKIPPED' && check.status !== 'INFO').length;
  const failing = new Set(
    checks
      .filter((check) => check.status === 'FAILURE' || (leg === 'client' && check.status === 'WARNING'))
      .map((check) => check.id),
  );
  const reasons: string[] = [];
  if (outcome.checks === undefined) reasons.push('no results');
  else if (outcome.mustRunChecks && counted === 0) reasons.push('no check ran (every one skipped)');
  if (leg === 'client' && outcome.timedOut) reasons.push('timed out');
  else if (leg === 'client' && outcome.exitCode !== 0) reasons.push(`exit ${outcome.exitCode}`);
  const failed = reasons.length > 0 || failing.size > 0;
  const messages = checks
    .filter((check) => failing.has(check.id))
    .map((check) => `${check.id}${check.errorMessage ? `: ${check.errorMessage}` : ''}`);
  const summary = `${ok}/${counted} checks`;
  const why = [...reasons, ...messages].join('; ');
  const list = expected[leg];
  const verdict = (status: Status, detail: string): Verdict => ({ leg, scenario, status, detail });

  if (list.has(scenario)) {
    return failed
      ? verdict('XFAIL', `${summary} (expected: ${list.get(scenario)})`)
      : verdict('STALE', `${summary}: listed as an expected failure but passes; remove it`);
  }
  const listedChecks = [...list.keys()]
    .filter((entry) => entry.startsWith(`${scenario}:`))
    .map((entry) => entry.slice(scenario.length + 1));
  const unexpected = [...failing].filter((id) => !listedChecks.includes(id));
  const stale = listedChecks.filter((id) => !failing.has(id));
  if (failed && (unexpected.length > 0 || reasons.length > 0 || listedChecks.length === 0)) {
    return verdict('FAIL', `${summary}: ${why}`);
  }
  if (stale.length > 0) {
    return verdict(
      'STALE',
      `${summary}: ${stale.join(', ')} listed as expected failure(s) but pass; remove them`,
    );
  }
  if (failed)
    return verdict(
      'XFAIL',
      `${summary} (expected: ${listedChecks.map((id) => list.get(`${scenario}:${id}`)).join('; ')})`,
    );
  return verdict('PASS', summary);
}

/** Every checks.json below `dir`, with the folder path that holds it (relative to `dir`). */
export function findChecks(dir: string, prefix = ''): { folder: string; checks: Check[] }[] {
  const found: { folder: string; checks: Check[] }[] = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) found.push(...findChecks(dir, relative));
    else if (entry.name === 'checks.json') {
      found.push({
        folder: prefix,
        checks: JSON.parse(readFileSync(join(dir, relative), 'utf8')) as Check[],
      });
    }
  }
  return found;
}

/**
 * The server leg's checks by scenario: the CLI writes `server-<scenario>-<timestamp>/checks.json` per
 * scenario into its `-o` folder.
 */
export function serverChecks(dir: string): Map<string, Check[]> {
  const byScenario = new Map<string, Check[]>();
  for (const { folder, checks } of findChecks(dir)) {
    const name = folder.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/, '');
    byScenario.set(name, checks);
  }
  return byScenario;
}

/** Expected-failure entries that name no scenario of the run (typos, removed scenarios). */
export function unknownEntries(expected: ExpectedFailures, ran: Record<Leg, readonly string[]>): string[] {
  return (['server', 'client'] as const).flatMap((leg) =>
    [...expected[leg].keys()]
      .filter((entry) => !ran[leg].includes(entry.split(':')[0] as string))
      .map((entry) => `${leg}: ${entry}`),
  );
}
