// A few fast scenarios of both legs through the runner, against the BUILT server and client (dist/): the same
// path `pnpm conformance` takes, with the pinned suite and our Node 20 preload. The full run is its own CI step.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from './run.js';
import { appDir, suitePaths } from './suite.js';

const repoRoot = dirname(dirname(appDir));
const out = mkdtempSync(join(tmpdir(), 'everything-conformance-test-'));

/** Workspace packages this app runs on that were never built. */
function unbuiltDependencies(): string[] {
  const manifest = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  return Object.keys(manifest.dependencies)
    .filter((name) => name.startsWith('@boomerang/'))
    .filter((name) => {
      const built = join(repoRoot, 'packages', name.slice('@boomerang/'.length), 'dist/index.js');
      return !existsSync(built);
    });
}

beforeAll(() => {
  // The app builds in a second; its dependencies only when their dist is missing (rebuilding fresh packages
  // would rewrite dist files other suites may be reading at this moment).
  const filter = unbuiltDependencies().length > 0 ? '@boomerang/everything...' : '@boomerang/everything';
  execFileSync('pnpm', ['--filter', filter, 'build'], { cwd: repoRoot, stdio: 'pipe', timeout: 280_000 });
  expect(statSync(join(appDir, 'dist/server.js')).isFile()).toBe(true);
}, 300_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the conformance runner', () => {
  it('passes a few server and client scenarios and leaves no suite process behind', async () => {
    const { verdicts, problems } = await runConformance({
      paths: suitePaths(),
      version: '2026-07-28',
      out,
      timeoutMs: 20_000,
      only: [
        'tools-list',
        'input-required-result-multi-round',
        'http-custom-header-server-validation',
        'tools_call',
        'sep-2322-client-request-state',
        // The OAuth client through the built program: a sign-in, and a refusal (exit 1, allowed by the suite).
        'auth/pre-registration',
        'auth/iss-wrong-issuer',
      ],
    });
    expect(problems).toEqual([]);
    // In the order the suite lists them.
    expect(verdicts.map((verdict) => `${verdict.leg} ${verdict.scenario} ${verdict.status}`)).toEqual([
      'server tools-list PASS',
      'server http-custom-header-server-validation PASS',
      'server input-required-result-multi-round PASS',
      'client tools_call PASS',
      'client auth/pre-registration PASS',
      'client auth/iss-wrong-issuer PASS',
      'client sep-2322-client-request-state PASS',
    ]);
    const processes = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    expect(processes.split('\n').filter((line) => line.includes(out))).toEqual([]);
  }, 120_000);

  it('runs the 2025-11-25 scenarios on the stateful wire against the same programs', async () => {
    const { verdicts, problems } = await runConformance({
      paths: suitePaths(),
      version: '2025-11-25',
      out: join(out, '2025-11-25'),
      timeoutMs: 20_000,
      only: ['server-initialize', 'tools-call-elicitation', 'initialize', 'sse-retry'],
    });
    expect(problems).toEqual([]);
    expect(verdicts.map((verdict) => `${verdict.leg} ${verdict.scenario} ${verdict.status}`)).toEqual([
      'server server-initialize PASS',
      'server tools-call-elicitation PASS',
      'client initialize PASS',
      'client sse-retry PASS',
    ]);
  }, 120_000);
});
