import { Buffer } from 'node:buffer';
import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import {
  argumentError,
  ErrorCode,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
} from '@boomerang/protocol';
import { parseMessage } from '@boomerang/protocol/transport';

// The stdio wire format (MCP 2026-07-28, basic/transports/stdio), shared by both ends:
//
// - one JSON-RPC message per line, UTF-8, each line ended by "\n" (LF, byte 0x0A);
// - `JSON.stringify` never emits a raw line feed (it escapes control characters inside strings), so a message
//   can never contain an embedded newline;
// - readers also accept "\r\n" line ends, ignore blank (whitespace-only) lines, and take a last line without a
//   line end at end of stream;
// - a line longer than `maxMessageBytes` is discarded as it streams in (never buffered whole).

/** Default cap on one incoming line: 64 MiB, far above any real MCP message, well below V8's string limit. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;

const noop = (): void => {};

/** At most this many lines leave in one corked write, so the reader can start on them while more are written. */
const MAX_BATCH_LINES = 8;

/**
 * Serializes one message as a wire line (JSON text plus "\n"). Throws `TypeError` for a value JSON cannot carry
 * (a cycle, a `BigInt`) or that is not a JSON object, so a bad message fails at `send` instead of on the peer.
 */
export function serializeMessage(message: JSONRPCMessage): string {
  let text: unknown;
  try {
    text = JSON.stringify(message);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TypeError(`"message" expected a JSON-serializable object: ${reason}`, {
      cause: error,
    });
  }
  if (typeof text !== 'string' || !text.startsWith('{')) {
    throw argumentError('message', 'a JSON-RPC message object', message);
  }
  return `${text}\n`;
}

/** Throws `RangeError` unless `value` is a positive safe integer (a byte count). */
export function checkMaxMessageBytes(value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`"maxMessageBytes" expected a positive integer, got ${value}`);
  }
  return value;
}

/**
 * Splits a byte stream into lines. Chunks are kept as a list and joined once per line, so a line of several MB
 * that arrives in thousands of chunks costs linear time; each chunk is scanned once for line feeds. Lines are
 * handed out as bytes (decoding happens once, with the whole line, so a multi-byte character split across chunks
 * is never damaged), without their "\n" or "\r\n", and blank lines are dropped.
 */
export class LineSplitter {
  readonly #maxBytes: number;
  readonly #onLine: (line: Uint8Array) => void;
  readonly #onOversize: () => void;
  #parts: Uint8Array[] = [];
  #size = 0;
  #discarding = false;

  /**
   * @param maxBytes - the longest line kept; a longer one is dropped as it streams in and reported once.
   * @param onLine - receives every non-blank line.
   * @param onOversize - called once per line that exceeded `maxBytes`.
   */
  constructor(maxBytes: number, onLine: (line: Uint8Array) => void, onOversize: () => void) {
    this.#maxBytes = maxBytes;
    this.#onLine = onLine;
    this.#onOversize = onOversize;
  }

  /** Feeds the next chunk of the stream. */
  push(chunk: Uint8Array): void {
    let start = 0;
    for (let end = chunk.indexOf(LF); end !== -1; end = chunk.indexOf(LF, start)) {
      this.#append(chunk.subarray(start, end));
      this.#emit();
      start = end + 1;
    }
    if (start < chunk.length) this.#append(chunk.subarray(start));
  }

  /** The stream ended: a last line without a line end still counts. */
  flush(): void {
    if (this.#size > 0 || this.#discarding) this.#emit();
  }

  #append(part: Uint8Array): void {
    if (this.#discarding || part.length === 0) return;
    if (this.#size + part.length > this.#maxBytes) {
      this.#parts = [];
      this.#size = 0;
      this.#discarding = true;
      this.#onOversize();
      return;
    }
    this.#parts.push(part);
    this.#size += part.length;
  }

  #emit(): void {
    const parts = this.#parts;
    const size = this.#size;
    this.#parts = [];
    this.#size = 0;
    if (this.#discarding) {
      this.#discarding = false;
      return;
    }
    let line = parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts, size);
    if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
    if (!isBlank(line)) this.#onLine(line);
  }
}

