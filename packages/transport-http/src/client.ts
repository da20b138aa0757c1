import {
  ErrorCode,
  type JSONRPCMessage,
  type JSONRPCResponse,
  jsonRpcError,
  MessageQueue,
  MetaKey,
  messageKind,
  type RequestId,
  type Transport,
  type TransportSendOptions,
  transportFailureData,
} from '@boomerang/protocol';
import { type AnswerReader, describe, isResume, readAnswer, sleep } from './client-answer.js';
import { LegacyHttpSession } from './client-session.js';
import { ToolHeaders } from './client-tool-headers.js';
import { HeaderName, isObject } from './headers.js';

/** The `fetch` the client transport calls; `globalThis.fetch` fits, and so does a test double or a handler. */
export type FetchLike = (input: URL, init: RequestInit) => Promise<Response>;

/** Options of {@link StreamableHttpClientTransport}. */
export interface StreamableHttpClientTransportOptions {
  /** The `fetch` to use (default `globalThis.fetch`): a proxy agent, a test double, or `createHttpHandler`'s. */
  readonly fetch?: FetchLike | undefined;
  /**
   * Headers sent with every POST (e.g. `Authorization`), or a function called before each POST (token refresh).
   * They override the protocol headers; `TransportSendOptions.headers` override them in turn.
   */
  readonly headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>) | undefined;
  /** Receives warnings, e.g. a tool dropped for an invalid `x-mcp-header`. Default `console.warn`. */
  readonly onWarning?: ((message: string) => void) | undefined;
}

/** A POST's init, its headers as `#headersFor` built them. */
type PostInit = RequestInit & { headers: Headers };

/** How many times a 2025-11-25 request's event stream is picked up again before the request fails. */
const MAX_RESUMES = 5;
/** The reconnection delay when the server named none (the HTML event-stream default is a few seconds). */
const DEFAULT_RETRY_MS = 1000;

/**
 * The client side of Streamable HTTP, revision 2026-07-28, as a stream {@link Transport}: every message is its
 * own POST to `url`, and responses (a JSON body, or the last event of an SSE stream after the request's progress
 * and log notifications) arrive on `messages`.
 *
 * - Every POST carries `Accept: application/json, text/event-stream`, `MCP-Protocol-Version` (from the
 *   message's `_meta`), `Mcp-Method`, `Mcp-Name` (for `tools/call`, `prompts/get`, `resources/read`) and the
 *   `Mcp-Param-*` headers declared with `x-mcp-header` in the latest `tools/list` result seen. Values that are not
 *   plain ASCII travel as `=?base64?…?=`.
 * - A `tools/call` refused with `-32020` is retried once, with the same id, when a fresh `tools/list` changed the
 *   tool's `x-mcp-header` declarations (the spec's SHOULD); the refresh is not yielded.
 * - `tools/list` results are filtered: a tool whose `x-mcp-header` declarations break the spec's rules is
 *   dropped, with a warning (the spec's MUST for HTTP clients).
 * - A notification POST resolves `send` on 202 and rejects it on an HTTP error. `notifications/cancelled` is
 *   never POSTed: on HTTP, closing the response stream is the cancellation, so it aborts that request's POST.
 * - Aborting `options.signal` aborts the POST or its stream; nothing more is yielded for that request.
 * - An HTTP error whose body is a JSON-RPC error is yielded as that error (with the request's id when the body
 *   had none). Anything else that ends a request without its response (a network error, a non-JSON-RPC body
 *   such as a proxy's HTML 502, an event stream that ends or breaks before the response) is yielded as a
 *   `-32603` error response for that id whose message says what happened; the request is lost, and the caller
 *   may send it again with a new id.
 *
 * `send` resolves once a request's POST is under way (its answer comes on `messages`), and once the server
 * accepted a notification. `close()` aborts every POST in flight and ends `messages`.
 */
