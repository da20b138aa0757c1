import { Buffer } from 'node:buffer';
import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@boomerang/protocol';
import { MessageQueue, type Transport, type TransportSendOptions } from '@boomerang/protocol/transport';
import {
  checkMaxMessageBytes,
  DEFAULT_MAX_MESSAGE_BYTES,
  LineWriter,
  readMessages,
  serializeMessage,
} from './framing.js';

/** Options of {@link StdioServerTransport}. */
export interface StdioServerTransportOptions {
  /** Where messages come from (default `process.stdin`). Any byte stream works: a socket, a pipe, a test stream. */
  readonly stdin?: Readable;
  /** Where messages go (default `process.stdout`). Nothing else may be written to it. */
  readonly stdout?: Writable;
  /**
   * The longest incoming line, in bytes (default 64 MiB). A longer line is discarded while it streams in, never
   * buffered whole, and answered with `-32600`.
   */
  readonly maxMessageBytes?: number;
  /**
   * Back-pressure bound, in bytes (default 16 MiB): stdin is paused while the messages read but not yet taken
   * from `messages`, plus the lines sent but not yet accepted by stdout, exceed it, and resumed once they are
   * under half of it. A client that writes requests but never reads the replies then blocks on its own full
   * pipe instead of growing this process's memory.
   */
  readonly maxBufferedBytes?: number;
}

/** Default {@link StdioServerTransportOptions.maxBufferedBytes}: 16 MiB. */
const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/**
 * The server end of the stdio transport: newline-delimited JSON-RPC on the process's stdin and stdout (MCP
 * 2026-07-28, basic/transports/stdio). Serve a server with `server.connect(new StdioServerTransport())`.
 *
 * - **Reading** starts when `messages` is first iterated. Each line is one message; "\r\n" ends and blank lines
 *   are accepted; lines split across chunks and lines of many MB work in linear time.
 * - **Bad lines never reach the server**: a line that is not JSON is answered with `-32700`, one that is JSON but
 *   not a JSON-RPC message (an array, a number, a wrong envelope) with `-32600` (echoing its `id` when readable),
 *   and reading goes on with the next line.
 * - **stdin EOF is the client closing the connection** (the spec's graceful shutdown): `messages` ends after the
 *   messages already read, and the transport closes (later `send`s reject). Nothing is left holding the event
 *   loop, so a server program exits promptly once its work is done.
 * - **Writing**: one `JSON.stringify` line per message, in `send` order; `send` resolves once stdout accepted
 *   the line and waits for `'drain'` when its buffer is full. Only protocol messages are written: log to stderr
 *   (`console.error`), never with `console.log`.
 * - **Back-pressure**: reading pauses while more than `maxBufferedBytes` (16 MiB) wait, read but not yet taken
 *   from `messages` or sent but not yet accepted by stdout; a client that never reads its replies stalls on its
 *   own pipe, and this process's memory stays bounded.
 * - `close()` stops reading, ends `messages`, writes what is queued and ends stdout. It is idempotent; `send`
 *   then rejects with `Error("stdio transport is closed…")`, as it does once stdout fails (EPIPE: the client
 *   went away).
 */
export class StdioServerTransport implements Transport {
  /** Messages from the client, in order; one consumer. Ends on stdin EOF or `close()`. */
  readonly messages: AsyncIterable<JSONRPCMessage>;
  readonly #input: Readable;
  readonly #writer: LineWriter;
  readonly #maxMessageBytes: number;
  readonly #maxBufferedBytes: number;
  readonly #queue = new MessageQueue();
  /** Bytes of lines handed to the writer and not yet accepted by stdout. */
  #unsent = 0;
  /** Whether stdin is paused for back-pressure. */
  #paused = false;
  #detach: (() => void) | undefined;
  #closedBecause: string | undefined;
  #closing: Promise<void> | undefined;

