import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  RequestId,
} from './schema/index.js';

/**
 * Who made a request, as an authenticating transport established it. Principal binding of request state uses
 * `clientId`, `issuer` and `subject` (never scopes, so a scope step-up does not break rounds in flight).
 */
export interface AuthInfo {
  /** The OAuth client the token was issued to. */
  clientId?: string;
  /** The authorization server that issued the token. */
  issuer?: string;
  /** The end user (or service) the token stands for. */
  subject?: string;
  /** Granted scopes. */
  scopes?: readonly string[];
  /** The raw access token, when a handler needs to forward it. */
  token?: string;
  /** Expiry of the token, seconds since the epoch. */
  expiresAt?: number;
  /** Anything else the verifier wants handlers to see. */
  extra?: Readonly<Record<string, unknown>>;
}

/** Options for one {@link Transport.send}. */
export interface TransportSendOptions {
  /** Aborts sending (and, for request/response transports, waiting for the answer). */
  signal?: AbortSignal;
  /** The request this message belongs to (a response, or a progress/log notification of that request). */
  relatedRequestId?: RequestId;
  /** Extra per-request headers, for HTTP client transports (auth, `Mcp-Param-*`); others ignore them. */
  headers?: Readonly<Record<string, string>>;
}

/**
 * A stream transport: one end of a bidirectional channel of JSON-RPC messages. Incoming messages are an async
 * iterable (one consumer); the iteration ends when the channel closes. `close()` is idempotent. Nothing pairs a
 * request with its response here: a client pairs them by id (`@boomerang/client` correlates a stream transport
 * into a {@link RequestTransport}).
 */
export interface Transport extends AsyncDisposable {
  /** Sends one message to the peer; rejects if the transport is closed. */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void>;
  /** Messages from the peer, in order; ends when either side closes. */
  readonly messages: AsyncIterable<JSONRPCMessage>;
  /** Closes the channel; pending iteration ends. Safe to call more than once. */
  close(): Promise<void>;
}

/** Options of one {@link RequestTransport.request}. */
export interface ExchangeOptions {
  /**
   * Cancels the exchange the transport's own way (HTTP: the POST and its event stream are closed; a correlated
   * stream transport sends `notifications/cancelled`); `request` then rejects with `signal.reason`.
   */
  readonly signal?: AbortSignal | undefined;
  /** Extra headers for this exchange, for HTTP (auth, `Mcp-Param-*`); other transports ignore them. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Receives what the peer sends for this request before its response, in order: its notifications (progress,
   * log, a `subscriptions/listen` stream's notifications, a `notifications/cancelled` naming it) and, from a
   * 2025-11-25 server, the requests it makes while serving it. Without it they go to
   * {@link RequestTransport.messages} (notifications a transport cannot tie to a request always do). Called
   * synchronously as each arrives; what it throws is dropped.
   */
  readonly onMessage?: ((message: JSONRPCNotification | JSONRPCRequest) => void) | undefined;
}

/**
 * The client's transport contract: request → response, like a tRPC terminating link. Each `request` is one
 * exchange that the transport pairs itself (HTTP: `fetch` pairs a POST with its answer, so nothing is queued or
 * matched by id), and **every exchange reports its outcome**: it resolves to the response, or to a JSON-RPC error
 * response that stands for it when none could be had (its `data` marked by `transportFailureData`: a network
 * error, a body that is no JSON-RPC response, a stream that ended early), and rejects only with `signal.reason`
 * when aborted or when the transport is closed (before or during the exchange). A client can therefore read the
 * outcome of every request it sends, and never has to read silence as an answer. Stream transports become one
 * through `@boomerang/client`'s correlator (where a silent peer leaves an exchange pending until it is aborted).
 *
 * The request's `id` is the caller's; the transport sends it as given.
 */
