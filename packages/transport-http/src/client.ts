import {
  ErrorCode,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type RequestId,
  transportFailureData,
} from '@boomerang/protocol';
import { consoleLogger } from '@boomerang/protocol/internal';
import {
  type ExchangeOptions,
  type FetchLike,
  jsonRpcError,
  MessageQueue,
  messageKind,
  type RequestTransport,
  type TransportSendOptions,
} from '@boomerang/protocol/transport';
import { type AnswerLimits, type AnswerReader, describe, isResume, readAnswer } from './client-answer.js';
import type { ClientEra, ClientWire } from './client-era.js';
import {
  fetchGuarded,
  followRedirects,
  isRedirect,
  REDIRECT_POLICIES,
  type RedirectPolicy,
  RedirectRefusedError,
} from './client-redirects.js';
import { type ExchangeSignal, ExchangeSignals } from './client-signals.js';
import { ToolHeaders } from './client-tool-headers.js';
import { clientEra } from './eras.js';
import { isObject } from './headers.js';
import { protocolVersionOf } from './protocol-version.js';

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
  /**
   * The most bytes one event of an event stream may hold (default 64 MiB): its data, or a line that never ends.
   * A larger one closes the stream, and the request fails with a transport failure naming this option. A tool
   * result over SSE is one event, so this is also the largest result an event stream can carry.
   */
  readonly maxEventBytes?: number | undefined;
  /**
   * The most bytes of a response body that is not an event stream (default 64 MiB): a JSON answer, or an error
   * page. A larger `Content-Length` is refused before reading; a body that grows past it is cancelled there. The
   * request then fails with a transport failure naming this option.
   */
  readonly maxResponseBytes?: number | undefined;
  /**
   * Which redirects are followed (default `'same-origin'`): 307/308 to the endpoint's own origin, sent again with
   * the same body; `'error'` follows none. A redirect to another origin is never followed (it would re-send the
   * arguments, answers, state and credentials of the request to a host nobody chose): the request fails with a
   * transport failure saying where it pointed.
   */
  readonly redirect?: RedirectPolicy | undefined;
}

/** The default of `maxEventBytes` and `maxResponseBytes`: 64 MiB, room for a large honest tool result. */
const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** A POST's init, its headers as `#headersFor` built them. */
type PostInit = RequestInit & { headers: Headers; signal: AbortSignal };

/** The marked failure that stands for a response (`undefined` once the exchange aborted). */
type Failure = (why: string, status?: number) => JSONRPCResponse | undefined;

/**
 * The client side of Streamable HTTP, revision 2026-07-28, as a {@link RequestTransport}: every request is its own
 * POST to `url`, and `request` resolves to its answer (a JSON body, or the last event of an SSE stream, after the
 * request's progress and log notifications went to `onMessage`). `fetch` pairs each POST with its answer, so
 * nothing is queued or matched by id, and every exchange reports its outcome.
 *
 * - Every POST carries `Accept: application/json, text/event-stream`, `MCP-Protocol-Version` (from the
 *   message's `_meta`), `Mcp-Method`, `Mcp-Name` (for `tools/call`, `prompts/get`, `resources/read`) and the
 *   `Mcp-Param-*` headers declared with `x-mcp-header` in the latest `tools/list` result seen. Values that are not
 *   plain ASCII travel as `=?base64?…?=`.
 * - A `tools/call` refused with `-32020` is retried once when a fresh `tools/list` (sent with the call's own id:
 *   the server ran nothing) changed the tool's `x-mcp-header` declarations (the spec's SHOULD).
 * - `tools/list` results are filtered: a tool whose `x-mcp-header` declarations break the spec's rules is
 *   dropped, with a warning (the spec's MUST for HTTP clients).
 * - Aborting `signal` closes the POST or its stream: on HTTP that is the cancellation (a 2025-11-25 session also
 *   gets `notifications/cancelled`, its era's way).
 * - An HTTP error whose body is a JSON-RPC error is that error (with the request's id when the body had none).
 *   Anything else that ends a request without its response (a network error, a non-JSON-RPC body such as a
 *   proxy's HTML 502, an event stream that ends or breaks before the response) resolves to a `-32603` error
 *   response for that id, its `data` marked by `transportFailureData`, whose message says what happened.
 * - Answers are read under limits: one event of an event stream at most `maxEventBytes`, any other body at most
 *   `maxResponseBytes` (64 MiB each by default); past one, the request resolves to a marked failure naming it.
 * - Only 307/308 redirects to the endpoint's own origin are followed (option `redirect`); any other redirect is a
 *   marked failure saying where it pointed: a redirect must not re-send the request to a host nobody chose.
 * - 2025-11-25 sessions (messages that name no protocol version in `_meta` go through the 2025-11-25 era): an
 *   `initialize` answered with an `InitializeResult` starts one; later messages carry its `Mcp-Session-Id` and
 *   version; the server's requests arrive on a POST's event stream (`onMessage`) or on the session's GET stream
 *   (`messages`), and are answered with `send`; a stream that ends early after naming an event id is resumed
 *   with `Last-Event-ID`; a 404 ends the session (`initialize` again); `close()` sends DELETE.
 *
 * A request goes out through `request` only (`send` refuses one with a `TypeError`): one exchange, one answer.
 */
