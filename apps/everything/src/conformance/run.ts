// One conformance run: the server leg against dist/server.js, then the client leg against dist/client.js one
// scenario at a time (the CLI's own parallel client mode starts all 33 at once, which times clients out on two
// cores and hides timeouts and exit codes).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Exit, runLogged, startServer } from './processes.js';
import {
  cliArgs,
  extensionScenarios,
  listScenarios,
  SKILLS_SCENARIOS,
  type SpecVersion,
  type SuitePaths,
} from './suite.js';
import {
  type ExpectedFailures,
  findChecks,
  judge,
  parseExpectedFailures,
  serverChecks,
  unknownEntries,
  type Verdict,
} from './verdicts.js';

/** What to run. */
export interface RunOptions {
  readonly paths: SuitePaths;
  /** The protocol revision to test. */
  readonly version: SpecVersion;
  /** Results and logs go here (created if missing). */
  readonly out: string;
  /** Legs to run (default both). */
  readonly legs?: readonly ('server' | 'client')[];
  /** Only these scenarios (of either leg); default every scenario the CLI lists at `version`. */
  readonly only?: readonly string[];
  /** Per-scenario time limit in ms (default 30 000, the CLI's own). */
  readonly timeoutMs?: number;
  /** Receives each verdict as soon as it is known, and progress notes. */
  readonly report?: (verdict: Verdict) => void;
  readonly note?: (line: string) => void;
}

/** The verdicts of a run, plus problems with the expected-failures file. */
export interface RunResult {
  readonly verdicts: readonly Verdict[];
  readonly problems: readonly string[];
}

/** Runs the selected legs and judges every scenario. Rejects only when the run cannot start at all. */
export async function runConformance(options: RunOptions): Promise<RunResult> {
  const { paths, out, version, timeoutMs = 30_000 } = options;
  const legs = options.legs ?? ['server', 'client'];
  const note = options.note ?? (() => {});
  for (const file of [paths.serverJs, paths.clientJs]) {
    if (!existsSync(file))
      throw new Error(`${file} is missing: build first (pnpm conformance from the repository root does)`);
  }
  if (/\s/.test(paths.clientJs) || /\s/.test(process.execPath)) {
    throw new Error('the CLI splits the client command on spaces: run from a path without spaces');
  }
  const expected = parseExpectedFailures(readFileSync(paths.expectedFailures(version), 'utf8'));
  mkdirSync(out, { recursive: true });
  const verdicts: Verdict[] = [];
  const emit = (verdict: Verdict) => {
    verdicts.push(verdict);
    options.report?.(verdict);
  };
  const ran = { server: [] as string[], client: [] as string[] };
  const pick = (all: string[]) =>
    options.only === undefined ? all : all.filter((name) => options.only?.includes(name));

  if (legs.includes('server')) {
    const listed = pick(await listScenarios(paths, 'server', version));
    const extensions = pick(await extensionScenarios(paths, 'server', version));
    ran.server = [...listed, ...extensions];
    if (ran.server.length > 0) {
      const all = options.only === undefined;
      await serverLeg(paths, version, out, listed, extensions, all, timeoutMs, expected, emit, note);
    }
  }
  if (legs.includes('client')) {
    ran.client = pick(await listScenarios(paths, 'client', version));
    await clientLeg(paths, version, out, ran.client, timeoutMs, expected, emit, note);
  }
  const problems: string[] = [];
  if (options.only === undefined && legs.length === 2) {
    for (const entry of unknownEntries(expected, ran)) {
      problems.push(`expected failure names no scenario of this run: ${entry}`);
    }
  }
  for (const name of options.only ?? []) {
    if (!ran.server.includes(name) && !ran.client.includes(name)) {
      problems.push(`no such scenario at ${version} in the legs run: ${name}`);
    }
  }
  return { verdicts, problems };
}

async function serverLeg(
  paths: SuitePaths,
  version: SpecVersion,
  out: string,
  listed: readonly string[],
  extensions: readonly string[],
  all: boolean,
  timeoutMs: number,
  expected: ExpectedFailures,
  emit: (verdict: Verdict) => void,
  note: (line: string) => void,
): Promise<void> {
  const results = join(out, 'server');
  mkdirSync(results, { recursive: true });
  const scenarios = [...listed, ...extensions];
  const server = await startServer(paths.serverJs, join(out, 'server.log'));
  note(`server leg: ${scenarios.length} scenario(s) against ${server.url}`);
  try {
    const common = [
      '--url',
      server.url,
      '--spec-version',
      version,
      '--timeout',
      String(timeoutMs),
      '-o',
      results,
    ];
    const logFile = join(out, 'server-suite.log');
    // The whole suite in one CLI run (scenarios run one after another inside it); a subset by name; the
    // extension scenarios by name (the suite does not list them).
    const runs: string[][] = [
      ...(all ? [['--suite', 'all']] : listed.map((name) => ['--scenario', name, '--force'])),
      ...extensions.map((name) => ['--scenario', name, '--force']),
    ];
    for (const selection of runs) {
      await runLogged(process.execPath, cliArgs(paths, ['server', ...common, ...selection]), {
        logFile,
        timeoutMs: (timeoutMs + 5_000) * (selection[0] === '--suite' ? listed.length : 1),
      });
    }
  } finally {
    await server.stop();
  }
  const checks = serverChecks(results);
  for (const name of scenarios) {
    const mustRunChecks = SKILLS_SCENARIOS.server.includes(name);
    emit(judge('server', name, { checks: checks.get(name), mustRunChecks }, expected));
  }
}

async function clientLeg(
  paths: SuitePaths,
  version: SpecVersion,
  out: string,
  scenarios: readonly string[],
  timeoutMs: number,
  expected: ExpectedFailures,
  emit: (verdict: Verdict) => void,
  note: (line: string) => void,
): Promise<void> {
  note(`client leg: ${scenarios.length} scenario(s), one at a time`);
  // `exec`: the CLI runs the command through `sh -c` and, on a timeout, signals only the shell.
  const command = `exec ${process.execPath} ${paths.clientJs}`;
  for (const [index, name] of scenarios.entries()) {
    const dir = join(out, 'client', String(index + 1).padStart(3, '0'));
    mkdirSync(dir, { recursive: true });
    const exit: Exit = await runLogged(
      process.execPath,
      cliArgs(paths, [
        'client',
        '--command',
        command,
        '--scenario',
        name,
        '--spec-version',
        version,
        '--force',
        '--timeout',
        String(timeoutMs),
        '-o',
        dir,
      ]),
      { logFile: join(dir, 'log.txt'), timeoutMs: timeoutMs + 10_000 },
    );
    const found = findChecks(dir);
    emit(
      judge(
        'client',
        name,
        {
          checks: found[0]?.checks,
          exitCode: exit.code,
          timedOut: exit.timedOut,
          mustRunChecks: SKILLS_SCENARIOS.client.includes(name),
        },
        expected,
      ),
    );
  }
}