export interface RequestTransport extends AsyncDisposable {
  /** Sends one request and resolves to its response (see the interface comment for every outcome). */
  request(message: JSONRPCRequest, options?: ExchangeOptions): Promise<JSONRPCResponse>;
  /**
   * Sends a notification, or the response to a request the peer sent (a 2025-11-25 server's). Resolves once
   * handed over (HTTP: accepted); rejects when the transport is closed or the peer refused it.
   */
  send(message: JSONRPCNotification | JSONRPCResponse, options?: TransportSendOptions): Promise<void>;
  /**
   * What the peer sends outside any exchange (a 2025-11-25 server's requests and notifications that no
   * exchange claims); from a 2026-07-28 server, nothing. One consumer; ends on `close()`.
   */
  readonly messages: AsyncIterable<JSONRPCMessage>;
  /** Aborts every exchange in flight and ends `messages`. Idempotent. */
  close(): Promise<void>;
}

/** True when `transport` pairs requests itself ({@link RequestTransport}), false for a stream {@link Transport}. */
export function isRequestTransport(transport: Transport | RequestTransport): transport is RequestTransport {
  return 'request' in transport && typeof transport.request === 'function';
}

/**
 * How one request learns that it was cancelled, without an `AbortSignal` until somebody asks for one. Most
 * requests are never cancelled and most handlers never read `ctx.signal`, yet an `AbortController`, its signal
 * and an event listener on it cost more per request than the rest of a small request's dispatch. A transport
 * passes one as `HandleContext.cancellation`; a handler that finds it waits with {@link onAbort} and
 * leaves `signal` unread.
 */
export interface Cancellation {
  /** True once the request was cancelled (or its connection went away). */
  readonly aborted: boolean;
  /** The request's signal, made on first read: already aborted (with the reason) if the request was. */
  readonly signal: AbortSignal;
  /**
   * Calls `listener` once when the request is cancelled (never when it already was: check {@link aborted}
   * first). Returns the unsubscribe, which is safe to call more than once and after the abort.
   */
  onAbort(listener: () => void): () => void;
}

/** What a transport tells a {@link MessageHandler} about one incoming message. */
export interface HandleContext {
  /** Aborted when the peer goes away or cancels; the handler's work should stop. */
  signal?: AbortSignal;
  /**
   * The same cancellation as `signal`, for handlers that only need to know (`aborted`, `onAbort`): a transport
   * that sets it makes the `AbortController` behind `signal` only when `signal` is read (see
   * `CancellableHandleContext`). Handlers prefer it to `signal` when both are there.
   */
  readonly cancellation?: Cancellation;
  /** The authenticated principal, when the transport authenticates. */
  auth?: AuthInfo;
  /**
   * Sends a notification tied to this request (progress, log) before its response. HTTP switches the response
   * to SSE on the first one. Absent when the transport cannot deliver them.
   */
  notify?: (notification: JSONRPCNotification) => void | Promise<void>;
}

/**
 * The one method a server exposes to request/response transports: answer one message. Resolves to the response,
 * or `undefined` for notifications and cancelled requests. Never rejects on bad input: it answers with the
 * right JSON-RPC error instead. What a particular transport reads beside it (HTTP: a tool's schema for its header
 * checks, a stream connection per 2025-11-25 session) is that transport's own contract.
 */
export interface MessageHandler {
  handle(message: unknown, ctx?: HandleContext): Promise<JSONRPCResponse | undefined>;
}

/**
 * Options of a server's `connect(transport, options)`, which serves one stream transport until it closes
 * (`Server.connect`, `McpServer.connect`).
 */
export interface StreamConnectOptions {
  /** The principal of every request on the connection (in-process and test transports). */
  auth?: AuthInfo;
}

/** A connection a server serves (what its `connect(transport, options)` resolves to). */
export interface StreamConnection {
  /** Resolves once the connection stopped serving (never rejects). */
  readonly closed: Promise<void>;
  /** Stops serving and closes the transport. Idempotent. */
  close(): Promise<void>;
}

/**
 * The `fetch` an HTTP client calls (the Streamable HTTP transport, OAuth discovery and token requests):
 * `globalThis.fetch` fits, and so does a test double routing to handlers.
 */
export type FetchLike = (input: URL, init: RequestInit) => Promise<Response>;
