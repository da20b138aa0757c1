// A few fast scenarios of both legs through the runner, against the BUILT server and client (dist/): the same
// path `pnpm conformance` takes, with the pinned suite and our Node 20 preload. The full run is its own CI step.
// And the built server's task folder.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '@boomerang/test-kit/built';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from './run.js';
import { appDir, listScenarios, suitePaths } from './suite.js';

const out = mkdtempSync(join(tmpdir(), 'everything-conformance-test-'));

beforeAll(() => {
  // The app (its dist/server.js and dist/client.js), and the workspace packages it runs on when stale.
  const why = ensureBuilt({ appDir, buildApp: true, needs: [join(appDir, 'dist/server.js')] });
  expect(why).toBeUndefined();
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
        // Extension scenarios, part of the 2026-07-28 client leg: a machine grant, and DPoP with both nonces.
        'auth/client-credentials-jwt',
        'auth/dpop-nonce',
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
      'client auth/client-credentials-jwt PASS',
      'client auth/dpop-nonce PASS',
    ]);
    const processes = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    expect(processes.split('\n').filter((line) => line.includes(out))).toEqual([]);
  }, 120_000);

  it('adds the extension client scenarios (auth, then skills) to the 2026-07-28 client leg only', async () => {
    const extensions = [
      'auth/client-credentials-jwt',
      'auth/client-credentials-basic',
      'auth/enterprise-managed-authorization',
      'auth/dpop',
      'auth/dpop-nonce',
      'auth/wif-jwt-bearer',
    ];
    const skills = [
      'sep-2640-client-no-prefetch',
      'sep-2640-client-verify-digest',
      'sep-2640-client-verify-size',
      'sep-2640-client-verify-frontmatter',
    ];
    const client = await listScenarios(suitePaths(), 'client', '2026-07-28');
    expect(client.slice(-10)).toEqual([...extensions, ...skills]);
    expect(new Set(client).size).toBe(client.length);
    expect(client).toContain('tools_call');
    const legacy = await listScenarios(suitePaths(), 'client', '2025-11-25');
    expect(legacy.filter((name) => extensions.includes(name) || skills.includes(name))).toEqual([]);
    const server = await listScenarios(suitePaths(), 'server', '2026-07-28');
    expect(server.filter((name) => name.startsWith('tasks-'))).toEqual([]);
  }, 60_000);

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

describe('node dist/server.js', () => {
  /** One JSON-RPC request over HTTP with the headers the endpoint checks; resolves to its result. */
  async function post(url: string, method: string, name: string, params: Record<string, unknown>) {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        'mcp-name': name,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method,
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {
              extensions: { 'io.modelcontextprotocol/tasks': {} },
            },
          },
          ...params,
        },
      }),
    });
    return ((await response.json()) as { result: Record<string, unknown> }).result;
  }

  it('keeps its tasks in PGlite in a temporary folder, removed when it stops', async () => {
    const child = spawn(process.execPath, [join(appDir, 'dist/server.js'), '--port', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let seen = '';
      const banner = new Promise<RegExpExecArray>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${seen}`)));
        child.stdout.on('data', (chunk: Buffer) => {
          seen += chunk.toString('utf8');
          const match = /listening on (\S+)\ntasks in (\S+) \(PGlite; removed on exit\)/.exec(seen);
          if (match !== null) resolve(match);
        });
      });
      const [, url, dataDir] = (await banner) as unknown as [string, string, string];
      const created = await post(url, 'tools/call', 'slow_compute', {
        name: 'slow_compute',
        arguments: { seconds: 0, label: 'stored' },
      });
      expect(created).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = created.taskId as string;
      let task = await post(url, 'tasks/get', taskId, { taskId });
      for (let i = 0; i < 100 && task.status !== 'completed'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        task = await post(url, 'tasks/get', taskId, { taskId });
      }
      expect(task).toMatchObject({ status: 'completed' });
      expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      expect(await exited).toEqual([0, null]);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);
});
