import { sseEvent } from './body.js';

/** Response headers of every event stream the endpoint opens. */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
} as const;

/** An event stream being written: one JSON-RPC message per event. */
export interface EventStream {
  /** The `200 text/event-stream` response that carries the stream. */
  readonly response: Response;
  /** False once the stream was closed by either side. */
  readonly open: boolean;
  /** Writes one message as an event; false (nothing written) once the stream is closed. */
  write(message: unknown): boolean;
  /** Ends the stream (after the events written so far). Idempotent. */
  close(): void;
}

/**
 * Opens an event stream. `onCancel` runs once when the client stops reading it (it closed the connection or
 * cancelled the body), never when {@link EventStream.close} ends it.
 */
export function openEventStream(onCancel: (reason: unknown) => void): EventStream {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel(reason) {
      if (!open) return;
      open = false;
      onCancel(reason ?? new Error('the client closed the event stream'));
    },
  });
  return {
    response: new Response(body, { status: 200, headers: SSE_HEADERS }),
    get open() {
      return open;
    },
    write(message) {
      if (!open) return false;
      try {
        controller?.enqueue(sseEvent(message));
        return true;
      } catch {
        open = false; // cancelled meanwhile
        return false;
      }
    },
    close() {
      if (!open) return;
      open = false;
      try {
        controller?.close();
      } catch {
        // cancelled meanwhile
      }
    },
  };
}