  /** Throws `RangeError` for a `maxMessageBytes` or `maxBufferedBytes` that is not a positive integer. */
  constructor(options: StdioServerTransportOptions = {}) {
    this.#input = options.stdin ?? process.stdin;
    this.#maxMessageBytes = checkMaxMessageBytes(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
    const buffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    if (!Number.isSafeInteger(buffered) || buffered <= 0) {
      throw new RangeError(`"maxBufferedBytes" expected a positive integer, got ${buffered}`);
    }
    this.#maxBufferedBytes = buffered;
    this.#writer = new LineWriter(options.stdout ?? process.stdout, (error) => {
      void this.#shutDown(`stdout failed (${error.message})`);
    });
    this.messages = this.#queue.iterable({
      onStart: () => this.#startReading(),
      onReturn: () => this.close(),
      onNext: () => this.#throttle(),
    });
  }

  /**
   * Writes one message as a line on stdout. The message is serialized when `send` is called (later mutation
   * does not travel). Rejects with `TypeError` for a value JSON cannot carry, with `signal.reason` when aborted
   * before the line was written, and with `Error("stdio transport is closed…")` once closed.
   */
  async send(message: JSONRPCMessage, options: TransportSendOptions = {}): Promise<void> {
    options.signal?.throwIfAborted();
    const line = serializeMessage(message);
    if (this.#closedBecause !== undefined) throw this.#closedError();
    try {
      await this.#write(line, options.signal);
    } catch (error) {
      if (options.signal?.aborted && error === options.signal.reason) throw error;
      throw this.#closedError(error);
    }
  }

  /** Writes one line, counted as unsent until stdout accepted it (see `maxBufferedBytes`). */
  async #write(line: string, signal?: AbortSignal): Promise<void> {
    const bytes = Buffer.byteLength(line);
    this.#unsent += bytes;
    this.#throttle();
    try {
      await this.#writer.write(line, signal);
    } finally {
      this.#unsent -= bytes;
      this.#throttle();
    }
  }

  /** Pauses stdin while more than `maxBufferedBytes` wait (read and untaken, or sent and unaccepted). */
  #throttle(): void {
    if (this.#detach === undefined || this.#closedBecause !== undefined) return;
    const buffered = this.#queue.weight + this.#unsent;
    if (!this.#paused && buffered > this.#maxBufferedBytes) {
      this.#paused = true;
      this.#input.pause();
    } else if (this.#paused && buffered <= this.#maxBufferedBytes / 2) {
      this.#paused = false;
      this.#input.resume();
    }
  }

  /** Stops reading, ends `messages`, flushes and ends stdout. Idempotent. */
  close(): Promise<void> {
    return this.#shutDown(undefined);
  }

  /** Same as {@link close}: `await using transport = new StdioServerTransport()`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #startReading(): void {
    if (this.#closedBecause !== undefined) return;
    this.#detach = readMessages(this.#input, {
      maxMessageBytes: this.#maxMessageBytes,
      onMessage: (message, bytes) => {
        this.#queue.push(message, bytes);
        this.#throttle();
      },
      onInvalid: (error) => {
        // Answered here, so a bad line never reaches the server and the next line is served as usual.
        if (this.#closedBecause === undefined) this.#write(serializeMessage(error)).catch(() => {});
      },
      onEnd: (error) =>
        void this.#shutDown(error === undefined ? 'stdin ended' : `stdin failed (${error.message})`),
    });
  }

  #shutDown(reason: string | undefined): Promise<void> {
    if (this.#closing === undefined) {
      this.#closedBecause = reason ?? '';
      this.#detach?.();
      this.#queue.end();
      this.#closing = this.#writer.end();
    }
    return this.#closing;
  }

  #closedError(cause?: unknown): Error {
    const because = this.#closedBecause || (cause instanceof Error ? cause.message : '');
    const message = because === '' ? 'stdio transport is closed' : `stdio transport is closed: ${because}`;
    return new Error(message, cause === undefined ? undefined : { cause });
  }
}
