// Reading a request body under a size limit, and writing/reading Server-Sent Events.

/**
 * What reading a body gives: the bytes, that the body went past the limit (`{ ok: false }`), or why there is no
 * body to read (`unreadable`: a node request whose stream a body parser already consumed).
 */
export type BodyResult =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly unreadable?: string | undefined };

/**
 * Reads `request.body` chunk by chunk and stops (cancelling the stream) as soon as more than `limit` bytes
 * arrived, so an endless or huge body costs at most `limit` bytes of memory. A `Content-Length` above the limit
 * is refused before reading anything.
 */
export async function readBody(request: Request, limit: number): Promise<BodyResult> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) return { ok: false };
  if (request.body === null) return { ok: true, bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      return { ok: false };
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return { ok: true, bytes: chunks[0] as Uint8Array };
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

const encoder = new TextEncoder();

/**
 * One SSE event carrying one JSON-RPC message: `event: message`, one `data:` line (JSON text has no raw line
 * breaks), a blank line. No `id:` field: 2026-07-28 streams are not resumable.
 */
export function sseEvent(message: unknown): Uint8Array {
  return encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

/**
 * Parses an SSE byte stream into the `data` of each event (multi-line data joined with `\n`), per the HTML
 * event-stream rules: `\r\n`, `\r` or `\n` line ends, a leading BOM, comment lines (`:` keep-alives) and
 * fields other than `data` ignored, events without data skipped.
 */
export async function* sseData(
  body: ReadableStream<Uint8Array>,
  stopWhen?: StopWhen,
): AsyncGenerator<string, void, undefined> {
  for await (const event of sseEvents(body, stopWhen)) {
    if (event.data !== undefined) yield event.data;
  }
}

/** One parsed SSE event: its data (`undefined` for an event that only set `id` or `retry`), and the stream state. */
export interface SseEvent {
  readonly data: string | undefined;
  /** The stream's last event ID after this event (the `id` field persists across events; `''` for none). */
  readonly lastEventId: string;
  /** The reconnection time the stream asked for (`retry` field, milliseconds), if it ever did. */
  readonly retry: number | undefined;
}

/**
 * Parses an SSE byte stream into events, per the HTML event-stream rules (see {@link sseData}), keeping the `id`
 * (an id containing NUL is ignored) and `retry` (ASCII digits only) fields that 2025-11-25 resumability uses.
 * An event with neither data nor a new `id`/`retry` is skipped.
 */
export async function* sseEvents(
  body: ReadableStream<Uint8Array>,
  stopWhen?: StopWhen,
): AsyncGenerator<SseEvent, void, undefined> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const unsubscribe = onStop(stopWhen, () => void reader.cancel().catch(() => {}));
  const lineEnd = /\r\n|\r|\n/g;
  let buffer = '';
  let scanned = 0; // buffer[0, scanned) holds no line end: a long line is scanned once, not once per chunk
  let data: string[] = [];
  let lastEventId = '';
  let retry: number | undefined;
  let changed = false; // `id` or `retry` set since the last event
  let first = true;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (first && buffer.length > 0) {
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
        first = false;
      }
      let start = 0;
      for (;;) {
        lineEnd.lastIndex = Math.max(start, scanned);
        const match = lineEnd.exec(buffer);
        // A lone `\r` at the end of the buffer may be the first half of `\r\n`: wait for more.
        if (match === null || (match[0] === '\r' && match.index === buffer.length - 1 && !done)) {
          scanned = match === null ? buffer.length : match.index;
          break;
        }
        const line = buffer.slice(start, match.index);
        start = match.index + match[0].length;
        if (line === '') {
          if (data.length > 0 || changed) {
            yield { data: data.length > 0 ? data.join('\n') : undefined, lastEventId, retry };
          }
          data = [];
          changed = false;
          continue;
        }
        const colon = line.indexOf(':');
        if (colon === 0) continue; // a comment
        const field = colon < 0 ? line : line.slice(0, colon);
        const raw = colon < 0 ? '' : line.slice(colon + 1);
        const text = raw.startsWith(' ') ? raw.slice(1) : raw;
        if (field === 'data') data.push(text);
        else if (field === 'id' && !text.includes('\0')) {
          lastEventId = text;
          changed = true;
        } else if (field === 'retry' && /^\d+$/.test(text)) {
          retry = Number(text);
          changed = true;
        }
      }
      buffer = buffer.slice(start);
      scanned -= start;
      if (scanned < 0) scanned = 0;
      if (done) break;
    }
  } finally {
    unsubscribe();
    reader.cancel().catch(() => {});
  }
}

/**
 * When a read must stop: an `AbortSignal`, or a function that registers `stop` and returns its unregistration (a
 * transport that shares one close signal among many reads registers them in a set of its own, instead of adding a
 * listener per read to one signal).
 */
export type StopWhen = AbortSignal | ((stop: () => void) => () => void);

/** Calls `stop` once when `stopWhen` says so (at once if its signal already aborted); returns the unregistration. */
function onStop(stopWhen: StopWhen | undefined, stop: () => void): () => void {
  if (stopWhen === undefined) return () => {};
  if (typeof stopWhen === 'function') return stopWhen(stop);
  if (stopWhen.aborted) {
    stop();
    return () => {};
  }
  stopWhen.addEventListener('abort', stop, { once: true });
  return () => stopWhen.removeEventListener('abort', stop);
}

/**
 * Reads a whole body as UTF-8 text; `stopWhen` cancels the read (a `fetch` whose response was built in process,
 * such as a handler called directly, does not tie its body to the request's signal).
 */
export async function readText(body: ReadableStream<Uint8Array> | null, stopWhen: StopWhen): Promise<string> {
  if (body === null) return '';
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const unsubscribe = onStop(stopWhen, () => void reader.cancel().catch(() => {}));
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    unsubscribe();
  }
}