function isBlank(line: Uint8Array): boolean {
  for (const byte of line) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== CR) return false;
  }
  return true;
}

/** What {@link readMessages} reports. */
export interface MessageReaderHandlers {
  /** The longest line accepted, in bytes. */
  readonly maxMessageBytes: number;
  /** A well-formed JSON-RPC message (envelope checked by `parseMessage`), and the length of its line in bytes. */
  onMessage(message: JSONRPCMessage, bytes: number): void;
  /**
   * A line that is not a JSON-RPC message: the error response a server answers with (`-32700` not JSON, `-32600`
   * not JSON-RPC or too large) and the line's bytes (`undefined` for a line too large to keep).
   */
  onInvalid(error: JSONRPCErrorResponse, line: Uint8Array | undefined): void;
  /** The stream ended (EOF), failed (`error`) or was destroyed. Called once. */
  onEnd(error?: Error): void;
}

/**
 * Reads newline-delimited JSON-RPC messages from `input` until it ends, parsing each line with the protocol's
 * `parseMessage`. Returns `detach`, which stops reading (pauses the stream, so `process.stdin` no longer keeps
 * the process alive) and silences every later report. An `error` listener stays attached for good: a stream we
 * were given must never crash the process with an unhandled `'error'`.
 */
export function readMessages(input: Readable, handlers: MessageReaderHandlers): () => void {
  let attached = true;
  const splitter = new LineSplitter(
    handlers.maxMessageBytes,
    (line) => {
      const parsed = parseMessage(line);
      if (parsed.ok) handlers.onMessage(parsed.message, line.length);
      else handlers.onInvalid(parsed.error, line);
    },
    () => handlers.onInvalid(tooLarge(handlers.maxMessageBytes), undefined),
  );
  const onData = (chunk: Uint8Array | string) => {
    if (attached) splitter.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  };
  const finish = (error?: Error) => {
    if (!attached) return;
    if (error === undefined) splitter.flush();
    detach();
    handlers.onEnd(error);
  };
  const onEnd = () => finish();
  const onError = (error: Error) => finish(error);
  const onClose = () => finish();
  const detach = () => {
    if (!attached) return;
    attached = false;
    input.off('data', onData);
    input.off('end', onEnd);
    input.off('error', onError);
    input.off('close', onClose);
    input.pause();
  };
  input.on('error', noop);
  input.on('data', onData);
  input.on('end', onEnd);
  input.on('error', onError);
  input.on('close', onClose);
  if (input.readableEnded) queueMicrotask(onEnd);
  else if (input.destroyed) queueMicrotask(onClose);
  return detach;
}

function tooLarge(maxBytes: number): JSONRPCErrorResponse {
  return {
    jsonrpc: '2.0',
    error: {
      code: ErrorCode.InvalidRequest,
      message: `Invalid Request: message larger than ${maxBytes} bytes`,
    },
  } as JSONRPCErrorResponse;
}

/**
 * Writes lines to `output` in call order, honouring back-pressure: when `output.write` reports a full buffer,
 * the next lines wait for `'drain'`, and the write that filled it resolves only then, so a sender awaiting
 * each `send` never grows the buffer without bound. A stream error (EPIPE when the reader went away) fails the
 * current and every later write, and is reported once through `onFailure`. Lines written in the same tick are
 * corked and leave together (one `writev` on a pipe or socket) when the tick ends, or as soon as 8 are queued, so
 * the reader can start on them while the rest are written.
 */
export class LineWriter {
  readonly #output: Writable;
  readonly #onFailure: (error: Error) => void;
  #tail: Promise<void> = Promise.resolve();
  #failure: Error | undefined;
  #ending: Promise<void> | undefined;
  #ended = false;
  /** The lines corked in this tick: settles once they left (uncork), with the stream's error if that failed. */
  #batch: Promise<void> | undefined;
  #batched = 0;
  #flush: () => void = noop;

