// Reading bodies under a size limit (a request on the server, a response on the client), and writing Server-Sent
// Events (sse-reader.ts reads them).

/**
 * What reading a body gives: the bytes, that the body went past the limit (`{ ok: false }`), or why there is no
 * body to read (`unreadable`: a node request whose stream a body parser already consumed).
 */
export type BodyResult =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly unreadable?: string | undefined };

/**
 * Reads a request's body under `limit` bytes. A `Content-Length` above the limit is refused before reading
 * anything; one within it is read whole by the runtime's own `arrayBuffer()` (HTTP framing holds the body to its
 * declared length, and a fetch framework's light request, such as `@hono/node-server`'s, reads it from the socket
 * without building a stream), and refused if what came is over the limit all the same. A body of undeclared length
 * (chunked) is read chunk by chunk, and the read stops (cancelling the stream) as soon as more than `limit` bytes
 * arrived, so an endless or huge body costs at most `limit` bytes of memory.
 */
export async function readBody(request: Request, limit: number): Promise<BodyResult> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared)) {
    const length = Number(declared);
    if (length > limit) return { ok: false };
    const bytes = new Uint8Array(await request.arrayBuffer());
    return bytes.byteLength > limit ? { ok: false } : { ok: true, bytes };
  }
  return readStream(request, limit);
}

/** {@link readBody} of a body whose length was not declared: chunk by chunk, cut past `limit`. */
async function readStream(request: Request, limit: number): Promise<BodyResult> {
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
 * When a read must stop: an `AbortSignal`, or a function that registers `stop` and returns its unregistration (a
 * transport that shares one close signal among many reads registers them in a set of its own, instead of adding a
 * listener per read to one signal).
 */
export type StopWhen = AbortSignal | ((stop: () => void) => () => void);

/** Calls `stop` once when `stopWhen` says so (at once if its signal already aborted); returns the unregistration. */
export function onStop(stopWhen: StopWhen | undefined, stop: () => void): () => void {
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
 * A body (or one event of an event stream) went past its size limit: the read stopped there and the stream was
 * cancelled. `option` names the setting that sets the limit.
 */
export class TooLargeError extends Error {
  override readonly name = 'TooLargeError';
  readonly option: 'maxEventBytes' | 'maxResponseBytes';
  readonly limit: number;

  constructor(option: 'maxEventBytes' | 'maxResponseBytes', limit: number) {
    super(`larger than ${option} (${limit} bytes)`);
    this.option = option;
    this.limit = limit;
  }
}

/** Options of {@link readText}. */
export interface ReadTextOptions {
  /** What stops the read (a `fetch` whose response was built in process does not tie its body to the signal). */
  readonly stopWhen: StopWhen;
  /** The most bytes read; a declared `Content-Length` above it is refused before reading. Default: no limit. */
  readonly maxBytes?: number | undefined;
  /** The body's `Content-Length` header, if any. */
  readonly contentLength?: string | null | undefined;
}

/**
 * Reads a whole body as UTF-8 text, chunk by chunk, each chunk decoded once. Past `maxBytes` (or with a larger
 * `Content-Length`) it cancels the body and rejects with a {@link TooLargeError}, so an endless or huge body
 * costs at most `maxBytes` of memory. When `stopWhen` stops it, it resolves to the text read so far.
 */
export async function readText(
  body: ReadableStream<Uint8Array> | null,
  options: ReadTextOptions,
): Promise<string> {
  const { stopWhen, maxBytes = Number.POSITIVE_INFINITY, contentLength } = options;
  if (body === null) return '';
  if (contentLength != null && /^\d+$/.test(contentLength) && Number(contentLength) > maxBytes) {
    body.cancel().catch(() => {});
    throw new TooLargeError('maxResponseBytes', maxBytes);
  }
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const unsubscribe = onStop(stopWhen, () => void reader.cancel().catch(() => {}));
  // Appended as it comes: V8 keeps the pieces and joins them once, when the text is first read (nothing here
  // scans it in between), so this stays linear.
  let text = '';
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      size += value.byteLength;
      if (size > maxBytes) {
        reader.cancel().catch(() => {});
        throw new TooLargeError('maxResponseBytes', maxBytes);
      }
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    unsubscribe();
  }
}