export class StreamableHttpClientTransport implements RequestTransport {
  readonly #url: URL;
  /** The `fetch` option as given, for the POSTs of requests (their redirects are handled in `#post`). */
  readonly #fetch: FetchLike;
  readonly #redirect: RedirectPolicy;
  /** `#fetch` with redirects under the policy, for everything else (notifications, GET, DELETE). */
  readonly #guardedFetch: FetchLike;
  readonly #limits: AnswerLimits;
  readonly #warn: (message: string) => void;
  readonly #headers: StreamableHttpClientTransportOptions['headers'];
  /** The session's GET stream, and the notifications no exchange claims. */
  readonly #unclaimed = new MessageQueue();
  /**
   * The signals handed to `fetch`, linked by hand to the callers' signals and to closing the transport: never a
   * caller's signal itself, nor one signal for every exchange (fetch adds a listener per request to the signal it
   * gets, and drops it only when the request is garbage), and no `AbortSignal.any` (on Node 20 every signal it
   * makes from a long-lived one stays alive, and each new one is slower). See client-signals.ts.
   */
  readonly #signals = new ExchangeSignals();
  /** `x-mcp-header` declarations per tool name, from the latest `tools/list` results. */
  readonly #toolHeaders: ToolHeaders;
  /** The older era (2025-11-25), made on the first message that names no protocol version. */
  #era: ClientEra | undefined;
  #closed = false;

