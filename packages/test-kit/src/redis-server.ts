// Starts a throwaway Redis server from Debian's `redis-server` on 127.0.0.1, on a free port, with its files in a
// temporary directory and nothing saved to disk; `stop()` shuts it down and removes the directory.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/** The `redis-server` program, or `undefined` when Redis is not installed. */
export function redisServerBin(): string | undefined {
  for (const dir of ['/usr/bin', '/usr/local/bin', ...(process.env.PATH ?? '').split(':')]) {
    if (dir !== '' && existsSync(join(dir, 'redis-server'))) return join(dir, 'redis-server');
  }
  return undefined;
}

/** Why the Redis tests cannot run here, or `undefined` when they can (CI installs the package). */
export const redisMissing =
  redisServerBin() === undefined
    ? 'redis-server not found: install the Debian package `redis-server`'
    : undefined;

/** A running Redis: its URL, and how to restart and stop it. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /**
   * Stops the server (SIGKILL: every connection drops at once, as in a crash) and starts it again on the same
   * port; resolves once it answers PING. `downMs` keeps it down that long in between.
   */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** True once something on `port` answers `PING` with `+PONG`. */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** Starts a server; rejects when it does not answer within 10 s (with the end of its log). */
export async function startRedis(): Promise<RedisServer> {
  const bin = redisServerBin();
  if (bin === undefined) throw new Error(redisMissing);
  const dir = mkdtempSync(join(tmpdir(), 'boomerang-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  let log = '';
  const start = async () => {
    log = '';
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    args.push('--dir', dir, '--daemonize', 'no', '--protected-mode', 'yes');
    const started = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    started.stdout?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    started.stderr?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    child = started;
    const deadline = Date.now() + 10_000;
    while (!(await pong(port))) {
      if (started.exitCode !== null || Date.now() > deadline) {
        started.kill('SIGKILL');
        throw new Error(`redis-server did not start on port ${port}:\n${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const halt = async (signal: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async restart(downMs = 0) {
      await halt('SIGKILL');
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
    },
    async stop() {
      await halt('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
