// Bun and Deno as child processes: where their binaries are (the `bun` and `deno` npm packages ship them), how to
// run a fixture on each, and the processes the tests started, each stopped by its pid.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export const appDir = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** A runtime other than node that the fetch handler and the client run on. */
export interface Runtime {
  readonly name: string;
  /** The binary, from the devDependency of the same name. */
  readonly binary: string;
  /** The npm package that ships it. */
  readonly npmPackage: string;
  /** The arguments that run `script` with `args`. */
  command(script: string, ...args: string[]): string[];
}

export const runtimes: readonly Runtime[] = [
  {
    name: 'Bun',
    binary: join(appDir, 'node_modules/bun/bin/bun.exe'),
    npmPackage: 'bun',
    command: (script, ...args) => [script, ...args],
  },
  {
    name: 'Deno',
    binary: join(appDir, 'node_modules/deno/deno'),
    npmPackage: 'deno',
    // node_modules is read as it is (no deno.json, no lock file written); the network only on 127.0.0.1.
    command: (script, ...args) => [
      'run',
      '--allow-net=127.0.0.1',
      '--allow-read',
      '--allow-env',
      '--no-lock',
      script,
      ...args,
    ],
  },
];

/**
 * Why `runtime`'s tests cannot run here, or `undefined`: its binary is missing (its package's postinstall did not
 * run). Never a reason in CI, where `pnpm install` brings both, so a missing binary fails there instead.
 */
export function missing(runtime: Runtime): string | undefined {
  if (existsSync(runtime.binary) || process.env.CI !== undefined) return undefined;
  return `${runtime.name} tests skipped: ${runtime.binary} is missing (run \`pnpm install\`, which runs the ${runtime.npmPackage} package's postinstall)`;
}

/** Absolute path of a fixture program in src/fixtures. */
export function fixture(name: string): string {
  return join(appDir, 'src/fixtures', name);
}

/** A child process of a runtime: its output so far, and how to stop it. */
export interface Child {
  readonly process: ChildProcessByStdio<null, Readable, Readable>;
  stdout(): string;
  stderr(): string;
  /** Resolves to the exit code once the process has exited. */
  readonly exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the process is gone. */
  stop(): Promise<void>;
}

/** Runs `script` on `runtime` with its output captured. */
export function run(runtime: Runtime, script: string, ...args: string[]): Child {
  const child = spawn(runtime.binary, runtime.command(script, ...args), {
    cwd: appDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
  return {
    process: child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resolves to the first stdout line of `child` matching `pattern`; rejects when the process exits first. */
export function lineOf(child: Child, pattern: RegExp, timeoutMs = 30_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(child.stdout());
      if (match === null) return false;
      cleanup();
      resolve(match);
      return true;
    };
    const onData = () => void check();
    const timer = setTimeout(() => {
      cleanup();
      reject(
        new Error(
          `no line matching ${pattern} within ${timeoutMs} ms:\n${child.stdout()}\n${child.stderr()}`,
        ),
      );
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      child.process.stdout.off('data', onData);
    };
    if (check()) return;
    child.process.stdout.on('data', onData);
    void child.exited.then((code) => {
      if (check()) return;
      cleanup();
      reject(new Error(`exited (${code}) before printing ${pattern}:\n${child.stdout()}\n${child.stderr()}`));
    });
  });
}
