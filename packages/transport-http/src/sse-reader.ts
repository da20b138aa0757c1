// Reading Server-Sent Events on the client, in linear time and bounded memory: the byte stream is scanned once for
// line ends (CR and LF never occur inside a UTF-8 sequence, so lines are cut on bytes and each is decoded once),
// and no event may grow past `maxEventBytes`.
import { onStop, type StopWhen, TooLargeError } from './body.js';

/** One parsed SSE event: its data (`undefined` for an event that only set `id` or `retry`), and the stream state. */
export interface SseEvent {
  readonly data: string | undefined;
  /** The stream's last event ID after this event (the `id` field persists across events; `''` for none). */
  readonly lastEventId: string;
  /** The reconnection time the stream asked for (`retry` field, milliseconds), if it ever did. */
  readonly retry: number | undefined;
}

/** Options of {@link sseEvents} and {@link sseData}. */
export interface SseReadOptions {
  /** What stops the read (the stream is cancelled). */
  readonly stopWhen?: StopWhen | undefined;
  /**
   * The most bytes one event may hold: its `data` lines as sent (`data:` included, line ends not), plus the line
   * being read, whatever its field (so a line that never ends is cut off too). Beyond it the stream is cancelled
   * and the read rejects with a {@link TooLargeError}. Comments and other fields do not add up across lines.
   */
  readonly maxEventBytes?: number | undefined;
}

/**
 * Parses an SSE byte stream into the `data` of each event (multi-line data joined with `\n`), per the HTML
 * event-stream rules: `\r\n`, `\r` or `\n` line ends, a leading BOM, comment lines (`:` keep-alives) and
 * fields other than `data` ignored, events without data skipped.
 */
export async function* sseData(
  body: ReadableStream<Uint8Array>,
  options?: SseReadOptions,
): AsyncGenerator<string, void, undefined> {
  for await (const event of sseEvents(body, options)) {
    if (event.data !== undefined) yield event.data;
  }
}

/**
 * Parses an SSE byte stream into events, per the HTML event-stream rules (see {@link sseData}), keeping the `id`
 * (an id containing NUL is ignored) and `retry` (ASCII digits only) fields that 2025-11-25 resumability uses.
 * An event with neither data nor a new `id`/`retry` is skipped; an event the stream ends in is dropped. Each byte
 * is looked at a bounded number of times whatever the chunking, and memory is bounded by `maxEventBytes`.
 */
export async function* sseEvents(
  body: ReadableStream<Uint8Array>,
  options: SseReadOptions = {},
): AsyncGenerator<SseEvent, void, undefined> {
  const parser = new SseParser(options.maxEventBytes ?? Number.POSITIVE_INFINITY);
  const reader = body.getReader();
  const unsubscribe = onStop(options.stopWhen, () => void reader.cancel().catch(() => {}));
  const ready: SseEvent[] = [];
  const emit = (event: SseEvent) => void ready.push(event);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      let failure: unknown;
      try {
        parser.push(value, emit);
      } catch (error) {
        failure = error; // the events completed before it still count
      }
      for (const event of ready) yield event;
      ready.length = 0;
      if (failure !== undefined) throw failure;
    }
  } finally {
    unsubscribe();
    reader.cancel().catch(() => {});
  }
}

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const DATA = [0x64, 0x61, 0x74, 0x61];
const ID = [0x69, 0x64];
const RETRY = [0x72, 0x65, 0x74, 0x72, 0x79];

/**
 * The event-stream parser's state between chunks: the pieces of the line being read (views of the chunks, never
 * copied until the line ends), and the event being built.
 */
class SseParser {
  readonly #maxEventBytes: number;
  /** Decodes whole lines: a BOM inside a value is data (the stream's own BOM is stripped by `#line`). */
  readonly #decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** The line being read, as views of the chunks it arrived in. */
  #pieces: Uint8Array[] = [];
  #lineBytes = 0;
  /** The current event's data lines, and their size in bytes as sent (without line ends). */
  #data: string[] = [];
  #eventBytes = 0;
  #lastEventId = '';
  #retry: number | undefined;
  /** `id` or `retry` set since the last event. */
  #changed = false;
  /** The previous chunk ended with CR: an LF starting this one belongs to that line end. */
  #afterCr = false;
  /** No line ended yet: the first one may start with a BOM. */
  #firstLine = true;

  constructor(maxEventBytes: number) {
    this.#maxEventBytes = maxEventBytes;
  }

