// The options of the stdio client transport, and the checks the constructor runs on them.

/** How the server process ended: `code` when it exited, `signal` when a signal killed it (the other is `null`). */
export interface StdioExit {
  /** The exit code, when the process exited by itself. */
  readonly code: number | null;
  /** The signal that ended the process (`SIGTERM`, `SIGKILL`…), when one did. */
  readonly signal: NodeJS.Signals | null;
}

/** The bounds of `close()`'s shutdown sequence, in milliseconds. Their sum bounds `close()`. */
export interface StdioShutdownTimeouts {
  /** After closing the server's stdin, how long to wait for it to exit before `SIGTERM` (default 2000). */
  readonly stdinMs?: number;
  /** After `SIGTERM`, how long to wait before `SIGKILL` (default 2000). */
  readonly sigtermMs?: number;
  /** After `SIGKILL`, how long to wait for the exit before giving up on the process (default 1000). */
  readonly sigkillMs?: number;
}

/** Options of {@link StdioClientTransport}. */
export interface StdioClientTransportOptions {
  /** The program to run (looked up on the child's `PATH`; no shell is involved). */
  readonly command: string;
  /** Its arguments, passed as they are (no shell quoting). */
  readonly args?: readonly string[];
  /**
   * Variables overlaid on {@link defaultEnvironment} (a small allow-list, not the host's whole environment); a
   * key set to `undefined` removes it. Pass `env: process.env` to hand over everything.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The server's working directory (default: this process's). */
  readonly cwd?: string | URL;
  /**
   * The server's stderr, where it logs: shown on this process's stderr (`'inherit'`, the default), discarded
   * (`'ignore'`), or readable as {@link StdioClientTransport.stderr} (`'pipe'`; then read it, or a chatty server
   * blocks once the pipe is full).
   */
  readonly stderr?: 'inherit' | 'pipe' | 'ignore';
  /** The longest line accepted from the server, in bytes (default 64 MiB); longer ones are skipped. */
  readonly maxMessageBytes?: number;
  /** Bounds of the shutdown sequence of `close()`. */
  readonly shutdownTimeouts?: StdioShutdownTimeouts;
}

/** The accepted values of {@link StdioClientTransportOptions.stderr}. */
export const STDERR_MODES = ['inherit', 'pipe', 'ignore'] as const;

/** `value` when it is a timer delay Node accepts (whole or not, in [0, 2^31)); throws `RangeError` otherwise. */
export function checkMilliseconds(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0 || value > 2_147_483_647) {
    throw new RangeError(`"${name}" expected milliseconds in [0, 2^31), got ${value}`);
  }
  return value;
}
