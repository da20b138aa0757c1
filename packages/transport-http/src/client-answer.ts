// How the client transport reads the answer to one POSTed request: a JSON body, or an event stream carrying the
// request's notifications (and, in a 2025-11-25 session, the server's requests) before its response. A
// 2025-11-25 stream that ends early after naming an event id is resumable: `resume` says where to pick it up.
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  RequestId,
} from '@boomerang/protocol';
import { messageKind, parseMessage } from '@boomerang/protocol/transport';
import { readText, type StopWhen, TooLargeError } from './body.js';
import { sseEvents } from './sse-reader.js';

const BODY_SNIPPET = 200;

/** What reading one answer needs from the transport. */
export interface AnswerReader {
  readonly id: RequestId;
  readonly method: string;
  /** The exchange's signal: once it aborted, the answer is `undefined`. */
  readonly signal: AbortSignal;
  /** What stops the body read when the exchange is aborted or the transport closes. */
  readonly stopWhen: StopWhen;
  /** The size limits of the answer (the transport's options of the same names). */
  readonly limits: AnswerLimits;
  /** True in a 2025-11-25 session: server requests on the stream are delivered, early ends are resumable. */
  readonly legacy: boolean;
  /** Hands on a message of the request (a notification, or a server request in a session). */
  deliver(message: JSONRPCNotification | JSONRPCRequest): void;
  /** The response as returned (id filled in, `tools/list` filtered). */
  finish(response: JSONRPCResponse): JSONRPCResponse;
  /** The marked transport failure that stands for the response (`undefined` once `signal` aborted). */
  failure(why: string, status?: number): JSONRPCResponse | undefined;
}

/** How large an answer may be: one event of an event stream, and a whole JSON (or other) body. */
export interface AnswerLimits {
  readonly maxEventBytes: number;
  readonly maxResponseBytes: number;
}

/** Where a 2025-11-25 event stream that ended early can be resumed (a GET with `Last-Event-ID`). */
export interface Resume {
  readonly lastEventId: string;
  /** The reconnection delay the server asked for, in milliseconds. */
  readonly retry: number | undefined;
}

/**
 * What reading an answer comes to: the response (or the failure that stands for it), `undefined` once the
 * exchange aborted, or `{ resume }` for a 2025-11-25 event stream that ended before the response.
 */
export type Answer = JSONRPCResponse | undefined | { resume: Resume };

/**
 * Reads `response` as the answer to `reader.id`: the response message (or the failure that stands for it), or
 * `{ resume }` for a 2025-11-25 event stream that ended before the response after giving an event id.
 */
export async function readAnswer(response: Response, reader: AnswerReader): Promise<Answer> {
  const { id, method, signal, stopWhen, limits } = reader;
  const type = response.headers.get('content-type')?.split(';', 1)[0]?.trim().toLowerCase();
  try {
    if (type === 'text/event-stream' && response.body !== null) {
      let resume: Resume = { lastEventId: '', retry: undefined };
      for await (const event of sseEvents(response.body, { stopWhen, maxEventBytes: limits.maxEventBytes })) {
        resume = { lastEventId: event.lastEventId, retry: event.retry };
        if (event.data === undefined) continue; // a priming event: only its id and retry matter
        const parsed = parseMessage(event.data);
        if (!parsed.ok) continue; // not a JSON-RPC message: nothing to correlate it with
        const kind = messageKind(parsed.message);
        if (kind === 'notification' || (kind === 'request' && reader.legacy)) {
          reader.deliver(parsed.message as JSONRPCNotification | JSONRPCRequest);
        } else if ((kind === 'result' || kind === 'error') && sameId(parsed.message, id)) {
          // The response ends the request; leaving the loop cancels the rest of the stream.
          return reader.finish(parsed.message as JSONRPCResponse);
        }
      }
      if (signal.aborted) return undefined;
      if (reader.legacy && resume.lastEventId !== '') return { resume };
      return reader.failure(`the event stream of ${method} ended before its response`);
    }
    const text = await readText(response.body, {
      stopWhen,
      maxBytes: limits.maxResponseBytes,
      contentLength: response.headers.get('content-length'),
    });
    if (signal.aborted) return undefined;
    const parsed = parseMessage(text);
    const kind = parsed.ok ? messageKind(parsed.message) : undefined;
    if (parsed.ok && (kind === 'error' || (kind === 'result' && response.ok)) && sameId(parsed.message, id)) {
      return reader.finish(parsed.message as JSONRPCResponse);
    }
    const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    const snippet = text.length > BODY_SNIPPET ? `${text.slice(0, BODY_SNIPPET)}…` : text;
    return reader.failure(
      `${method} got ${status} without a JSON-RPC response${snippet ? `: ${snippet}` : ''}`,
      response.status,
    );
  } catch (error) {
    if (error instanceof TooLargeError) return reader.failure(tooLarge(error, method), response.status);
    return reader.failure(`the response to ${method} broke off: ${describe(error)}`);
  }
}

/** What a failure says when an answer went past a size limit: which, and how to raise it. */
export function tooLarge(error: TooLargeError, method: string): string {
  const what =
    error.option === 'maxEventBytes'
      ? `an event of the event stream of ${method}`
      : `the answer to ${method}`;
  return (
    `${what} is larger than ${error.option} (${error.limit} bytes), so it was not read further; raise the ` +
    `${error.option} option of StreamableHttpClientTransport for a server trusted to send more`
  );
}

/** True when a response answers `id` (an id-less error answers whatever request it came back on). */
function sameId(message: JSONRPCMessage, id: RequestId): boolean {
  const got: unknown = message.id;
  return got === undefined || got === id;
}

/** An error's message with its cause's, for failure texts. */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

/** True for the `{ resume }` outcome of {@link readAnswer}. */
export function isResume(answer: Answer): answer is { resume: Resume } {
  return answer !== undefined && 'resume' in answer;
}