  constructor(output: Writable, onFailure: (error: Error) => void) {
    this.#output = output;
    this.#onFailure = onFailure;
    output.on('error', (error: Error) => this.#fail(error));
    output.on('close', () => {
      if (!this.#ended) this.#fail(new Error('the output stream was closed'));
    });
  }

  /** The error that broke the stream, once it broke. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /**
   * Queues one line. Resolves once the stream accepted it (after `'drain'` when its buffer was full); rejects
   * with the stream's error, or with `signal.reason` when `signal` aborted before the line was written.
   */
  write(line: string, signal?: AbortSignal): Promise<void> {
    // The chain moves on as soon as a line is buffered, so the lines of one tick share one cork; each caller
    // then waits for its batch to leave.
    let batch: Promise<void> | undefined;
    const written = this.#tail.then(async () => {
      batch = (await this.#writeNow(line, signal)).batch;
    });
    this.#tail = written.then(noop, noop);
    return written.then(() => batch);
  }

  /**
   * Writes what is queued, then ends the stream (`end()`: EOF for the reader). Resolves once the stream finished
   * or failed; never rejects. Waits for the queued lines, so a reader that never reads can hold it up: callers
   * that need a bound race it with a timer.
   */
  end(): Promise<void> {
    this.#ending ??= this.#tail.then(
      () =>
        new Promise<void>((resolve) => {
          const output = this.#output;
          this.#ended = true;
          if (this.#failure !== undefined || output.destroyed || output.writableFinished) return resolve();
          output.once('error', () => resolve());
          output.once('close', () => resolve());
          output.end(() => resolve());
        }),
    );
    return this.#ending;
  }

  /** Buffers one line in this tick's batch (waiting for `'drain'` when the buffer is full); returns the batch. */
  async #writeNow(line: string, signal: AbortSignal | undefined): Promise<{ batch: Promise<void> }> {
    signal?.throwIfAborted();
    const output = this.#output;
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#ended || output.writableEnded) throw new Error('the output stream has ended');
    if (output.destroyed) throw new Error('the output stream was closed');
    this.#batch ??= this.#cork(output);
    const batch = this.#batch;
    const accepted = output.write(line);
    if (++this.#batched >= MAX_BATCH_LINES) this.#flush();
    if (accepted) return { batch };
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        output.off('drain', onDrain);
        output.off('error', onError);
        output.off('close', onClose);
        if (error === undefined) resolve();
        else reject(error);
      };
      const onDrain = () => settle();
      const onError = (error: Error) => settle(error);
      const onClose = () => settle(this.#failure ?? new Error('the output stream was closed'));
      output.on('drain', onDrain);
      output.on('error', onError);
      output.on('close', onClose);
    });
    return { batch };
  }

  /**
   * Corks `output` until the end of this tick, or until {@link MAX_BATCH_LINES} lines are queued: the lines
   * written meanwhile leave in one write (`writev`). A
   * stdout pipe is written synchronously, one system call per write, which with many requests in flight costs
   * more than serving them. Settles once uncorked: rejects with the stream's error if writing them failed.
   */
  #cork(output: Writable): Promise<void> {
    output.cork();
    const batch = new Promise<void>((resolve, reject) => {
      let flushed = false;
      const flush = () => {
        if (flushed) return;
        flushed = true;
        this.#batch = undefined;
        this.#batched = 0;
        this.#flush = noop;
        output.uncork();
        const error = output.errored;
        if (error === null || error === undefined) return resolve();
        this.#fail(error);
        reject(error);
      };
      this.#flush = flush;
      process.nextTick(flush);
    });
    batch.catch(noop); // callers that do not wait for their line must not see an unhandled rejection
    return batch;
  }

  #fail(error: Error): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    this.#onFailure(error);
  }
}
