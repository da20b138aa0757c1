// The 2025-11-25 side of the client transport: what an `initialize` answer started (the negotiated version and
// the server's `Mcp-Session-Id`), the headers it adds to every later POST, the GET stream that carries the
// server's messages unrelated to a request, and the DELETE that ends the session.
import type { JSONRPCMessage } from '@boomerang/protocol';
import { messageKind, parseMessage } from '@boomerang/protocol/transport';
import { TooLargeError } from '../body.js';
import { HeaderName, isObject } from '../headers.js';
import { sseData } from '../sse-reader.js';

/** The `fetch` the session calls (the transport's own). */
type Fetch = (input: URL, init: RequestInit) => Promise<Response>;

/** How long `end()` waits for the server to acknowledge the DELETE. */
const DELETE_TIMEOUT_MS = 2000;

/** One 2025-11-25 session of a client transport. */
export class LegacyHttpSession {
  /** The protocol version `initialize` negotiated: every later POST names it in `MCP-Protocol-Version`. */
  readonly version: string;
  /** The server's session id, `undefined` for a server that keeps no sessions. */
  readonly id: string | undefined;
  readonly #stream = new AbortController();
  #ended = false;

  private constructor(version: string, id: string | undefined) {
    this.version = version;
    this.id = id;
  }

  /**
   * The session an `initialize` exchange started, or `undefined` when its answer is not a successful
   * `InitializeResult` (the server refused, or speaks 2026-07-28).
   */
  static fromInitialize(
    response: Response,
    answer: JSONRPCMessage | undefined,
  ): LegacyHttpSession | undefined {
    if (answer === undefined || !('result' in answer) || !isObject(answer.result)) return undefined;
    const version = answer.result.protocolVersion;
    if (typeof version !== 'string') return undefined;
    const id = response.headers.get(HeaderName.session);
    return new LegacyHttpSession(version, id === null || !/^[\x21-\x7e]+$/.test(id) ? undefined : id);
  }

  /** True once the session ended (DELETE, or the server forgot it). */
  get ended(): boolean {
    return this.#ended;
  }

  /** The headers of every POST and GET in the session. */
  headers(): Record<string, string> {
    const headers: Record<string, string> = { 'MCP-Protocol-Version': this.version };
    if (this.id !== undefined) headers[HeaderName.session] = this.id;
    return headers;
  }

  /**
   * Opens the GET stream (when the server minted a session) and delivers the server's requests and
   * notifications from it until it ends or the session does. A server without one (405) is fine: every message
   * then rides on a POST stream. `headers` adds the transport's own (authorization). An event over
   * `maxEventBytes` closes the stream, with a warning.
   */
  async listen(
    fetch: Fetch,
    url: URL,
    headers: Headers,
    deliver: (message: JSONRPCMessage) => void,
    limit: { readonly maxEventBytes: number; readonly warn: (message: string) => void },
  ): Promise<void> {
    if (this.id === undefined || this.#ended) return;
    headers.set('accept', 'text/event-stream');
    for (const [name, value] of Object.entries(this.headers())) headers.set(name, value);
    const signal = this.#stream.signal;
    try {
      const response = await fetch(url, { method: 'GET', headers, signal });
      const type = response.headers.get('content-type')?.split(';', 1)[0]?.trim().toLowerCase();
      if (!response.ok || type !== 'text/event-stream' || response.body === null) {
        await response.body?.cancel().catch(() => {});
        return;
      }
      const options = { stopWhen: signal, maxEventBytes: limit.maxEventBytes };
      for await (const data of sseData(response.body, options)) {
        const parsed = parseMessage(data);
        if (!parsed.ok) continue;
        const kind = messageKind(parsed.message);
        if (kind === 'request' || kind === 'notification') deliver(parsed.message);
      }
    } catch (error) {
      // The stream broke or was closed: messages unrelated to a request are lost until the next session.
      if (error instanceof TooLargeError) {
        limit.warn(
          `the 2025-11-25 session's GET stream sent an event larger than maxEventBytes (${error.limit} bytes); ` +
            "it was closed, and the server's messages outside requests are lost until the next session",
        );
      }
    }
  }

  /**
   * Picks a request's event stream up again after it ended early: `GET` with `Last-Event-ID`, so that the
   * server replays what came after it (2025-11-25 resumability). Rejects when the server does not offer it
   * (any answer other than an event stream).
   */
  async resume(
    fetch: Fetch,
    url: URL,
    headers: Headers,
    lastEventId: string,
    signal: AbortSignal,
  ): Promise<Response> {
    headers.set('accept', 'text/event-stream');
    headers.set('last-event-id', lastEventId);
    for (const [name, value] of Object.entries(this.headers())) headers.set(name, value);
    const response = await fetch(url, { method: 'GET', headers, signal });
    const type = response.headers.get('content-type')?.split(';', 1)[0]?.trim().toLowerCase();
    if (!response.ok || type !== 'text/event-stream') {
      await response.body?.cancel().catch(() => {});
      throw new Error(`GET with Last-Event-ID answered HTTP ${response.status}`);
    }
    return response;
  }

  /** The server forgot the session (404): no DELETE is owed, the GET stream stops. */
  forget(): void {
    this.#ended = true;
    this.#stream.abort();
  }

  /** Ends the session: stops the GET stream and sends DELETE (best effort, bounded). Idempotent. */
  async end(fetch: Fetch, url: URL, headers: Headers): Promise<void> {
    if (this.#ended) return;
    this.forget();
    if (this.id === undefined) return;
    for (const [name, value] of Object.entries(this.headers())) headers.set(name, value);
    try {
      const response = await fetch(url, {
        method: 'DELETE',
        headers,
        signal: AbortSignal.timeout(DELETE_TIMEOUT_MS),
      });
      await response.body?.cancel().catch(() => {});
    } catch {
      // The server is gone or does not answer: the session ends with it.
    }
  }
}
