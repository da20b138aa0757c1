// Child processes of the runner. Each runs in its own process group (`detached`), so that stopping it also
// stops whatever it started: the conformance CLI runs the client under test through `sh -c`, and on a timeout
// it signals only that shell.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** How a child process ended. */
export interface Exit {
  /** The exit code; `null` when a signal ended it. */
  readonly code: number | null;
  /** True when the runner stopped it after `timeoutMs`. */
  readonly timedOut: boolean;
  /** Processes of its group still running after it exited, which the runner then stopped. */
  readonly leftovers: boolean;
}

const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

const signalGroup = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone
  }
};

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Stops every process of the group led by `pid`: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopGroup(pid: number, graceMs = 2_000): Promise<void> {
  if (!groupAlive(pid)) return;
  signalGroup(pid, 'SIGTERM');
  for (let waited = 0; waited < graceMs && groupAlive(pid); waited += 100) await delay(100);
  signalGroup(pid, 'SIGKILL');
}

/** Every process group the runner started and has not yet stopped (stopped on SIGINT/SIGTERM). */
export const liveGroups = new Set<number>();

/**
 * Runs `command args` in its own process group with stdout and stderr appended to `logFile`, stops the group
 * after `timeoutMs`, and stops anything the process left running in its group once it exits.
 */
export async function runLogged(
  command: string,
  args: readonly string[],
  options: { readonly logFile: string; readonly timeoutMs: number; readonly env?: NodeJS.ProcessEnv },
): Promise<Exit> {
  const log = createWriteStream(options.logFile, { flags: 'a' });
  await once(log, 'open');
  const child = spawn(command, args, {
    detached: true,
    stdio: ['ignore', log, log],
    env: options.env ?? process.env,
  });
  const pid = child.pid;
  if (pid === undefined) {
    log.end();
    throw new Error(`could not start ${command}`);
  }
  liveGroups.add(pid);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stopGroup(pid);
  }, options.timeoutMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  const leftovers = groupAlive(pid);
  await stopGroup(pid);
  liveGroups.delete(pid);
  log.end();
  return { code, timedOut, leftovers };
}

/** A started server under test. */
export interface StartedServer {
  /** The endpoint URL it printed. */
  readonly url: string;
  /** Stops its process group. */
  stop(): Promise<void>;
}

/**
 * Starts `node <serverJs> --port 0` in its own process group and resolves once it prints
 * `listening on <url>`; its output goes to `logFile`. Rejects if it exits or stays silent for `timeoutMs`.
 */
export async function startServer(
  serverJs: string,
  logFile: string,
  timeoutMs = 60_000,
): Promise<StartedServer> {
  const log = createWriteStream(logFile, { flags: 'a' });
  const child: ChildProcess = spawn(process.execPath, [serverJs, '--port', '0'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${serverJs}`);
  liveGroups.add(pid);
  child.stderr?.pipe(log);
  const stop = async () => {
    await stopGroup(pid);
    liveGroups.delete(pid);
    log.end();
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(
        () => reject(new Error(`the server printed no URL within ${timeoutMs} ms`)),
        timeoutMs,
      );
      child.stdout?.on('data', (chunk: Buffer) => {
        log.write(chunk);
        seen += chunk.toString('utf8');
        const match = /listening on (\S+)/.exec(seen);
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with ${code} before listening (log: ${logFile})`));
      });
    });
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
