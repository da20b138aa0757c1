import { Buffer } from 'node:buffer';
import type * as ChildProcesses from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import process from 'node:process';
import type { Readable } from 'node:stream';
import { argumentError, type JSONRPCErrorResponse, type JSONRPCMessage } from '@boomerang/protocol';
import { MessageQueue, type Transport, type TransportSendOptions } from '@boomerang/protocol/transport';
import {
  checkMilliseconds,
  STDERR_MODES,
  type StdioClientTransportOptions,
  type StdioExit,
  type StdioShutdownTimeouts,
} from './client-options.js';
import { serverEnvironment } from './environment.js';
import {
  checkMaxMessageBytes,
  DEFAULT_MAX_MESSAGE_BYTES,
  LineWriter,
  readMessages,
  serializeMessage,
} from './framing.js';

/** Once the process exited, how long its stdout may stay open (a grandchild holding it) before reading stops. */
const STDOUT_AFTER_EXIT_MS = 1000;
/** When a write fails or stdout ends, how long `send` waits for the exit status so its error can name it. */
const EXIT_STATUS_WAIT_MS = 500;
const noop = (): void => {};

let loaded: typeof ChildProcesses | undefined;

/**
 * `node:child_process`, loaded by the first spawn rather than when the package is imported: a stdio *server*
 * imports this package too, and `child_process` (with `net` and `dgram` behind it) adds milliseconds to its
 * cold start for nothing.
 */
function childProcesses(): typeof ChildProcesses {
  loaded ??= createRequire(import.meta.url)('node:child_process') as typeof ChildProcesses;
  return loaded;
}

/**
 * The client end of the stdio transport: spawns an MCP server as a child process and exchanges newline-delimited
 * JSON-RPC with it over its stdin and stdout (MCP 2026-07-28, basic/transports/stdio).
 *
 * - **Start**: the process is spawned by whichever comes first of `start()`, the first `send`, or iterating
 *   `messages` (so `client.connect(transport)` is enough). `start()` resolves once it runs; a spawn failure
 *   (`ENOENT`: no such program) rejects `start()` and every `send` with an error naming the command, its cause
 *   being Node's error, and ends `messages`.
 * - **Framing** as on the server end. A line from the server that is not a JSON-RPC message is skipped with a
 *   `process.emitWarning` (code `BOOMERANG_STDIO_INVALID_LINE`, shown on stderr unless the host listens to
 *   `process.on('warning')`): a misbehaving server never breaks the client.
 * - **Death**: when the server exits, crashes or is killed, or closes its stdout, `messages` ends (so a client
 *   fails every request in flight at once) and `send` rejects with `Error("stdio transport is closed: the server
 *   process (pid 42) exited with code 1")` (or "was killed by SIGKILL"). {@link exit} tells the status. A
 *   transport is used once: to restart the server, create a new transport with the same options.
 * - **`close()`** (idempotent, bounded): ends the server's stdin, waits up to `stdinMs` for it to exit, then
 *   sends `SIGTERM`, waits up to `sigtermMs`, then `SIGKILL` and waits up to `sigkillMs`. It resolves when the
 *   process is gone and `messages` has ended. On Windows, Node's `kill()` terminates the process at once.
 */
