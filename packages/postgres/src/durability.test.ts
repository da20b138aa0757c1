// Durability shown with real process kills: a print shop (McpServer, PGlite on disk, stdio) is SIGKILLed while one
// task waits for input and another is working; started again on the same data directory, the first completes after
// tasks/update and the second is reported failed (`interrupted: "fail"`, the default) or run again
// (`interrupted: "rerun"`). Every process started here is killed by the end of the test.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { INTERRUPTED, TASKS_EXTENSION } from '@boomerang/tasks';
import { ensureBuilt } from '@boomerang/test-kit/built';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postgresTaskStore } from './task-store.js';

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const program = join(packageDir, 'test-fixtures/print-shop.mjs');
const caps = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };

type Task = Record<string, unknown> & { status: string };

/** One print-shop process: JSON-RPC over its stdin/stdout, answers matched by id. */
class PrintShop {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #pending = new Map<number, (response: Record<string, unknown>) => void>();
  #nextId = 1;

  private constructor(child: ChildProcessWithoutNullStreams) {
    this.#child = child;
    createInterface({ input: child.stdout }).on('line', (line) => {
      const response = JSON.parse(line) as Record<string, unknown>;
      this.#pending.get(response.id as number)?.(response);
      this.#pending.delete(response.id as number);
    });
  }

  /** Starts the program on `dataDir`; resolves once it serves (its store migrated). */
  static async start(dataDir: string, interrupted: 'fail' | 'rerun', printMs: number): Promise<PrintShop> {
    const child = spawn(process.execPath, [program, dataDir, interrupted, String(printMs)], {
      stdio: 'pipe',
    });
    running.add(child);
    child.once('exit', () => running.delete(child));
    const shop = new PrintShop(child);
    const stderr = createInterface({ input: child.stderr });
    const ready = new Promise<void>((resolve, reject) => {
      stderr.on('line', (line) => {
        if (line === 'print-shop ready') resolve();
      });
      child.once('exit', (code) => reject(new Error(`print-shop exited (${code}) before it was ready`)));
    });
    await ready;
    return shop;
  }

  async request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': caps,
    };
    const answered = new Promise<Record<string, unknown>>((resolve) => this.#pending.set(id, resolve));
    this.#child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id, method, params: { _meta: meta, ...params } })}\n`,
    );
    const response = await answered;
    if (response.error !== undefined) throw new Error(`${method}: ${JSON.stringify(response.error)}`);
    return response.result as Record<string, unknown>;
  }

  async create(tool: string, copies: number): Promise<string> {
    const created = await this.request('tools/call', { name: tool, arguments: { copies } });
    expect(created.resultType).toBe('task');
    return created.taskId as string;
  }

  /** Polls `tasks/get` until `until` holds (5 s at most). */
  async poll(taskId: string, until: (task: Task) => boolean): Promise<Task> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const task = (await this.request('tasks/get', { taskId })) as Task;
      if (until(task)) return task;
      if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${task.status}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** `kill -9`: no handler runs, nothing is flushed by the program. */
  async kill(): Promise<void> {
    const exited = once(this.#child, 'exit');
    this.#child.kill('SIGKILL');
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
  }
}

const running = new Set<ChildProcessWithoutNullStreams>();
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(
    [...running].map((child) => {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      return exited;
    }),
  );
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

let unavailable: string | undefined;
/** A migrated PGlite data directory, copied for each test (PGlite's initdb is the slow part of a start). */
let template: string;
beforeAll(async () => {
  unavailable = ensureBuilt({
    appDir: packageDir,
    runs: ['@boomerang/postgres', '@boomerang/mcp-server', '@boomerang/transport-stdio'],
  });
  template = mkdtempSync(join(tmpdir(), 'boomerang-durable-template-'));
  const db = await PGlite.create(template);
  await postgresTaskStore(db).get('migrate');
  await db.close();
}, 300_000);
afterAll(() => rmSync(template, { recursive: true, force: true }));

/** A fresh data directory holding a copy of the template, removed after the test. */
function dataDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'boomerang-durable-'));
  dirs.push(dir);
  cpSync(template, dir, { recursive: true });
  return dir;
}

const isTerminal = (task: Task) => ['completed', 'failed', 'cancelled'].includes(task.status);

describe('tasks survive kill -9 (PGlite on disk)', () => {
  it('a task waiting for input completes after a restart; a working one is reported failed', async (ctx) => {
    if (unavailable !== undefined) ctx.skip(unavailable);
    const dataDir = dataDirectory();

    const first = await PrintShop.start(dataDir, 'fail', 60_000);
    const asking = await first.create('confirm_print', 3);
    const waiting = await first.poll(asking, (t) => t.status === 'input_required');
    const printing = await first.create('long_print', 500);
    expect((await first.poll(printing, () => true)).status).toBe('working');
    await first.kill();

    const second = await PrintShop.start(dataDir, 'fail', 60_000);
    // The question survived as it was asked, and its answer runs the handler again in the new process.
    const after = await second.poll(asking, () => true);
    expect(after).toMatchObject({ status: 'input_required', inputRequests: waiting.inputRequests });
    const [key] = Object.keys(waiting.inputRequests as object);
    await second.request('tasks/update', {
      taskId: asking,
      inputResponses: { [key as string]: { action: 'accept', content: { ok: true } } },
    });
    expect(await second.poll(asking, isTerminal)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Printed 3 copies' }] },
    });
    // The killed runner's lease (one second) ran out: the task is failed with the documented error.
    expect(await second.poll(printing, isTerminal)).toMatchObject({
      status: 'failed',
      error: INTERRUPTED,
      statusMessage: INTERRUPTED.message,
    });
    await second.kill();
  });

  it('with interrupted: "rerun", a task killed while working runs again and completes', async (ctx) => {
    if (unavailable !== undefined) ctx.skip(unavailable);
    const dataDir = dataDirectory();

    const first = await PrintShop.start(dataDir, 'rerun', 60_000);
    const printing = await first.create('long_print', 7);
    expect((await first.poll(printing, () => true)).status).toBe('working');
    await first.kill();

    // The restarted shop prints fast: the round that was cut off runs again from its stored params.
    const second = await PrintShop.start(dataDir, 'rerun', 10);
    expect(await second.poll(printing, isTerminal)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Printed 7 copies (long run)' }] },
    });
    await second.kill();
  });
});