export class StreamableHttpClientTransport implements Transport {
  /** Every POST ends in its response or a marked transport failure: a client never times out an era probe here. */
  readonly reportsEveryOutcome = true;
  readonly #url: URL;
  readonly #fetch: FetchLike;
  readonly #headers: StreamableHttpClientTransportOptions['headers'];
  readonly #queue = new MessageQueue();
  readonly #inflight = new Map<string, AbortController>();
  readonly #all = new AbortController();
  /** `x-mcp-header` declarations per tool name, from the latest `tools/list` results. */
  readonly #toolHeaders: ToolHeaders;
  /** The 2025-11-25 session an `initialize` started, if any. */
  #session: LegacyHttpSession | undefined;
  #closed = false;
  #refreshes = 0;

  /** The transport for the MCP endpoint at `url`. Nothing is sent until the first `send`. */
  constructor(url: URL | string, options: StreamableHttpClientTransportOptions = {}) {
    this.#url = new URL(url);
    if (this.#url.protocol !== 'http:' && this.#url.protocol !== 'https:') {
      throw new TypeError(`"url" expected an http: or https: URL, got ${this.#url.protocol}`);
    }
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#headers = options.headers;
    this.#toolHeaders = new ToolHeaders(
      options.onWarning ?? ((message) => console.warn(`[transport-http] ${message}`)),
    );
    this.messages = this.#queue.iterable({ onReturn: () => this.close() });
  }

  /** Responses and request-scoped notifications, in arrival order; ends on `close()`. One consumer. */
  readonly messages: AsyncIterable<JSONRPCMessage>;

  /** POSTs one request or notification (see the class comment). Rejects once closed. */
  async send(message: JSONRPCMessage, options: TransportSendOptions = {}): Promise<void> {
    if (this.#closed) throw new Error('StreamableHttpClientTransport is closed');
    options.signal?.throwIfAborted();
    const kind = messageKind(message);
    const answersServer = (kind === 'result' || kind === 'error') && this.#session !== undefined;
    if (kind !== 'request' && kind !== 'notification' && !answersServer) {
      throw new TypeError(
        'Streamable HTTP clients send requests and notifications, and responses only in a 2025-11-25 session',
      );
    }
    const { method, params } = message as { method?: string; params?: Record<string, unknown> };
    if (method === 'notifications/cancelled') {
      const requestId = params?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') {
        this.#inflight.get(keyOf(requestId))?.abort(new Error('cancelled by the client'));
      }
      // 2026-07-28: closing the stream is the cancellation. 2025-11-25: only the notification is.
      if (this.#session === undefined) return;
    }
    const body = JSON.stringify(message); // the snapshot: later mutation of `message` does not travel
    const headers = await this.#headersFor(method, params, options.headers);
    if (this.#closed) throw new Error('StreamableHttpClientTransport is closed');
    const controller = new AbortController();
    const signals = [controller.signal, this.#all.signal];
    if (options.signal !== undefined) signals.push(options.signal);
    const signal = AbortSignal.any(signals);
    const init: PostInit = { method: 'POST', headers, body, signal };

    if (kind !== 'request') {
      const what = method ?? 'a response';
      let response: Response;
      try {
        response = await this.#fetch(this.#url, init);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw new Error(`POST ${this.#url.href} failed: ${describe(error)}`, { cause: error });
      }
      await response.body?.cancel().catch(() => {});
      if (response.status === 404 && this.#session?.id !== undefined) this.#sessionGone(this.#session);
      if (!response.ok) throw new Error(`POST ${this.#url.href} answered HTTP ${response.status} to ${what}`);
      return;
    }

    const id = (message as { id: RequestId }).id;
    const key = keyOf(id);
    this.#inflight.set(key, controller);
    const headersAgain = (sent: Record<string, unknown> | undefined) =>
      this.#headersFor(method as string, sent, options.headers);
    void this.#exchange(id, method as string, body, init, headersAgain, signal).finally(() => {
      if (this.#inflight.get(key) === controller) this.#inflight.delete(key);
    });
  }

  /**
   * POSTs request `id` and yields its answer, or the error that stands for it. A `tools/call` refused with
   * `-32020` is retried once (same id: the server did not run it) if a fresh `tools/list` changed the tool's
   * `x-mcp-header` declarations, as the spec advises.
   */
  async #exchange(
    id: RequestId,
    method: string,
    body: string,
    init: PostInit,
    headersAgain: (params: Record<string, unknown> | undefined) => Promise<Headers>,
    signal: AbortSignal,
  ): Promise<void> {
    let answer = await this.#roundTrip(id, method, init, signal);
    if (method === 'tools/call' && isHeaderMismatch(answer)) {
      const { params } = JSON.parse(body) as { params?: Record<string, unknown> }; // the snapshot that was sent
      const name = params?.name;
      if (typeof name === 'string' && (await this.#refreshParamHeaders(name, params?._meta, signal))) {
        answer = await this.#roundTrip(id, method, { ...init, headers: await headersAgain(params) }, signal);
      }
    }
    if (answer !== undefined) this.#deliver(answer);
  }

  /** Re-reads `tools/list` (every page, at most 20); true when `name`'s declarations changed. */
  async #refreshParamHeaders(name: string, meta: unknown, signal: AbortSignal): Promise<boolean> {
    const before = this.#toolHeaders.fingerprint(name);
    let cursor: unknown;
    for (let page = 0; page < 20 && !signal.aborted; page++) {
      const id = `transport-http/tools-list/${++this.#refreshes}`;
      const params = { _meta: meta, ...(typeof cursor === 'string' && { cursor }) };
      const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params });
      const headers = await this.#headersFor('tools/list', params, undefined);
      const answer = await this.#roundTrip(
        id,
        'tools/list',
        { method: 'POST', headers, body, signal },
        signal,
      );
      const result = answer !== undefined && 'result' in answer ? answer.result : undefined;
      if (!isObject(result)) break;
      cursor = result.nextCursor;
      if (typeof cursor !== 'string') break;
    }
    return this.#toolHeaders.fingerprint(name) !== before;
  }

  /**
   * One POST and its answer: yields the request's notifications as they come (and, in a 2025-11-25 session, the
   * server's requests) and resolves to its response (`tools/list` filtered), or to the error that stands for it,
   * or `undefined` once `signal` aborted. A 2025-11-25 `initialize` answered with an `InitializeResult` starts
   * the session; a 404 to a POST of a session ends it (the client must `initialize` again).
   */
  async #roundTrip(
    id: RequestId,
    method: string,
    init: PostInit,
    signal: AbortSignal,
  ): Promise<JSONRPCMessage | undefined> {
    const failure = (why: string, status?: number) =>
      signal.aborted
        ? undefined
        : (jsonRpcError(id, {
            code: ErrorCode.InternalError,
            message: `HTTP transport: ${why}`,
            data: transportFailureData(status),
          }) as JSONRPCMessage);
    const session = init.headers.has(HeaderName.session) ? this.#session : undefined;
    let response: Response;
    try {
      response = await this.#fetch(this.#url, init);
    } catch (error) {
      return failure(`could not POST ${method} to ${this.#url.href}: ${describe(error)}`);
    }
    if (response.status === 404 && session !== undefined) {
      await response.body?.cancel().catch(() => {});
      this.#sessionGone(session);
      return failure(`the 2025-11-25 session ended (HTTP 404 to ${method}); initialize again`, 404);
    }
    const reader: AnswerReader = {
      id,
      method,
      signal,
      legacy: this.#session !== undefined,
      deliver: (message) => this.#deliver(message),
      finish: (message) => this.#withId(message, id, method),
      failure,
    };
    let answer = await readAnswer(response, reader);
    // 2025-11-25: a stream that ended early after naming an event id is picked up again with GET.
    for (let resumes = 0; isResume(answer); resumes++) {
      const current = this.#session;
      if (current === undefined || resumes >= MAX_RESUMES) {
        return failure(`the event stream of ${method} ended before its response (not resumed)`);
      }
      const { lastEventId, retry } = answer.resume;
      try {
        await sleep(retry ?? DEFAULT_RETRY_MS, signal);
        response = await current.resume(
          this.#fetch,
          this.#url,
          await this.#commonHeaders(),
          lastEventId,
          signal,
        );
      } catch (error) {
        return failure(`could not resume the event stream of ${method}: ${describe(error)}`);
      }
      answer = await readAnswer(response, reader);
    }
    if (method === 'initialize' && !isModern(init.body)) this.#startSession(response, answer);
    return answer;
  }

  /** A 2025-11-25 `initialize` succeeded: later POSTs carry the session; its GET stream opens. */
  #startSession(response: Response, answer: JSONRPCMessage | undefined): void {
    const session = LegacyHttpSession.fromInitialize(response, answer);
    if (session === undefined || this.#closed) return;
    this.#session = session;
    void this.#commonHeaders().then((headers) =>
      session.listen(this.#fetch, this.#url, headers, (message) => this.#deliver(message)),
    );
  }

  /** The server forgot `session` (404): later messages go without it until the next `initialize`. */
  #sessionGone(session: LegacyHttpSession): void {
    session.forget();
    if (this.#session === session) this.#session = undefined;
  }

  /**
   * Aborts every POST in flight and ends `messages`; a 2025-11-25 session is ended with DELETE first (best
   * effort, bounded). Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const session = this.#session;
    this.#session = undefined;
    if (session !== undefined) await session.end(this.#fetch, this.#url, await this.#commonHeaders());
    this.#all.abort(new Error('StreamableHttpClientTransport is closed'));
    this.#inflight.clear();
    this.#queue.end();
  }

  /** Same as {@link close}: `await using transport = new StreamableHttpClientTransport(url)`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * The headers of one POST: 2026-07-28 messages (and a 2025-11-25 `initialize`) name their method, target and
   * mirrored arguments; the messages of a 2025-11-25 session carry its version and `Mcp-Session-Id` instead.
   */
  async #headersFor(
    method: string | undefined,
    params: Record<string, unknown> | undefined,
    extra: Readonly<Record<string, string>> | undefined,
  ): Promise<Headers> {
    const meta = isObject(params?._meta) ? params._meta : {};
    const version = meta[MetaKey.protocolVersion];
    const headers = new Headers({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    });
    if (typeof version !== 'string' && this.#session !== undefined && method !== 'initialize') {
      for (const [name, value] of Object.entries(this.#session.headers())) headers.set(name, value);
    } else if (method === 'initialize' && typeof version !== 'string') {
      headers.set(HeaderName.method, method);
    } else if (method !== undefined) {
      this.#toolHeaders.write(headers, method, params, version);
    }
    for (const [key, value] of await this.#commonHeaders()) headers.set(key, value);
    for (const [key, value] of Object.entries(extra ?? {})) headers.set(key, value);
    return headers;
  }

  /** The `headers` option's headers (called before every exchange: a token may have been refreshed). */
  async #commonHeaders(): Promise<Headers> {
    return new Headers(typeof this.#headers === 'function' ? await this.#headers() : this.#headers);
  }

  /** The response as delivered: `id` filled in when the server could not read it, `tools/list` filtered. */
  #withId(response: JSONRPCResponse, id: RequestId, method: string): JSONRPCMessage {
    if ('error' in response) return response.id === undefined ? { ...response, id } : response;
    return method === 'tools/list' ? this.#toolHeaders.filter(response) : response;
  }

  #deliver(message: JSONRPCMessage): void {
    if (!this.#closed) this.#queue.push(message);
  }
}

/** True when a POST body (JSON text) is a message whose `_meta` names its protocol version (2026-07-28). */
function isModern(body: unknown): boolean {
  if (typeof body !== 'string') return false;
  try {
    const { params } = JSON.parse(body) as { params?: { _meta?: Record<string, unknown> } };
    return typeof params?._meta?.[MetaKey.protocolVersion] === 'string';
  } catch {
    return false;
  }
}

/** True for a `-32020` (HeaderMismatch) error response. */
function isHeaderMismatch(message: JSONRPCMessage | undefined): boolean {
  return (
    message !== undefined &&
    'error' in message &&
    (message.error as { code?: unknown }).code === ErrorCode.HeaderMismatch
  );
}

function keyOf(id: RequestId): string {
  return `${typeof id}:${String(id)}`;
}
