// The 2025-11-25 era of the client transport, plugged in at its seam (the transport hands it only messages that
// name no 2026-07-28 protocol version): an `initialize` goes out without the 2026-07-28 headers and, once answered
// with an `InitializeResult`, starts a session whose version and `Mcp-Session-Id` every later message carries;
// the server's requests arrive on a POST's event stream or the session's GET stream; cancellation is a
// `notifications/cancelled`; a stream that ends early after naming an event id is resumed with `Last-Event-ID`;
// a 404 ends the session (`initialize` again); closing sends DELETE.
import type { JSONRPCNotification, JSONRPCResponse, RequestId } from '@boomerang/protocol';
import { sleep } from '@boomerang/protocol/transport';
import { describe, isResume } from '../client-answer.js';
import type { ClientEra, ClientWire, EraRequest } from '../client-era.js';
import { HeaderName } from '../headers.js';
import { LegacyHttpSession } from './client-session.js';

/** How many times a request's event stream is picked up again before the request fails. */
const MAX_RESUMES = 5;
/** The reconnection delay when the server named none (the HTML event-stream default is a few seconds). */
const DEFAULT_RETRY_MS = 1000;
/** An `initialize` names its method, and nothing else the 2026-07-28 headers would say. */
const INITIALIZE_HEADERS: Readonly<Record<string, string>> = { [HeaderName.method]: 'initialize' };

/** The 2025-11-25 era of a client transport that lends it `wire`. */
export function legacyClientEra(wire: ClientWire): ClientEra {
  return new LegacyClientEra(wire);
}

class LegacyClientEra implements ClientEra {
  readonly #wire: ClientWire;
  /** The session an `initialize` started, if any. */
  #session: LegacyHttpSession | undefined;
  #closed = false;

  constructor(wire: ClientWire) {
    this.#wire = wire;
  }

  claim(method: string | undefined): Readonly<Record<string, string>> | undefined {
    if (method === 'initialize') return INITIALIZE_HEADERS;
    return this.#session?.headers();
  }

  async request(request: EraRequest): Promise<JSONRPCResponse | undefined> {
    const { method, caller, signal } = request;
    const session = this.#sessionOf(request.headers);
    const legacy = this.#session !== undefined;
    // 2025-11-25: closing the POST's stream cancels nothing; only the notification does.
    const stopCancel =
      legacy && caller !== undefined && !signal.aborted ? this.#cancelOnAbort(request, caller) : undefined;
    try {
      const response = await request.post();
      if (!(response instanceof Response)) return response;
      if (response.status === 404 && session !== undefined) {
        await response.body?.cancel().catch(() => {});
        this.#gone(session);
        return request.failure(`the 2025-11-25 session ended (HTTP 404 to ${method}); initialize again`, 404);
      }
      let answer = await request.read(response, legacy);
      // A stream that ended early after naming an event id is picked up again with GET.
      for (let resumes = 0; isResume(answer); resumes++) {
        const current = this.#session;
        if (current === undefined || resumes >= MAX_RESUMES) {
          return request.failure(`the event stream of ${method} ended before its response (not resumed)`);
        }
        const { lastEventId, retry } = answer.resume;
        let resumed: Response;
        try {
          await sleep(retry ?? DEFAULT_RETRY_MS, signal);
          const headers = await this.#wire.headers();
          resumed = await current.resume(this.#wire.fetch, this.#wire.url, headers, lastEventId, signal);
        } catch (error) {
          return request.failure(`could not resume the event stream of ${method}: ${describe(error)}`);
        }
        answer = await request.read(resumed, legacy);
      }
      if (method === 'initialize') this.#start(response, answer);
      return answer;
    } finally {
      stopCancel?.();
    }
  }

  sent(status: number, headers: Headers): void {
    const session = this.#sessionOf(headers);
    if (status === 404 && session?.id !== undefined) this.#gone(session);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const session = this.#session;
    this.#session = undefined;
    if (session !== undefined) {
      await session.end(this.#wire.fetch, this.#wire.url, await this.#wire.headers());
    }
  }

  /** The current session, when `headers` (a POST's) name it. */
  #sessionOf(headers: Headers): LegacyHttpSession | undefined {
    const session = this.#session;
    const id = headers.get(HeaderName.session);
    return session !== undefined && id !== null && session.id === id ? session : undefined;
  }

  /**
   * POSTs `notifications/cancelled` for the request as soon as `caller` aborts, until the returned function is
   * called (the exchange ended). Not when the transport closes: nobody is left to tell.
   */
  #cancelOnAbort(request: EraRequest, caller: AbortSignal): () => void {
    const onAbort = () => {
      if (!caller.aborted) return; // the transport closed
      const reason = caller.reason instanceof Error ? caller.reason.message : 'Request cancelled';
      void this.#wire.send(cancelled(request.id, reason)).catch(() => {});
    };
    return request.whenAborted(onAbort);
  }

  /** An `initialize` succeeded: later messages carry the session; its GET stream opens. */
  #start(response: Response, answer: JSONRPCResponse | undefined): void {
    const session = LegacyHttpSession.fromInitialize(response, answer);
    if (session === undefined || this.#closed) return;
    this.#session = session;
    const wire = this.#wire;
    void wire.headers().then((headers) =>
      session.listen(wire.fetch, wire.url, headers, (message) => wire.deliver(message), {
        maxEventBytes: wire.maxEventBytes,
        warn: (message) => wire.warn(message),
      }),
    );
  }

  /** The server forgot `session` (404): later messages go without it until the next `initialize`. */
  #gone(session: LegacyHttpSession): void {
    session.forget();
    if (this.#session === session) this.#session = undefined;
  }
}

function cancelled(requestId: RequestId, reason: string): JSONRPCNotification {
  return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason } };
}