  /** Reads one chunk, handing each completed event to `emit`; throws `TooLargeError` past the event limit. */
  push(chunk: Uint8Array, emit: (event: SseEvent) => void): void {
    const end = chunk.length;
    let pos = 0;
    if (this.#afterCr && end > 0) {
      if (chunk[0] === LF) pos = 1;
      this.#afterCr = false;
    }
    // The next CR and LF at or after `pos`; each is searched again only once `pos` passed it, so a chunk is
    // scanned once however many lines it holds (-1: none left in this chunk).
    let nextLf = -2;
    let nextCr = -2;
    while (pos < end) {
      if (nextLf !== -1 && nextLf < pos) nextLf = chunk.indexOf(LF, pos);
      if (nextCr !== -1 && nextCr < pos) nextCr = chunk.indexOf(CR, pos);
      const at = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
      if (at === -1) break;
      this.#line(this.#take(chunk, pos, at), emit);
      pos = at + 1;
      if (chunk[at] === CR) {
        if (pos === end) this.#afterCr = true;
        else if (chunk[pos] === LF) pos++;
      }
    }
    if (pos < end) {
      this.#pieces.push(chunk.subarray(pos));
      this.#lineBytes += end - pos;
      this.#check(this.#lineBytes);
    }
  }

  /** The line ending at `chunk[at]`: the pieces kept so far and `chunk[pos, at)`, joined once. */
  #take(chunk: Uint8Array, pos: number, at: number): Uint8Array {
    const tail = chunk.subarray(pos, at);
    if (this.#pieces.length === 0) return tail;
    const line = new Uint8Array(this.#lineBytes + tail.length);
    let offset = 0;
    for (const piece of this.#pieces) {
      line.set(piece, offset);
      offset += piece.length;
    }
    line.set(tail, offset);
    this.#pieces = [];
    this.#lineBytes = 0;
    return line;
  }

  /** Throws when the current event plus `pending` bytes would pass the limit. */
  #check(pending: number): void {
    if (this.#eventBytes + pending > this.#maxEventBytes) {
      this.#pieces = [];
      this.#data = [];
      throw new TooLargeError('maxEventBytes', this.#maxEventBytes);
    }
  }

  /** One complete line (without its line end). */
  #line(line: Uint8Array, emit: (event: SseEvent) => void): void {
    let bytes = line;
    if (this.#firstLine) {
      this.#firstLine = false;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    }
    if (bytes.length === 0) {
      this.#dispatch(emit);
      return;
    }
    if (bytes[0] === COLON) return; // a comment
    const colon = bytes.indexOf(COLON);
    const nameEnd = colon < 0 ? bytes.length : colon;
    let valueStart = colon < 0 ? bytes.length : colon + 1;
    if (bytes[valueStart] === SPACE) valueStart++;
    if (isField(bytes, nameEnd, DATA)) {
      this.#check(line.length);
      this.#data.push(this.#decoder.decode(bytes.subarray(valueStart)));
      this.#eventBytes += line.length;
    } else if (isField(bytes, nameEnd, ID)) {
      const id = this.#decoder.decode(bytes.subarray(valueStart));
      if (!id.includes('\0')) {
        this.#lastEventId = id;
        this.#changed = true;
      }
    } else if (isField(bytes, nameEnd, RETRY)) {
      const text = this.#decoder.decode(bytes.subarray(valueStart));
      if (/^\d+$/.test(text)) {
        this.#retry = Number(text);
        this.#changed = true;
      }
    }
  }

  /** A blank line: the event ends, and is handed on when it carries data or changed `id` / `retry`. */
  #dispatch(emit: (event: SseEvent) => void): void {
    const data = this.#data;
    if (data.length > 0 || this.#changed) {
      emit({
        data: data.length === 0 ? undefined : data.length === 1 ? data[0] : data.join('\n'),
        lastEventId: this.#lastEventId,
        retry: this.#retry,
      });
    }
    if (data.length > 0) this.#data = [];
    this.#eventBytes = 0;
    this.#changed = false;
  }
}

/** True when `line[0, nameEnd)` is the field name `name` (ASCII bytes). */
function isField(line: Uint8Array, nameEnd: number, name: readonly number[]): boolean {
  if (nameEnd !== name.length) return false;
  for (let i = 0; i < nameEnd; i++) if (line[i] !== name[i]) return false;
  return true;
}