export class StdioClientTransport implements Transport {
  /** Messages from the server, in order; one consumer. Ends once the server is gone. */
  readonly messages: AsyncIterable<JSONRPCMessage>;
  readonly #command: string;
  readonly #args: string[];
  readonly #cwd: string | URL | undefined;
  readonly #env: Record<string, string>;
  readonly #stderr: 'inherit' | 'pipe' | 'ignore';
  readonly #maxMessageBytes: number;
  readonly #timeouts: Required<StdioShutdownTimeouts>;
  readonly #queue = new MessageQueue();
  readonly #exited = deferred();
  readonly #finished = deferred();
  #child: ChildProcess | undefined;
  #writer: LineWriter | undefined;
  #detach: (() => void) | undefined;
  #starting: Promise<void> | undefined;
  #spawned = false;
  #spawnError: Error | undefined;
  #closedByCaller = false;
  #done = false;
  #stdoutEnded = false;
  #stdinFailure: Error | undefined;
  #exit: StdioExit | undefined;
  #stdoutGrace: ReturnType<typeof setTimeout> | undefined;
  #terminating: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  /**
   * Checks the options; spawns nothing yet. Throws `TypeError` for a missing `command`, non-string `args` or an
   * unknown `stderr` mode, and `RangeError` for a negative or non-finite timeout or a bad `maxMessageBytes`.
   */
  constructor(options: StdioClientTransportOptions) {
    const { command, args = [], stderr = 'inherit' }: Partial<StdioClientTransportOptions> = options ?? {};
    if (typeof command !== 'string' || command === '') {
      throw argumentError('command', 'a non-empty string', command);
    }
    if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) {
      throw argumentError('args', 'an array of strings', args);
    }
    if (!STDERR_MODES.includes(stderr)) {
      throw argumentError('stderr', `one of ${STDERR_MODES.join(', ')}`, stderr);
    }
    this.#command = command;
    this.#args = [...args];
    this.#cwd = options.cwd;
    this.#env = serverEnvironment(options.env);
    this.#stderr = stderr;
    this.#maxMessageBytes = checkMaxMessageBytes(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
    const timeouts = options.shutdownTimeouts ?? {};
    this.#timeouts = {
      stdinMs: checkMilliseconds('shutdownTimeouts.stdinMs', timeouts.stdinMs ?? 2000),
      sigtermMs: checkMilliseconds('shutdownTimeouts.sigtermMs', timeouts.sigtermMs ?? 2000),
      sigkillMs: checkMilliseconds('shutdownTimeouts.sigkillMs', timeouts.sigkillMs ?? 1000),
    };
    this.messages = this.#queue.iterable({
      onStart: () => void this.start().catch(noop),
      onReturn: () => this.close(),
    });
  }

  /** The server's process id once spawned; `undefined` before, or when spawning failed. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the server process ended, once it did; `undefined` while it runs (or if it never started). */
  get exit(): StdioExit | undefined {
    return this.#exit;
  }

  /** The server's stderr with `stderr: 'pipe'` once spawned; otherwise `null`. */
  get stderr(): Readable | null {
    return this.#child?.stderr ?? null;
  }

  /**
   * Spawns the server process (once; later calls return the same promise). Resolves when it runs; rejects when
   * it cannot be started (the error names the command; its `cause` is Node's error, e.g. code `ENOENT`), or
   * when the transport was closed first.
   */
  start(): Promise<void> {
    this.#starting ??= this.#spawn();
    return this.#starting;
  }

  /**
   * Writes one message as a line on the server's stdin, spawning the server first if needed. The message is
   * serialized when `send` is called. Resolves once the pipe accepted the line (waiting for `'drain'` when full).
   * Rejects with `TypeError` for a value JSON cannot carry, with `signal.reason` when aborted before the line
   * was written, and with an `Error` saying why the transport is closed (closed by `close()`, the server's exit
   * code or signal, or the spawn failure).
   */
  async send(message: JSONRPCMessage, options: TransportSendOptions = {}): Promise<void> {
    options.signal?.throwIfAborted();
    const line = serializeMessage(message);
    if (!this.#spawned && !this.#isClosed()) await this.start();
    if (this.#isClosed()) throw await this.#closedError();
    try {
      await (this.#writer as LineWriter).write(line, options.signal);
    } catch (error) {
      if (options.signal?.aborted && error === options.signal.reason) throw error;
      throw await this.#closedError(error);
    }
  }

  /**
   * Shuts the server down: ends its stdin, waits, `SIGTERM`, waits, `SIGKILL` (see
   * {@link StdioShutdownTimeouts}), and resolves once it is gone and `messages` has ended. Idempotent; never
   * rejects.
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  /** Same as {@link close}: `await using transport = new StdioClientTransport({ … })`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #spawn(): Promise<void> {
    if (this.#isClosed()) return this.#closedError().then((error) => Promise.reject(error));
    let child: ChildProcess;
    try {
      child = childProcesses().spawn(this.#command, this.#args, {
        ...(this.#cwd === undefined ? {} : { cwd: this.#cwd }),
        env: this.#env,
        stdio: ['pipe', 'pipe', this.#stderr],
        windowsHide: true,
      });
    } catch (error) {
      this.#onSpawnError(error);
      return this.#closedError().then((closed) => Promise.reject(closed));
    }
    this.#child = child;
    const { stdin, stdout } = child;
    if (stdin === null || stdout === null) throw new Error('unreachable: stdin and stdout are pipes');
    this.#writer = new LineWriter(stdin, (error) => {
      this.#stdinFailure ??= error;
    });
    this.#detach = readMessages(stdout, {
      maxMessageBytes: this.#maxMessageBytes,
      onMessage: (message) => this.#queue.push(message),
      onInvalid: (error, line) => this.#warnInvalid(error, line),
      onEnd: () => this.#onStdoutEnd(),
    });
    child.once('exit', (code, signal) => this.#onExit(code, signal));
    return new Promise((resolve, reject) => {
      child.once('spawn', () => {
        this.#spawned = true;
        resolve();
      });
      child.on('error', (error) => {
        if (this.#spawned) return; // a failed kill(): the shutdown sequence escalates and bounds the wait anyway
        this.#onSpawnError(error);
        void this.#closedError().then(reject);
      });
    });
  }

  #onSpawnError(error: unknown): void {
    const where = this.#cwd === undefined ? '' : ` in ${String(this.#cwd)}`;
    const reason = error instanceof Error ? error.message : String(error);
    this.#spawnError = new Error(`stdio transport could not start "${this.#command}"${where}: ${reason}`, {
      cause: error,
    });
    this.#exited.resolve();
    this.#finish();
  }

  #onStdoutEnd(): void {
    this.#stdoutEnded = true;
    // The server closed its output: nothing more can come back, so shut it down (it may already be exiting).
    if (this.#spawned && this.#exit === undefined) void this.#terminate();
    this.#maybeFinish();
  }

  #onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.#exit = { code, signal };
    this.#exited.resolve();
    if (!this.#stdoutEnded) this.#stdoutGrace = setTimeout(() => this.#finish(), STDOUT_AFTER_EXIT_MS);
    this.#maybeFinish();
  }

  #maybeFinish(): void {
    if (this.#stdoutEnded && (this.#exit !== undefined || this.#spawnError !== undefined)) this.#finish();
  }

  /** Ends `messages` and releases the pipes. Idempotent. */
  #finish(): void {
    if (this.#done) return;
    this.#done = true;
    clearTimeout(this.#stdoutGrace);
    this.#detach?.();
    this.#child?.stdout?.destroy();
    this.#child?.stdin?.destroy();
    this.#queue.end();
    this.#finished.resolve();
  }

  #terminate(): Promise<void> {
    this.#terminating ??= (async () => {
      const child = this.#child;
      if (child === undefined || !this.#spawned || this.#exit !== undefined) return;
      void this.#writer?.end();
      if (await this.#exitWithin(this.#timeouts.stdinMs)) return;
      child.kill('SIGTERM');
      if (await this.#exitWithin(this.#timeouts.sigtermMs)) return;
      child.kill('SIGKILL');
      await this.#exitWithin(this.#timeouts.sigkillMs);
    })();
    return this.#terminating;
  }

  async #close(): Promise<void> {
    this.#closedByCaller = true;
    if (this.#starting !== undefined) {
      await this.#starting.catch(noop);
      await this.#terminate();
    }
    // Never started, or still running after SIGKILL (stuck in the kernel): stop waiting for it.
    if (this.#exit === undefined) this.#finish();
    await this.#finished.promise;
  }

  #isClosed(): boolean {
    return (
      this.#closedByCaller ||
      this.#spawnError !== undefined ||
      this.#exit !== undefined ||
      this.#stdoutEnded ||
      this.#stdinFailure !== undefined
    );
  }

  /** Why `send` fails, naming the exit status when the process is gone (waiting briefly for it to be known). */
  async #closedError(cause?: unknown): Promise<Error> {
    if (this.#spawnError !== undefined) {
      return new Error(this.#spawnError.message, { cause: this.#spawnError.cause });
    }
    if (!this.#closedByCaller && this.#exit === undefined) await this.#exitWithin(EXIT_STATUS_WAIT_MS);
    const withCause = cause === undefined ? undefined : { cause };
    if (this.#closedByCaller) return new Error('stdio transport is closed', withCause);
    const pid = `the server process (pid ${this.#child?.pid})`;
    const exit = this.#exit;
    const why =
      exit !== undefined
        ? `${pid} ${exit.signal === null ? `exited with code ${exit.code}` : `was killed by ${exit.signal}`}`
        : this.#stdoutEnded
          ? `${pid} closed its stdout`
          : `writing to ${pid} failed (${this.#stdinFailure?.message ?? 'the pipe broke'})`;
    return new Error(`stdio transport is closed: ${why}`, withCause);
  }

  async #exitWithin(ms: number): Promise<boolean> {
    if (this.#exit !== undefined || this.#spawnError !== undefined) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    try {
      return await Promise.race([this.#exited.promise.then(() => true), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  #warnInvalid(error: JSONRPCErrorResponse, line: Uint8Array | undefined): void {
    const preview =
      line === undefined
        ? ''
        : `: ${Buffer.from(line.buffer, line.byteOffset, Math.min(line.length, 200)).toString('utf8')}${line.length > 200 ? '…' : ''}`;
    process.emitWarning(
      `ignored a line from the MCP server process (pid ${this.#child?.pid}) that is not a JSON-RPC message ` +
        `(${error.error.message})${preview}`,
      { type: 'StdioTransportWarning', code: 'BOOMERANG_STDIO_INVALID_LINE' },
    );
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = noop;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
