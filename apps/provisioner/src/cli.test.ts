// The two-process flow for real: every step is a separate `node dist/cli.js` process, so nothing but the
// pending file (and the shared key) crosses from `start` to `answer`. Runs against the BUILT CLI.
import { type ChildProcess, execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '@boomerang/test-kit/built';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';

const appDir = dirname(dirname(fileURLToPath(import.meta.url)));
const cliPath = join(appDir, 'dist/cli.js');
const children = new Set<ChildProcess>();
let unavailable: string | undefined;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provisioner-2p-'));
  // The app itself (dist/cli.js), and the workspace packages it runs on when stale.
  unavailable = ensureBuilt({ appDir, buildApp: true, needs: [cliPath] });
}, 300_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/** Runs `node dist/cli.js …args` as its own process in the shared temp dir; never throws. */
function run(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      [cliPath, ...args],
      {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', ...env },
        timeout: 20_000,
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderr) => {
        children.delete(child);
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
      },
    );
    children.add(child);
  });
}

function requireBuild(ctx: TestContext): void {
  if (unavailable !== undefined) ctx.skip(unavailable);
}

async function keygen(): Promise<string> {
  const { code, stdout } = await run(['keygen']);
  expect(code).toBe(0);
  return stdout.trim();
}

const pendingPath = () => join(dir, '.provisioner-pending.json');

describe('node dist/cli.js: start in one process, answer in another', () => {
  it('finishes the call across processes with the shared key', async (ctx) => {
    requireBuild(ctx);
    const env = { PROVISIONER_STATE_KEY: await keygen() };

    const started = await run(['start', 'orders'], env);
    expect(started.stderr).toBe('');
    expect(started.code).toBe(0);
    expect(started.stdout).toContain("Which region should the database 'orders' live in?");
    expect(existsSync(pendingPath())).toBe(true);

    const answered = await run(['answer', 'eu-west-1'], env);
    expect(answered.stderr).toBe('');
    expect(answered.code).toBe(0);
    expect(answered.stdout).toMatch(
      /^Provisioned database 'orders' in eu-west-1 \(Europe \(Ireland\)\): db-/,
    );
    expect(existsSync(pendingPath())).toBe(false);
  });

  it('fails clearly (exit 1) when the pending state was tampered with', async (ctx) => {
    requireBuild(ctx);
    const env = { PROVISIONER_STATE_KEY: await keygen() };
    expect((await run(['start', 'orders'], env)).code).toBe(0);
    const pending = JSON.parse(await readFile(pendingPath(), 'utf8'));
    const state = pending.requestState as string;
    pending.requestState = state.slice(0, 20) + (state[20] === 'Q' ? 'R' : 'Q') + state.slice(21);
    await writeFile(pendingPath(), JSON.stringify(pending));

    const answered = await run(['answer', 'eu-west-1'], env);
    expect(answered.code).toBe(1);
    expect(answered.stdout).toBe('');
    expect(answered.stderr).toMatch(/^error: The server rejected the pending call's state: it was modified/);
    expect(answered.stderr).toContain('Nothing was provisioned.');
  });

  it('fails clearly (exit 1) when the answering process has another key', async (ctx) => {
    requireBuild(ctx);
    expect((await run(['start', 'orders'], { PROVISIONER_STATE_KEY: await keygen() })).code).toBe(0);
    const answered = await run(['answer', 'eu-west-1'], { PROVISIONER_STATE_KEY: await keygen() });
    expect(answered.code).toBe(1);
    expect(answered.stderr).toContain(
      'it was sealed under a different PROVISIONER_STATE_KEY [server log: unknown-key]',
    );
  });

  it('fails clearly (exit 1) when the state expired', async (ctx) => {
    requireBuild(ctx);
    const env = { PROVISIONER_STATE_KEY: await keygen() };
    expect((await run(['start', 'orders'], { ...env, PROVISIONER_STATE_TTL: '1' })).code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const answered = await run(['answer', 'eu-west-1'], env);
    expect(answered.code).toBe(1);
    expect(answered.stderr).toContain('it expired');
    expect(answered.stderr).toContain('[server log: expired]');
  });

  it('fails clearly (exit 1) without a key', async (ctx) => {
    requireBuild(ctx);
    const started = await run(['start', 'orders']);
    expect(started.code).toBe(1);
    expect(started.stderr).toContain('PROVISIONER_STATE_KEY is not set');
    expect(started.stderr).toContain('keygen');
  });
});
