// One 2025-11-25 session on the Streamable HTTP endpoint: one stream connection of the handler
// (`handler.connect`, the same code that serves a stdio process), fed with the session's POSTs. What the
// connection sends comes back by `relatedRequestId`: a response, and the notifications and server→client requests
// of a request, go to that request's POST (JSON, or an event stream from the first message before the response);
// everything else goes to the session's GET stream.
import {
  type AuthInfo,
  ErrorCode,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type JSONRPCResponse,
  principalOf,
  type RequestId,
} from '@boomerang/protocol';
import {
  jsonRpcError,
  type MessageHandler,
  MessageQueue,
  messageKind,
  type StreamConnection,
  type StreamConnectOptions,
  type Transport,
} from '@boomerang/protocol/transport';
import { type EventStream, openEventStream } from '../event-stream.js';
import type { Exchange } from '../exchange.js';
import { isResponse, json, type Reply, refuse, statusOf } from '../replies.js';
import { LEGACY_VERSIONS } from './messages.js';
import { type Pending, pendingPost } from './session-post.js';

/** Options the endpoint passes to a handler's `connect` for one 2025-11-25 session. */
export interface LegacyConnectOptions extends StreamConnectOptions {
  /**
   * The principal of one request: the endpoint authenticates each POST of a session, so a refreshed or
   * stepped-up token reaches the handler; wins over `auth` when it returns one.
   */
  authOf?: (request: JSONRPCRequest) => AuthInfo | undefined;
}

/** What serving 2025-11-25 sessions reads of a handler, beside `handle`. */
export interface SessionServer {
  /**
   * Serves one stream connection until it closes (what `Server.connect` and `McpServer.connect` do). The
   * endpoint serves each 2025-11-25 session (`Mcp-Session-Id`) as one connection, so the session's `initialize`,
   * log level, subscriptions and server→client requests live exactly where they live on stdio. The connection
   * sends every message with the `relatedRequestId` of the request it belongs to, so that the endpoint can put it
   * on that request's event stream. Without it, the endpoint opens no sessions.
   */
  connect?(transport: Transport, options: LegacyConnectOptions): Promise<StreamConnection>;
}

/** A handler that serves 2025-11-25 sessions. */
export type Connectable = MessageHandler & Required<SessionServer>;

/** True when `handler` implements {@link SessionServer.connect}. */
export function isConnectable(handler: MessageHandler & SessionServer): handler is Connectable {
  return typeof handler.connect === 'function';
}

/** How an {@link HttpSession} is set up. */
export interface HttpSessionInit {
  readonly id: string;
  /** Who opened the session. */
  readonly auth: AuthInfo | undefined;
  readonly idleMs: number;
  /** Most streams open at once: the GET stream and the POSTs awaiting responses. Default: no bound. */
  readonly maxStreams?: number;
  /** Removes the session from its table (called once, when it ends). */
  readonly forget: () => void;
  readonly onError: (error: unknown) => void;
  /**
   * False for a session that has no client to ask (stateless 2025-11-25 serving): every server→client request
   * is answered at once, in the client's place, with {@link NO_BACK_CHANNEL}.
   */
  readonly backChannel?: boolean;
}

/** Why a server→client request of a stateless 2025-11-25 request fails. */
export const NO_BACK_CHANNEL =
  'This 2025-11-25 request came without a session, so the server cannot ask the client mid-call (no back-channel); ' +
  'serve 2025-11-25 clients with sessions to let it ask';

/** A 2025-11-25 session: its connection, the POSTs waiting for their responses, and its GET stream. */
export class HttpSession {
  readonly id: string;
  /**
   * The key of who opened the session ({@link principalKey}); every later request must come from the same
   * principal. `undefined` (an `AuthInfo` naming no principal) matches nobody.
   */
  readonly principal: string | undefined;
  lastActive = Date.now();
  readonly #queue = new MessageQueue();
  readonly #pending = new Map<string, Pending>();
  /** The principal of each request read by the connection (a refreshed token keeps its principal). */
  readonly #auth = new WeakMap<object, AuthInfo>();
  readonly #idleMs: number;
  readonly #maxStreams: number;
  readonly #forget: () => void;
  readonly #onError: (error: unknown) => void;
  readonly #backChannel: boolean;
  #stream: EventStream | undefined;
  #connection: StreamConnection | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #ended: Promise<void> | undefined;

