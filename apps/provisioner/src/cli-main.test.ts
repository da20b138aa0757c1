import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseKeys } from '@boomerang/seal';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './cli-main.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provisioner-cli-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI in process, as a separate invocation would (fresh server, fresh client). */
async function cli(args: string[], env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env,
    cwd: dir,
    command: 'provisioner',
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

async function keygen(): Promise<string> {
  const { code, stdout } = await cli(['keygen']);
  expect(code).toBe(0);
  return stdout.trim();
}

describe('provisioner CLI (in process)', () => {
  it('keygen prints one base64url key that parseKeys reads back', async () => {
    const key = await keygen();
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(parseKeys(key)[0]).toHaveLength(32);
  });

  it('start stores the pending call; answer, with the same key, finishes it and removes the file', async () => {
    const env = { PROVISIONER_STATE_KEY: await keygen() };
    const started = await cli(['start', 'orders'], env);
    expect(started).toMatchObject({ code: 0, stderr: '' });
    expect(started.stdout).toContain("Which region should the database 'orders' live in?");
    expect(started.stdout).toContain('eu-west-1        Europe (Ireland)');
    expect(started.stdout).toContain('provisioner answer <region>');

    const path = join(dir, '.provisioner-pending.json');
    const pending = JSON.parse(await readFile(path, 'utf8'));
    expect(pending).toMatchObject({
      version: 1,
      method: 'tools/call',
      params: { name: 'provision', arguments: { name: 'orders' } },
    });
    expect((await stat(path)).mode & 0o777).toBe(0o600);

    const answered = await cli(['answer', 'eu-west-1'], env);
    expect(answered).toMatchObject({ code: 0, stderr: '' });
    expect(answered.stdout).toMatch(
      /^Provisioned database 'orders' in eu-west-1 \(Europe \(Ireland\)\): db-/,
    );
    expect(JSON.parse(answered.stdout.slice(answered.stdout.indexOf('{')))).toMatchObject({
      region: 'eu-west-1',
    });
    await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('honours --state-file', async () => {
    const env = { PROVISIONER_STATE_KEY: await keygen() };
    expect((await cli(['start', 'orders', '--state-file', 'a.json'], env)).code).toBe(0);
    expect((await cli(['answer', 'eu-west-1'], env)).code).toBe(1); // nothing at the default path
    expect((await cli(['--state-file=a.json', 'answer', 'eu-west-1'], env)).code).toBe(0);
  });

  it('keeps the call pending (exit 1) when the server asks again', async () => {
    const env = { PROVISIONER_STATE_KEY: await keygen() };
    await cli(['start', 'orders'], env);
    const again = await cli(['answer', 'mars-1'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("'mars-1' is not a region we offer.");
    expect((await cli(['answer', 'eu-central-1'], env)).code).toBe(0);
  });

  it('decline ends the call as a tool error (exit 1)', async () => {
    const env = { PROVISIONER_STATE_KEY: await keygen() };
    await cli(['start', 'orders'], env);
    const declined = await cli(['decline'], env);
    expect(declined).toMatchObject({ code: 1 });
    expect(declined.stderr).toBe(
      "provision failed: Provisioning of 'orders' was cancelled: no region was chosen (decline).",
    );
  });

  it('explains a missing or invalid key', async () => {
    const missing = await cli(['start', 'orders'], {});
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('PROVISIONER_STATE_KEY is not set');
    expect(missing.stderr).toContain('export PROVISIONER_STATE_KEY=$(provisioner keygen)');
    const invalid = await cli(['start', 'orders'], { PROVISIONER_STATE_KEY: 'abc' });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('PROVISIONER_STATE_KEY is not a valid key');
  });

  it('explains a tampered state, a wrong key and an edited argument, and exits 1', async () => {
    const env = { PROVISIONER_STATE_KEY: await keygen() };
    const path = join(dir, '.provisioner-pending.json');
    const edit = async (change: (pending: Record<string, unknown>) => void) => {
      const pending = JSON.parse(await readFile(path, 'utf8'));
      change(pending);
      await writeFile(path, JSON.stringify(pending));
    };

    await cli(['start', 'orders'], env);
    await edit((p) => {
      const s = p.requestState as string;
      p.requestState = s.slice(0, 30) + (s[30] === 'x' ? 'y' : 'x') + s.slice(31);
    });
    const tampered = await cli(['answer', 'eu-west-1'], env);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/^error: The server rejected the pending call's state: it was modified/);
    expect(tampered.stderr).toContain('Nothing was provisioned.');

    await cli(['start', 'orders'], env);
    const wrongKey = await cli(['answer', 'eu-west-1'], { PROVISIONER_STATE_KEY: await keygen() });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain(
      'sealed under a different PROVISIONER_STATE_KEY [server log: unknown-key]',
    );

    await cli(['start', 'orders'], env);
    await edit((p) => {
      (p.params as Record<string, unknown>).arguments = { name: 'billing' };
    });
    const edited = await cli(['answer', 'eu-west-1'], env);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain('the tool or its arguments in the pending file were changed');
  });

  it('reports any other JSON-RPC error of the server without a stack trace', async () => {
    const env = { PROVISIONER_STATE_KEY: await keygen() };
    await cli(['start', 'orders'], env);
    const path = join(dir, '.provisioner-pending.json');
    const { requestState: _dropped, ...pending } = JSON.parse(await readFile(path, 'utf8'));
    await writeFile(path, JSON.stringify({ ...pending, params: { ...pending.params, name: 'deprovision' } }));
    const answered = await cli(['answer', 'eu-west-1'], env);
    expect(answered).toMatchObject({
      code: 1,
      stderr: 'error: the server answered -32602: Unknown tool: deprovision',
    });
  });

  it('explains a missing, broken or foreign pending file', async () => {
    const env = { PROVISIONER_STATE_KEY: await keygen() };
    expect((await cli(['answer', 'eu-west-1'], env)).stderr).toContain('No pending call in');
    await writeFile(join(dir, '.provisioner-pending.json'), '{');
    expect((await cli(['answer', 'eu-west-1'], env)).stderr).toContain('is not valid JSON');
    await writeFile(join(dir, '.provisioner-pending.json'), '{"tool":"provision"}');
    expect((await cli(['answer', 'eu-west-1'], env)).stderr).toContain('is not a pending provisioner call');
    const foreign = { method: 'tools/call', params: { name: 'provision' }, inputRequests: {}, version: 7 };
    await writeFile(join(dir, '.provisioner-pending.json'), JSON.stringify(foreign));
    expect((await cli(['answer', 'eu-west-1'], env)).stderr).toContain('version 7 is not 1');
  });

  it('answers usage errors with exit 2', async () => {
    expect((await cli(['frobnicate'])).code).toBe(2);
    expect((await cli(['start'], { PROVISIONER_STATE_KEY: await keygen() })).code).toBe(2);
    expect((await cli(['start', 'a', 'b'])).code).toBe(2);
    expect((await cli(['--state-file'])).code).toBe(2);
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: provisioner <command>');
  });
});
