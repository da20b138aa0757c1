// The programs as users run them (the built dist/): the inbox with its defaults, the worker parking flows into a
// PGlite folder that the inbox then serves and resumes, and every bad command line refused with the usage.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '@boomerang/test-kit/built';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CountingServer, startCountingServer } from './counting-server.js';

const appDir = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = (name: string) => join(appDir, 'dist', name);
const running: ChildProcess[] = [];
const dirs: string[] = [];
let unavailable: string | undefined;
let counting: CountingServer;

beforeAll(async () => {
  unavailable = ensureBuilt({
    appDir,
    buildApp: true,
    needs: ['main.js', 'worker.js', 'resumer.js'].map(dist),
  });
  counting = await startCountingServer();
}, 300_000);

afterAll(async () => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  await counting?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'inbox-main-'));
  dirs.push(dir);
  return dir;
}

/** Runs a program to its end: its exit code and output. */
async function run(program: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [dist(program), ...args], {
    env: { ...process.env, DATABASE_URL: '', INBOX_SECRET: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = await once(child, 'exit');
  return { code: code as number, stdout, stderr };
}

/** Starts the inbox and resolves once it printed its sign-in links: the child and every line so far. */
async function startMain(args: string[]) {
  const child = spawn(process.execPath, [dist('main.js'), ...args], {
    env: { ...process.env, DATABASE_URL: '', INBOX_SECRET: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const lines: string[] = [];
  const reader = createInterface({ input: child.stdout });
  await new Promise<void>((resolve, reject) => {
    reader.on('line', (line) => {
      lines.push(line);
      if (line.startsWith('Sign in as bob')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`inbox exited (${code}): ${stderr}`)));
  });
  return { child, lines };
}

/** Signs in with the link of `lines` for `person`; resolves to the cookie and the origin. */
async function signIn(lines: string[], person: string) {
  const link = lines.find((line) => line.startsWith(`Sign in as ${person}: `))?.split(': ')[1] as string;
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(303);
  return {
    cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] as string,
    origin: new URL(link).origin,
  };
}

describe('node dist/main.js', () => {
  it('serves the bookshop plan with its defaults, and stops on SIGTERM removing its temporary folder', async (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    const { child, lines } = await startMain(['--port', '0']);
    expect(lines[0]).toMatch(/^Boomerang inbox on http:\/\/127\.0\.0\.1:\d+\/$/);
    const folder = /^Flows in PGlite at (.+) \(removed on exit\)$/.exec(lines[1] as string)?.[1] as string;
    expect(existsSync(folder)).toBe(true);
    expect(lines[2]).toMatch(
      /^MCP server bookshop: http:\/\/127\.0\.0\.1:\d+\/mcp \(the bookshop, in this process\)$/,
    );
    expect(lines[3]).toBe('Worker: 7 calls → 6 pending, 1 completed');
    expect(lines[4]).toBe('Resumers here: 1');
    const { cookie, origin } = await signIn(lines, 'alice');
    const page = await (await fetch(`${origin}/`, { headers: { cookie } })).text();
    expect(page).toContain('order_history');
    expect(page).toContain('Waiting for you');
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(existsSync(folder)).toBe(false);
  }, 120_000);

  it('the worker parks flows in a PGlite folder; the inbox started on it serves and resumes them', async (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    const data = tempDir();
    const jobs = join(data, '..', `${data.split('/').pop()}-jobs.json`);
    writeFileSync(jobs, JSON.stringify([{ tool: 'approve', arguments: { n: 41 }, note: 'Approve #41' }]));
    dirs.push(jobs);
    const server = `approvals=${counting.url.href}`;
    const worker = await run('worker.js', ['--server', server, '--jobs', jobs, '--data-dir', data]);
    expect(worker.stderr).toBe('');
    expect(worker.code).toBe(0);
    const [parked] = worker.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(parked).toMatchObject({ tool: 'approve', status: 'pending', round: 1 });

    const { child, lines } = await startMain(['--port', '0', '--data-dir', data, '--server', server]);
    expect(lines[1]).toBe(`Flows in PGlite at ${data}`);
    expect(lines[3]).toBe('Worker: nothing to call; --jobs FILE gives it calls');
    const { cookie, origin } = await signIn(lines, 'bob');
    const flowUrl = `${origin}/flows/${parked.id}`;
    const page = await (await fetch(flowUrl, { headers: { cookie } })).text();
    expect(page).toContain('Approve request #41?');
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] as string;
    const answer = await fetch(flowUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, round: '1', intent: 'accept', 'q0.f0': 'true' }).toString(),
    });
    expect(answer.status).toBe(303);
    for (let i = 0; ; i++) {
      const status = (await (await fetch(`${flowUrl}/status`, { headers: { cookie } })).json()) as {
        status: string;
      };
      if (status.status === 'completed') break;
      if (i > 300) throw new Error(`still ${status.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await (await fetch(flowUrl, { headers: { cookie } })).text()).toContain('#41 approved');
    expect(counting.runs.get(41)).toBe(1);
    child.kill('SIGTERM');
    await once(child, 'exit');
    expect(existsSync(data)).toBe(true);
  }, 180_000);

  it.each<[string, string, string[], Record<string, string>, number, RegExp]>([
    ['--help', 'main.js', ['--help'], {}, 0, /^Usage: node apps\/inbox\/dist\/main\.js/],
    ['an unknown option', 'main.js', ['--colour'], {}, 2, /Unknown option '--colour'[\s\S]*Usage:/],
    ['a port out of range', 'main.js', ['--port', '70000'], {}, 2, /--port expected 0–65535, got 70000/],
    [
      'a server that is no URL',
      'main.js',
      ['--server', 'shop=ftp://x'],
      {},
      2,
      /--server expected name=http/,
    ],
    [
      'a missing jobs file',
      'main.js',
      ['--jobs', '/nonexistent.json'],
      {},
      2,
      /--jobs \/nonexistent\.json: ENOENT/,
    ],
    ['a bad INBOX_SECRET', 'main.js', [], { INBOX_SECRET: 'short' }, 2, /INBOX_SECRET: /],
    [
      'a bad DATABASE_URL',
      'main.js',
      ['--port', '0'],
      { DATABASE_URL: 'mysql://x' },
      1,
      /DATABASE_URL expected a postgres:\/\/ URL/,
    ],
    [
      'a resumer without DATABASE_URL',
      'resumer.js',
      ['--server', 'a=http://127.0.0.1:9/mcp'],
      {},
      2,
      /DATABASE_URL is not set/,
    ],
    [
      'a resumer without a server',
      'resumer.js',
      [],
      { DATABASE_URL: 'postgres://x' },
      2,
      /--server is required/,
    ],
    [
      'a worker without jobs',
      'worker.js',
      ['--server', 'a=http://127.0.0.1:9/mcp'],
      {},
      2,
      /--jobs is required/,
    ],
    [
      'a worker with nowhere to write',
      'worker.js',
      ['--server', 'a=http://h/mcp', '--jobs', 'x.json'],
      {},
      2,
      /set DATABASE_URL or --data-dir/,
    ],
  ])('%s: its exit code and message', async (_, program, args, env, code, message) => {
    if (unavailable !== undefined) return;
    const result = await run(program, args, env);
    expect(result.code).toBe(code);
    expect(code === 0 ? result.stderr + result.stdout : result.stderr).toMatch(message);
  });
});