  /** The transport for the MCP endpoint at `url`. Nothing is sent until the first request. */
  constructor(url: URL | string, options: StreamableHttpClientTransportOptions = {}) {
    this.#url = new URL(url);
    if (this.#url.protocol !== 'http:' && this.#url.protocol !== 'https:') {
      throw new TypeError(`"url" expected an http: or https: URL, got ${this.#url.protocol}`);
    }
    const fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const redirect = options.redirect ?? 'same-origin';
    if (!REDIRECT_POLICIES.includes(redirect)) {
      throw new TypeError(`"redirect" expected ${REDIRECT_POLICIES.join(' | ')}, got ${String(redirect)}`);
    }
    this.#fetch = fetch;
    this.#redirect = redirect;
    this.#guardedFetch = (input, init) => fetchGuarded(fetch, input, init, redirect);
    this.#limits = {
      maxEventBytes: byteLimit('maxEventBytes', options.maxEventBytes),
      maxResponseBytes: byteLimit('maxResponseBytes', options.maxResponseBytes),
    };
    this.#headers = options.headers;
    this.#warn = options.onWarning ?? ((message) => consoleLogger.warn(message));
    this.#toolHeaders = new ToolHeaders(this.#warn);
    this.messages = this.#unclaimed.iterable({ onReturn: () => this.close() });
  }

  /**
   * What the server sends outside any exchange (a 2025-11-25 session's GET stream, notifications no exchange
   * claims); ends on `close()`. One consumer.
   */
  readonly messages: AsyncIterable<JSONRPCMessage>;

  /** POSTs one request and resolves to its response (see the class comment). Rejects once closed or aborted. */
  request(message: JSONRPCRequest, options: ExchangeOptions = {}): Promise<JSONRPCResponse> {
    return this.#exchange(message, options);
  }

  async #exchange(message: JSONRPCRequest, options: ExchangeOptions): Promise<JSONRPCResponse> {
    if (this.#closed) throw closedError();
    const { signal: caller, onMessage } = options;
    caller?.throwIfAborted();
    const { id, method, params } = message;
    const body = JSON.stringify(message); // the snapshot: later mutation of `message` does not travel
    const version = protocolVersionOf(params);
    // The seam: only a message that names no protocol version may belong to an older era.
    const claimed = version === undefined ? this.#olderEra().claim(method) : undefined;
    const headers = await this.#headersFor(method, params, version, claimed, options.headers);
    if (this.#closed) throw closedError();
    const exchange = this.#signals.open(caller);
    const signal = exchange.signal;
    const deliver = onMessage ?? ((received: JSONRPCMessage) => this.#deliver(received));
    const init: PostInit = { method: 'POST', headers, body, signal, redirect: 'manual' };
    const failure = this.#failure(id, signal);
    try {
      let answer: JSONRPCResponse | undefined;
      if (claimed !== undefined) {
        answer = await this.#olderEra().request({
          id,
          method,
          headers,
          caller,
          signal,
          whenAborted: (listener) => exchange.whenAborted(listener),
          post: () => this.#post(method, init, failure),
          read: (response, legacy) =>
            readAnswer(response, this.#reader(id, method, exchange, deliver, failure, legacy)),
          failure,
        });
      } else {
        answer = await this.#roundTrip(id, method, init, deliver, exchange, failure);
        if (method === 'tools/call' && isHeaderMismatch(answer)) {
          // The rare retry reads the params back from the body that was sent, not from a message changed since.
          const sent = (JSON.parse(body) as { params?: Record<string, unknown> }).params;
          const name = sent?.name;
          if (
            typeof name === 'string' &&
            (await this.#refreshParamHeaders(id, name, sent?._meta, exchange))
          ) {
            const again = await this.#headersFor(method, sent, version, undefined, options.headers);
            answer = await this.#roundTrip(
              id,
              method,
              { ...init, headers: again },
              deliver,
              exchange,
              failure,
            );
          }
        }
      }
      if (answer === undefined) throw signal.reason;
      return answer;
    } finally {
      exchange.done();
    }
  }

  /**
   * POSTs a notification, or the response to a 2025-11-25 server's request; a request goes through
   * {@link request} (`TypeError` here). Resolves once the server accepted it.
   */
  async send(message: JSONRPCMessage, options: TransportSendOptions = {}): Promise<void> {
    if (this.#closed) throw closedError();
    options.signal?.throwIfAborted();
    const kind = messageKind(message);
    if (kind === 'request') {
      throw new TypeError('StreamableHttpClientTransport sends requests with request(), not send()');
    }
    const method = 'method' in message && typeof message.method === 'string' ? message.method : undefined;
    const params = 'params' in message && isObject(message.params) ? message.params : undefined;
    const version = protocolVersionOf(params);
    // The seam: only a message that names no protocol version may belong to an older era (a response always
    // does: it answers a 2025-11-25 server's request).
    const claimed = version === undefined ? this.#olderEra().claim(method) : undefined;
    if (kind !== 'notification' && (claimed === undefined || (kind !== 'result' && kind !== 'error'))) {
      throw new TypeError(
        'Streamable HTTP clients send requests and notifications, and responses only in a 2025-11-25 session',
      );
    }
    // 2026-07-28 cancels by closing the exchange (its `signal`); only a 2025-11-25 session takes the notification.
    if (method === 'notifications/cancelled' && claimed === undefined) return;
    const body = JSON.stringify(message);
    const headers = await this.#headersFor(method, params, version, claimed, options.headers);
    if (this.#closed) throw closedError();
    const exchange = this.#signals.open(options.signal);
    const signal = exchange.signal;
    const what = method ?? 'a response';
    let response: Response;
    try {
      response = await this.#guardedFetch(this.#url, { method: 'POST', headers, body, signal });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (error instanceof RedirectRefusedError) throw new Error(error.message, { cause: error });
      throw new Error(`POST ${this.#url.href} failed: ${describe(error)}`, { cause: error });
    } finally {
      exchange.done();
    }
    await response.body?.cancel().catch(() => {});
    if (claimed !== undefined) this.#era?.sent(response.status, headers);
    if (!response.ok) throw new Error(`POST ${this.#url.href} answered HTTP ${response.status} to ${what}`);
  }

  /**
   * Re-reads `tools/list` (every page, at most 20), each POST under `id`, the id of the refused call (the server
   * ran nothing under it); true when `name`'s declarations changed.
   */
  async #refreshParamHeaders(
    id: RequestId,
    name: string,
    meta: unknown,
    exchange: ExchangeSignal,
  ): Promise<boolean> {
    const { signal } = exchange;
    const failure = this.#failure(id, signal);
    const before = this.#toolHeaders.fingerprint(name);
    let cursor: unknown;
    for (let page = 0; page < 20 && !signal.aborted; page++) {
      const params = { _meta: meta, ...(typeof cursor === 'string' && { cursor }) };
      const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params });
      const version = protocolVersionOf(params);
      const headers = await this.#headersFor('tools/list', params, version, undefined, undefined);
      const init: PostInit = { method: 'POST', headers, body, signal, redirect: 'manual' };
      const answer = await this.#roundTrip(id, 'tools/list', init, () => {}, exchange, failure);
      const result = answer !== undefined && 'result' in answer ? answer.result : undefined;
      if (!isObject(result)) break;
      cursor = result.nextCursor;
      if (typeof cursor !== 'string') break;
    }
    return this.#toolHeaders.fingerprint(name) !== before;
  }

  /**
   * One 2026-07-28 POST and its answer: hands the request's notifications to `deliver` as they come, and
   * resolves to its response (`tools/list` filtered), or to the marked failure that stands for it, or
   * `undefined` once the POST's signal aborted.
   */
  async #roundTrip(
    id: RequestId,
    method: string,
    init: PostInit,
    deliver: (message: JSONRPCNotification | JSONRPCRequest) => void,
    exchange: ExchangeSignal,
    failure: Failure,
  ): Promise<JSONRPCResponse | undefined> {
    const response = await this.#post(method, init, failure);
    if (!(response instanceof Response)) return response;
    const answer = await readAnswer(response, this.#reader(id, method, exchange, deliver, failure, false));
    return isResume(answer) ? failure(`the event stream of ${method} ended before its response`) : answer;
  }

  /**
   * POSTs one request, following redirects under the policy: the response to read, or the marked failure that
   * stands for its answer (`undefined` once the POST's signal aborted).
   */
  async #post(
    method: string,
    init: PostInit,
    failure: Failure,
  ): Promise<Response | JSONRPCResponse | undefined> {
    try {
      const response = await this.#fetch(this.#url, init);
      if (!isRedirect(response)) return response;
      return await followRedirects(this.#fetch, this.#url, init, response, this.#redirect);
    } catch (error) {
      if (error instanceof RedirectRefusedError) return failure(error.message, error.status);
      return failure(`could not POST ${method} to ${this.#url.href}: ${describe(error)}`);
    }
  }

  /** How the answer to request `id` is read (`legacy`: an older era's, see `AnswerReader.legacy`). */
  #reader(
    id: RequestId,
    method: string,
    exchange: ExchangeSignal,
    deliver: (message: JSONRPCNotification | JSONRPCRequest) => void,
    failure: Failure,
    legacy: boolean,
  ): AnswerReader {
    return {
      id,
      method,
      signal: exchange.signal,
      stopWhen: (stop) => exchange.whenAborted(stop),
      limits: this.#limits,
      legacy,
      deliver,
      finish: (message) => this.#withId(message, id, method),
      failure,
    };
  }

  /** The marked transport failure standing for the response to `id`; `undefined` once `signal` aborted. */
  #failure(id: RequestId, signal: AbortSignal): Failure {
    return (why, status) =>
      signal.aborted
        ? undefined
        : jsonRpcError(id, {
            code: ErrorCode.InternalError,
            message: `HTTP transport: ${why}`,
            data: transportFailureData(status),
          });
  }

  /**
   * The older era, made on the first message that names no protocol version; what it is lent of the
   * transport.
   */
  #olderEra(): ClientEra {
    if (this.#era !== undefined) return this.#era;
    const wire: ClientWire = {
      url: this.#url,
      fetch: this.#guardedFetch,
      headers: () => this.#commonHeaders(),
      deliver: (message) => this.#deliver(message),
      send: (notification) => this.send(notification),
      maxEventBytes: this.#limits.maxEventBytes,
      warn: this.#warn,
    };
    this.#era = clientEra(wire);
    return this.#era;
  }

  /**
   * Aborts every POST in flight and ends `messages`; an older era's session is ended first (2025-11-25: DELETE,
   * best effort, bounded). Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#era?.close();
    this.#signals.close(closedError());
    this.#unclaimed.end();
  }

  /** Same as {@link close}: `await using transport = new StreamableHttpClientTransport(url)`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * The headers of one POST: a 2026-07-28 message names its version, method, target and mirrored arguments; a
   * message an older era claimed carries the era's headers instead.
   */
  async #headersFor(
    method: string | undefined,
    params: Record<string, unknown> | undefined,
    version: string | undefined,
    claimed: Readonly<Record<string, string>> | undefined,
    extra: Readonly<Record<string, string>> | undefined,
  ): Promise<Headers> {
    const headers = new Headers({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    });
    if (claimed !== undefined) {
      for (const [name, value] of Object.entries(claimed)) headers.set(name, value);
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

  /** The response as returned: `id` filled in when the server could not read it, `tools/list` filtered. */
  #withId(response: JSONRPCResponse, id: RequestId, method: string): JSONRPCResponse {
    if ('error' in response) return response.id === undefined ? { ...response, id } : response;
    return method === 'tools/list' ? this.#toolHeaders.filter(response) : response;
  }

  #deliver(message: JSONRPCMessage): void {
    if (!this.#closed) this.#unclaimed.push(message);
  }
}

/** True for a `-32020` (HeaderMismatch) error response. */
function isHeaderMismatch(message: JSONRPCResponse | undefined): boolean {
  return (
    message !== undefined &&
    'error' in message &&
    (message.error as { code?: unknown }).code === ErrorCode.HeaderMismatch
  );
}

/** A byte limit option: a positive safe integer, or the default. */
function byteLimit(name: string, value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_ANSWER_BYTES;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`"${name}" expected a positive integer number of bytes, got ${value}`);
  }
  return value;
}

/** What exchanges reject with once the transport is closed. */
function closedError(): Error {
  return new Error('StreamableHttpClientTransport is closed');
}