  constructor(init: HttpSessionInit) {
    this.id = init.id;
    this.principal = principalKey(init.auth);
    this.#idleMs = init.idleMs;
    this.#maxStreams = init.maxStreams ?? Number.POSITIVE_INFINITY;
    this.#forget = init.forget;
    this.#onError = init.onError;
    this.#backChannel = init.backChannel ?? true;
  }

  /**
   * True when `auth` names the principal that opened the session (a refreshed token keeps its principal when
   * the verifier names an identity).
   */
  belongsTo(auth: AuthInfo | undefined): boolean {
    return this.principal !== undefined && this.principal === principalKey(auth);
  }

  /** True when the session was opened without authentication. */
  get anonymous(): boolean {
    return this.principal === '';
  }

  /** True when nothing is in flight and no GET stream is open. */
  get idle(): boolean {
    return this.#pending.size === 0 && this.#stream === undefined;
  }

  /** True when no request is in flight (a GET stream may be open): ending it interrupts no request. */
  get quiet(): boolean {
    return this.#pending.size === 0;
  }

  /** The refusal of one more stream when the session holds as many as it may, else `undefined`. */
  #streamLimit(): Reply | undefined {
    if (this.#pending.size + (this.#stream === undefined ? 0 : 1) < this.#maxStreams) return undefined;
    const text = `Too Many Requests: the session has ${this.#maxStreams} streams open (requests in flight and its GET stream)`;
    return refuse(429, text, { 'retry-after': '1' });
  }

