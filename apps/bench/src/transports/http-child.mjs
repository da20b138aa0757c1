// The parent's side of transports/http-server.mjs: forks a server child, waits until it listens, asks it for its
// CPU and memory over IPC, and stops it. Shared by transports.bench.mjs and cpu-per-flow.bench.mjs.
import { fork } from 'node:child_process';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const HTTP_SERVER = fileURLToPath(new URL('./http-server.mjs', import.meta.url));

/** Every child still running, killed if this process exits first (one `exit` hook for all of them). */
const running = new Set();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Forks the HTTP server child serving `side` (`boomerang`, `mcp`, `official`, `floor`) and resolves once it
 * listens, with `url`, `pid`, `stats(gc?)` (the child's `process.cpuUsage()` and memory; with `gc` and
 * `--expose-gc`, after a full collection) and `stop()` (asks it to close, SIGKILL after `graceMs`).
 *
 * `script` serves from another checkout (its own http-server.mjs), `execArgv` adds node flags (`--cpu-prof`),
 * `env` replaces the environment, and `track` is told of the child (the caller's own bookkeeping). `execPath`
 * runs the child through another program (`valgrind`, whose own arguments then lead `execArgv`, node's path
 * among them), and `graceMs` is how long `stop()` waits before SIGKILL (a tool may write its output on exit).
 */
export async function startHttpServer(
  side,
  { script = HTTP_SERVER, execArgv = [], execPath, env, track, graceMs = 5000 } = {},
) {
  const child = fork(script, [side], {
    execArgv,
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    ...(execPath !== undefined && { execPath }),
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  track?.(child);
  const pending = new Map();
  let nextId = 0;
  const { url } = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`${side} HTTP server exited (${code ?? signal})`)));
    child.on('message', (message) => {
      if (message?.type === 'ready') resolve(message);
      else if (message?.type === 'stats') {
        pending.get(message.id)?.(message);
        pending.delete(message.id);
      }
    });
  });
  const stats = (gc = false) =>
    new Promise((resolve) => {
      const id = ++nextId;
      pending.set(id, resolve);
      child.send({ type: 'stats', id, gc });
    });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.send({ type: 'exit' });
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  return { url, pid: child.pid, stats, stop };
}
