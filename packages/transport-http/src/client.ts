import {
  ErrorCode,
  type JSONRPCMessage,
  type JSONRPCResponse,
  jsonRpcError,
  LATEST_PROTOCOL_VERSION,
  MessageQueue,
  MetaKey,
  messageKind,
  parseMessage,
  type RequestId,
  type Transport,
  type TransportSendOptions,
  transportFailureData,
} from '@boomerang/protocol';
import { readText, sseData } from './body.js';
import {
  encodeHeaderValue,
  HeaderName,
  headerTextOf,
  isObject,
  nameParamOf,
  type ParamHeader,
  paramHeadersOf,
  valueAt,
} from './headers.js';

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

const BODY_SNIPPET = 200;

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
  readonly #warn: (message: string) => void;
  readonly #queue = new MessageQueue();
  readonly #inflight = new Map<string, AbortController>();
  readonly #all = new AbortController();
  /** `x-mcp-header` declarations per tool name, from the latest `tools/list` results. */
  readonly #paramHeaders = new Map<string, readonly ParamHeader[]>();
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
    this.#warn = options.onWarning ?? ((message) => console.warn(`[transport-http] ${message}`));
    this.messages = this.#queue.iterable({ onReturn: () => this.close() });
  }

  /** Responses and request-scoped notifications, in arrival order; ends on `close()`. One consumer. */
  readonly messages: AsyncIterable<JSONRPCMessage>;

  /** POSTs one request or notification (see the class comment). Rejects once closed. */
  async send(message: JSONRPCMessage, options: TransportSendOptions = {}): Promise<void> {
    if (this.#closed) throw new Error('StreamableHttpClientTransport is closed');
    options.signal?.throwIfAborted();
    const kind = messageKind(message);
    if (kind !== 'request' && kind !== 'notification') {
      throw new TypeError('Streamable HTTP clients send requests and notifications only, never responses');
    }
    const { method, params } = message as { method: string; params?: Record<string, unknown> };
    if (method === 'notifications/cancelled') {
      const requestId = params?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') {
        this.#inflight.get(keyOf(requestId))?.abort(new Error('cancelled by the client'));
      }
      return;
    }
    const body = JSON.stringify(message); // the snapshot: later mutation of `message` does not travel
    const headers = await this.#headersFor(method, params, options.headers);
    if (this.#closed) throw new Error('StreamableHttpClientTransport is closed');
    const controller = new AbortController();
    const signals = [controller.signal, this.#all.signal];
    if (options.signal !== undefined) signals.push(options.signal);
    const signal = AbortSignal.any(signals);
    const init: RequestInit = { method: 'POST', headers, body, signal };

    if (kind === 'notification') {
      let response: Response;
      try {
        response = await this.#fetch(this.#url, init);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw new Error(`POST ${this.#url.href} failed: ${describe(error)}`, { cause: error });
      }
      await response.body?.cancel().catch(() => {});
      if (!response.ok)
        throw new Error(`POST ${this.#url.href} answered HTTP ${response.status} to ${method}`);
      return;
    }

    const id = (message as { id: RequestId }).id;
    const key = keyOf(id);
    this.#inflight.set(key, controller);
    const headersAgain = (sent: Record<string, unknown> | undefined) =>
      this.#headersFor(method, sent, options.headers);
    void this.#exchange(id, method, body, init, headersAgain, signal).finally(() => {
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
    init: RequestInit,
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
    const before = JSON.stringify(this.#paramHeaders.get(name));
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
    return JSON.stringify(this.#paramHeaders.get(name)) !== before;
  }

  /**
   * One POST and its answer: yields the request's notifications as they come and resolves to its response
   * (`tools/list` filtered), or to the error that stands for it, or `undefined` once `signal` aborted.
   */
  async #roundTrip(
    id: RequestId,
    method: string,
    init: RequestInit,
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
    let response: Response;
    try {
      response = await this.#fetch(this.#url, init);
    } catch (error) {
      return failure(`could not POST ${method} to ${this.#url.href}: ${describe(error)}`);
    }
    const type = response.headers.get('content-type')?.split(';', 1)[0]?.trim().toLowerCase();
    try {
      if (type === 'text/event-stream' && response.body !== null) {
        for await (const data of sseData(response.body, signal)) {
          const parsed = parseMessage(data);
          if (!parsed.ok) continue; // not a JSON-RPC message: nothing to correlate it with
          const kind = messageKind(parsed.message);
          if (kind === 'notification') {
            this.#deliver(parsed.message);
          } else if ((kind === 'result' || kind === 'error') && sameId(parsed.message, id)) {
            // The response ends the request; leaving the loop cancels the rest of the stream.
            return this.#withId(parsed.message as JSONRPCResponse, id, method);
          }
        }
        return failure(`the event stream of ${method} ended before its response`);
      }
      const text = await readText(response.body, signal);
      if (signal.aborted) return undefined;
      const parsed = parseMessage(text);
      const kind = parsed.ok ? messageKind(parsed.message) : undefined;
      if (
        parsed.ok &&
        (kind === 'error' || (kind === 'result' && response.ok)) &&
        sameId(parsed.message, id)
      ) {
        return this.#withId(parsed.message as JSONRPCResponse, id, method);
      }
      const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
      const snippet = text.length > BODY_SNIPPET ? `${text.slice(0, BODY_SNIPPET)}…` : text;
      return failure(
        `${method} got ${status} without a JSON-RPC response${snippet ? `: ${snippet}` : ''}`,
        response.status,
      );
    } catch (error) {
      return failure(`the response to ${method} broke off: ${describe(error)}`);
    }
  }

  /** Aborts every POST in flight and ends `messages`. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#all.abort(new Error('StreamableHttpClientTransport is closed'));
    this.#inflight.clear();
    this.#queue.end();
  }

  /** Same as {@link close}: `await using transport = new StreamableHttpClientTransport(url)`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #headersFor(
    method: string,
    params: Record<string, unknown> | undefined,
    extra: Readonly<Record<string, string>> | undefined,
  ): Promise<Headers> {
    const meta = isObject(params?._meta) ? params._meta : {};
    const version = meta[MetaKey.protocolVersion];
    const headers = new Headers({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      [HeaderName.protocolVersion]: typeof version === 'string' ? version : LATEST_PROTOCOL_VERSION,
      [HeaderName.method]: method,
    });
    const nameParam = nameParamOf(method);
    const name = nameParam === undefined ? undefined : params?.[nameParam];
    if (typeof name === 'string') headers.set(HeaderName.name, encodeHeaderValue(name));
    if (method === 'tools/call' && typeof name === 'string') {
      for (const { header, path } of this.#paramHeaders.get(name) ?? []) {
        const text = headerTextOf(valueAt(params?.arguments, path));
        if (text !== undefined) headers.set(`${HeaderName.paramPrefix}${header}`, encodeHeaderValue(text));
      }
    }
    const common = typeof this.#headers === 'function' ? await this.#headers() : this.#headers;
    for (const [key, value] of new Headers(common)) headers.set(key, value);
    for (const [key, value] of Object.entries(extra ?? {})) headers.set(key, value);
    return headers;
  }

  /** The response as delivered: `id` filled in when the server could not read it, `tools/list` filtered. */
  #withId(response: JSONRPCResponse, id: RequestId, method: string): JSONRPCMessage {
    if ('error' in response) return response.id === undefined ? { ...response, id } : response;
    if (method !== 'tools/list' || !isObject(response.result) || !Array.isArray(response.result.tools)) {
      return response;
    }
    const tools = response.result.tools.filter((tool: unknown) => {
      if (!isObject(tool) || typeof tool.name !== 'string') return true; // the client's schema rejects it
      const declared = paramHeadersOf(tool.inputSchema);
      if (declared.ok) {
        this.#paramHeaders.set(tool.name, declared.headers);
        return true;
      }
      this.#paramHeaders.delete(tool.name);
      this.#warn(`dropped tool "${tool.name}" from tools/list: ${declared.reason}`);
      return false;
    });
    return { ...response, result: { ...response.result, tools } } as JSONRPCMessage;
  }

  #deliver(message: JSONRPCMessage): void {
    if (!this.#closed) this.#queue.push(message);
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

/** True when a response answers `id` (an id-less error answers whatever request it came back on). */
function sameId(message: JSONRPCMessage, id: RequestId): boolean {
  const got = (message as { id?: RequestId }).id;
  return got === undefined || got === id;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