  /** Connects the handler to the session's transport. */
  async start(handler: Connectable, auth: AuthInfo | undefined): Promise<void> {
    // Closing from the connection's side starts the end without waiting for it: the end waits for the connection.
    const close = async () => void this.end();
    const transport: Transport = {
      send: async (message, options) => this.#route(message, options?.relatedRequestId),
      messages: this.#queue.iterable({ onReturn: close }),
      close,
      [Symbol.asyncDispose]: close,
    };
    this.#connection = await handler.connect(transport, {
      ...(auth === undefined ? {} : { auth }),
      authOf: (request) => this.#auth.get(request),
    });
    void this.#connection.closed.then(() => this.end());
  }

  /**
   * Serves the session's `initialize`. When the handler refuses it (a modern-only handler, bad params), the
   * session ends and the reply carries the error's HTTP status; `ok` tells whether it succeeded.
   */
  async initialize(
    message: JSONRPCRequest,
    exchange: Exchange,
    auth: AuthInfo | undefined,
  ): Promise<{ reply: Reply; ok: boolean }> {
    const pending = this.request(message, exchange, auth);
    const reply = await pending.reply;
    const { response } = pending;
    if (response !== undefined && 'result' in response) return { reply, ok: true };
    await this.end();
    return { reply: response === undefined ? reply : withStatus(reply, statusOf(response)), ok: false };
  }

  /**
   * Serves one POST of the session: a request (its answer; 429 when the session holds `maxStreams` streams), or a
   * notification or response (202).
   */
  async post(message: JSONRPCMessage, exchange: Exchange, auth: AuthInfo | undefined): Promise<Reply> {
    const version = exchange.headers.get('mcp-protocol-version');
    if (version !== null && !LEGACY_VERSIONS.has(version)) {
      const text = `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version)} for a 2025-11-25 session`;
      return refuse(400, text);
    }
    const kind = messageKind(message);
    if (kind === undefined) {
      return refuse(400, 'Invalid Request: not a JSON-RPC message');
    }
    if (kind === 'request') {
      const { id } = message as JSONRPCRequest;
      if (this.#pending.has(keyOf(id))) {
        const text = 'Invalid Request: id is already in use by a request in flight';
        return json(400, jsonRpcError(id, { code: ErrorCode.InvalidRequest, message: text }));
      }
      return this.#streamLimit() ?? this.request(message as JSONRPCRequest, exchange, auth).reply;
    }
    this.#touch();
    if (kind === 'notification' && (message as { method: string }).method === 'notifications/cancelled') {
      const requestId = (message as { params?: { requestId?: unknown } }).params?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') {
        this.#pending.get(keyOf(requestId))?.drop();
      }
    }
    this.#queue.push(message);
    this.#settle();
    return { status: 202, headers: {}, body: null };
  }

  /**
   * Opens the session's GET stream (409 when one is open: each message goes to one stream only; 429 when the
   * session holds `maxStreams` streams).
   */
  listen(exchange: Exchange): Reply {
    if (this.#stream !== undefined) {
      return refuse(409, 'Conflict: the session already has a GET stream');
    }
    const limited = this.#streamLimit();
    if (limited !== undefined) return limited;
    this.#touch();
    const stream = openEventStream(() => closed());
    const closed = () => {
      exchange.signal.removeEventListener('abort', closed);
      stream.close();
      if (this.#stream === stream) this.#stream = undefined;
      this.#settle();
    };
    exchange.signal.addEventListener('abort', closed, { once: true });
    this.#stream = stream;
    return stream.response;
  }

  /**
   * Ends the session (DELETE, idle, eviction, the endpoint closing, the handler ending the connection): POSTs in
   * flight get a `-32603` "Session ended" error, the GET stream closes, the connection stops. Idempotent.
   */
  end(): Promise<void> {
    this.#ended ??= (async () => {
      this.#forget();
      clearTimeout(this.#timer);
      this.#queue.end();
      this.#stream?.close();
      this.#stream = undefined;
      try {
        await this.#connection?.close();
      } catch (error) {
        this.#onError(error);
      }
      for (const [key, pending] of this.#pending) {
        this.#pending.delete(key);
        pending.finish(jsonRpcError(pending.id, { code: ErrorCode.InternalError, message: 'Session ended' }));
      }
    })();
    return this.#ended;
  }

  /** Hands request `message` to the connection; its answer settles the returned POST. */
  request(message: JSONRPCRequest, exchange: Exchange, auth: AuthInfo | undefined): Pending {
    this.#touch();
    const key = keyOf(message.id);
    const pending = pendingPost(message.id, exchange, () => {
      if (this.#pending.get(key) === pending) this.#pending.delete(key);
      this.#settle();
    });
    if (this.#ended !== undefined) {
      pending.finish(jsonRpcError(message.id, { code: ErrorCode.InternalError, message: 'Session ended' }));
      return pending;
    }
    this.#pending.set(key, pending);
    if (auth !== undefined) this.#auth.set(message, auth);
    this.#queue.push(message);
    return pending;
  }

  /**
   * Routes one message the connection sends (see the file comment). A server→client request that no stream can
   * carry is refused, so the server's ask fails at once instead of waiting for an answer that cannot come.
   */
  #route(message: JSONRPCMessage, related: RequestId | undefined): void {
    const kind = messageKind(message);
    if (kind === 'result' || kind === 'error') {
      const id = (message as { id?: RequestId }).id;
      if (id !== undefined) this.#pending.get(keyOf(id))?.finish(message as JSONRPCResponse);
      return; // a response nobody waits for (its request was cancelled) is dropped
    }
    if (kind === 'request' && !this.#backChannel) {
      const { id } = message as JSONRPCRequest;
      const error = { code: ErrorCode.InternalError, message: NO_BACK_CHANNEL };
      this.#queue.push(jsonRpcError(id, error));
      return;
    }
    const pending = related === undefined ? undefined : this.#pending.get(keyOf(related));
    if (pending?.push(message) === true) return;
    if (this.#stream?.write(message) === true) return;
    if (kind === 'request') {
      const { method } = message as JSONRPCRequest;
      throw new Error(`no open HTTP stream of session ${this.id} can carry the server's ${method} request`);
    }
  }

  #touch(): void {
    this.lastActive = Date.now();
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Starts the idle clock once nothing is in flight and no stream is open. */
  #settle(): void {
    if (!this.idle || this.#ended !== undefined || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => void this.end(), this.#idleMs);
    (this.#timer as { unref?: () => void }).unref?.();
  }
}

/**
 * The key of the principal a session is bound to (`principalOf` of `@boomerang/protocol`: clientId, issuer and
 * subject, else the token itself, kept in this process only): `''` without auth, `undefined` for an `AuthInfo`
 * that names no principal at all (such a caller gets no session).
 */
export function principalKey(auth: AuthInfo | undefined): string | undefined {
  const principal = principalOf(auth);
  return principal === null ? '' : principal === undefined ? undefined : JSON.stringify(principal);
}

function keyOf(id: RequestId): string {
  return `${typeof id}:${String(id)}`;
}

/** `reply` with another status (a plain reply; an event stream keeps its 200). */
export function withStatus(reply: Reply, status: number): Reply {
  return isResponse(reply) ? reply : { ...reply, status };
}
