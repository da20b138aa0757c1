// The client's JSON-RPC layer over a request transport: ids, progress tokens, the notifications of each request,
// results and errors. It knows JSON-RPC and nothing of MRTR, `_meta` contents or result shapes.
import {
  ErrorCode,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JsonRpcErrorObject,
  type LoggingMessageNotificationParams,
  McpError,
  MetaKey,
  type ProgressNotificationParams,
  type Result,
} from '@boomerang/protocol';
import { type LazyParseResult, parseLazily, verdictOf } from '@boomerang/protocol/internal';
import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  jsonRpcError,
  jsonRpcResult,
  type RequestTransport,
} from '@boomerang/protocol/transport';
import { connectionClosed, isClientError, type OriginatingRequest, responseTimedOut } from './errors.js';
import { deliverLog, type LogHandler, logParams } from './logging.js';
import { AnsweringClock, type Deadline, ResponseDeadlines } from './response-deadlines.js';
import { raceSignal } from './signals.js';

/** Receives the `notifications/progress` of one request. An error it throws fails that request. */
export type ProgressHandler = (progress: ProgressNotificationParams) => void;

/** Per-request options of {@link Requester.request}. */
export interface SendOptions {
  /** Aborting it cancels the request: it rejects with `signal.reason` (the transport tells the server). */
  readonly signal?: AbortSignal | undefined;
  /** When given, the request carries a fresh `_meta.progressToken` and its progress notifications come here. */
  readonly onprogress?: ProgressHandler | undefined;
  /**
   * For `subscriptions/listen`: every notification whose `_meta["io.modelcontextprotocol/subscriptionId"]` is
   * this request's id comes here (the acknowledgement included). A `notifications/cancelled` from the server
   * naming this request ends it: the request resolves to `undefined` (a graceful end, like its result).
   */
  readonly onnotification?: ((notification: JSONRPCNotification) => void) | undefined;
  /**
   * The longest this request waits for its response, in milliseconds; the time spent answering the server's own
   * requests meanwhile (a 2025-11-25 server asking mid-call) is not counted. When it elapses the request is
   * cancelled and rejects with a `timeout` `ClientError` naming `call`.
   */
  readonly responseTimeoutMs?: number | undefined;
  /** The call this request is a round of (errors and callbacks name it); the bare method when absent. */
  readonly call?: OriginatingRequest | undefined;
  /**
   * When given, the `notifications/message` that arrive with this request (over HTTP: on its response stream)
   * come here. What it throws is dropped.
   */
  readonly onlog?: ((params: LoggingMessageNotificationParams) => void) | undefined;
}

/** Options of {@link Requester.notify}. */
export interface NotifyOptions {
  /** Stops waiting for the transport to take the notification (an HTTP POST awaiting its 202). */
  readonly signal?: AbortSignal | undefined;
}

/** What the peer may send besides responses and the notifications of a request; the 2025-11-25 era plugs in here. */
export interface PeerHandlers {
  /** A request from the server. Modern servers never send one; the default answers `-32601`. */
  readonly onRequest?: ((request: JSONRPCRequest) => Promise<unknown>) | undefined;
  /** Any notification no request claims. Ignored by default. */
  readonly onNotification?: ((notification: JSONRPCNotification) => void) | undefined;
  /**
   * A `notifications/message` no request claims (a stream transport ties none to its request): the log handler
   * gets it without a call. Taken before `onNotification`.
   */
  readonly onLog?: LogHandler | undefined;
}

/** The client's view of one connection: requests in, raw results out. */
export interface Requester {
  /**
   * Sends one request and resolves to its raw `result` member. Rejects with `McpError` for an error response
   * (a transport's marked failure included), with `signal.reason` when aborted (at once, even if the transport
   * is slow to notice), with a `timeout` `ClientError` past `responseTimeoutMs`, and with a `closed`
   * `ClientError` when the connection ends first.
   */
  request(method: string, params: Record<string, unknown>, options?: SendOptions): Promise<unknown>;
  /** Sends one notification; rejects with `signal.reason` once `signal` aborts. */
  notify(method: string, params?: Record<string, unknown>, options?: NotifyOptions): Promise<void>;
  /** True once the connection ended. */
  readonly closed: boolean;
  /** Closes the transport; every request in flight fails. Idempotent. */
  close(): Promise<void>;
}

/** The options of an exchange nothing can abort and nobody listens to. */
const NO_OPTIONS = Object.freeze({});

/** Why a listen request is abandoned when the server ended it with `notifications/cancelled`. */
const ENDED_BY_SERVER = Symbol('ended by the server');

/**
 * Starts reading `transport.messages` (its one consumer) and returns the {@link Requester} over it. Ids are
 * integers counting from 1 per connection, so every request, including each MRTR round, gets a new one; the
 * progress token of a request is its id.
 */
export function createRequester(transport: RequestTransport, handlers: PeerHandlers = {}): Requester {
  return new TransportRequester(transport, handlers);
}

/** The {@link Requester} of {@link createRequester}: the connection's next id, its clocks and its handlers. */
class TransportRequester implements Requester {
  #nextId = 1;
  #closed = false;
  readonly #transport: RequestTransport;
  readonly #handlers: PeerHandlers;
  readonly #answering = new AnsweringClock();
  readonly #deadlines = new ResponseDeadlines(this.#answering);

  constructor(transport: RequestTransport, handlers: PeerHandlers) {
    this.#transport = transport;
    this.#handlers = handlers;
    void this.#read();
  }

  get closed(): boolean {
    return this.#closed;
  }

  async request(
    method: string,
    params: Record<string, unknown>,
    options: SendOptions = {},
  ): Promise<unknown> {
    if (this.#closed) throw connectionClosed(method, undefined);
    const { signal, onprogress, onnotification, onlog, responseTimeoutMs } = options;
    signal?.throwIfAborted();
    const id = this.#nextId++;
    const message = requestMessage(id, method, params, onprogress !== undefined);
    // A time limit is a deadline shared with the requests starting about now (no signal made per request).
    const deadline = responseTimeoutMs === undefined ? undefined : this.#deadlines.join(responseTimeoutMs);
    // Only a request that wants its notifications takes them (what no request takes goes to `messages`), and
    // only then can a handler of them end it; a request with both a signal and a deadline needs them joined:
    // then, and only then, a controller and a closure.
    const own =
      onprogress === undefined &&
      onnotification === undefined &&
      onlog === undefined &&
      (deadline === undefined || signal === undefined)
        ? undefined
        : new AbortController();
    const stop = own === undefined ? undefined : linkAbort(signal, own);
    const stopDeadline =
      own === undefined || deadline === undefined ? undefined : linkAbort(deadline.signal, own);
    const exchangeSignal = own?.signal ?? signal ?? deadline?.signal;
    try {
      const exchange = this.#transport.request(
        message,
        own !== undefined
          ? { signal: own.signal, onMessage: (received) => this.#ownMessage(received, id, options, own) }
          : exchangeSignal === undefined
            ? NO_OPTIONS
            : { signal: exchangeSignal },
      );
      // Raced with the caller's signal: a transport slow to notice an abort (a fetch signing in first) holds no
      // call. A shared deadline alone is not raced: transports honour signals, and it would be a listener more.
      const response = await (own === undefined && signal === undefined
        ? exchange
        : raceSignal(exchange, exchangeSignal));
      if ('error' in response) throw McpError.fromJSON(response.error as JsonRpcErrorObject);
      return response.result;
    } catch (error) {
      return exchangeFailed(error, exchangeSignal, deadline, options, method, id);
    } finally {
      deadline?.leave();
      stopDeadline?.();
      stop?.();
    }
  }

  async notify(method: string, params?: Record<string, unknown>, options: NotifyOptions = {}): Promise<void> {
    if (this.#closed) throw connectionClosed(method, undefined);
    const message: JSONRPCNotification =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    const { signal } = options;
    await raceSignal(this.#transport.send(message, signal === undefined ? {} : { signal }), signal);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#transport.close();
  }

  /** Reads what no request's own handling took, to the end of the connection. */
  async #read(): Promise<void> {
    try {
      for await (const message of this.#transport.messages) this.#unclaimed(message);
    } catch {
      // The transport failed; its exchanges report it.
    }
    this.#closed = true;
  }

  /**
   * A message that came with request `id`, whose `options` take its notifications, and whose `own` controller
   * ends it: a server request is answered, a notification routed to its handler (what none takes goes on as
   * unclaimed). What a handler throws aborts the request; the server's cancellation of a listen ends it.
   */
  #ownMessage(
    received: JSONRPCNotification | JSONRPCRequest,
    id: number,
    options: SendOptions,
    own: AbortController,
  ): void {
    if (isJSONRPCRequest(received)) {
      void this.#answerRequest(received);
      return;
    }
    const notification: JSONRPCNotification = received;
    const { onprogress, onnotification, onlog } = options;
    try {
      const taken = routeOwn(notification, id, onprogress, onnotification, onlog);
      if (taken instanceof Promise) {
        // Params only zod can judge (loaded on demand): routed once it has.
        void taken
          .then((mine) => {
            if (!mine) this.#notified(notification);
          })
          .catch((error: unknown) => own.abort(error));
        return;
      }
      if (!taken) this.#notified(notification);
    } catch (error) {
      own.abort(error);
      return;
    }
    if (onnotification !== undefined && isCancellationOf(notification, id)) own.abort(ENDED_BY_SERVER);
  }

  async #answerRequest(request: JSONRPCRequest): Promise<void> {
    let response: JSONRPCMessage;
    const handlers = this.#handlers;
    this.#answering.enter();
    try {
      if (handlers.onRequest === undefined) throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
      response = jsonRpcResult(request.id, (await handlers.onRequest(request)) as Result);
    } catch (error) {
      response = jsonRpcError(
        request.id,
        error instanceof McpError ? error : new McpError(ErrorCode.InternalError, 'Internal error'),
      );
    } finally {
      this.#answering.leave();
    }
    await this.#transport.send(response, { relatedRequestId: request.id }).catch(() => {});
  }

  /** A message of the peer that no request's own handling took. */
  #unclaimed(message: JSONRPCMessage): void {
    if (isJSONRPCRequest(message)) void this.#answerRequest(message);
    else if (isJSONRPCNotification(message)) this.#notified(message);
  }

  /**
   * A notification of no request: a log message to the log handler, anything else to `onNotification`. Log params
   * that only zod can judge are handed on once it has (what a handler throws then goes nowhere).
   */
  #notified(notification: JSONRPCNotification): void {
    const log = this.#handlers.onLog === undefined ? undefined : logParams(notification);
    if (log instanceof Promise) void log.then((params) => this.#handOn(notification, params)).catch(() => {});
    else this.#handOn(notification, log);
  }

  #handOn(notification: JSONRPCNotification, log: LoggingMessageNotificationParams | undefined): void {
    const handlers = this.#handlers;
    if (log !== undefined && handlers.onLog !== undefined) deliverLog(handlers.onLog, log, undefined);
    else handlers.onNotification?.(notification);
  }
}

/** Request `id` on the wire; with `progress`, its `_meta.progressToken` is its id. */
function requestMessage(
  id: number,
  method: string,
  params: Record<string, unknown>,
  progress: boolean,
): JSONRPCRequest {
  const wire = progress
    ? { ...params, _meta: { ...(params._meta as object | undefined), [MetaKey.progressToken]: id } }
    : params;
  return { jsonrpc: '2.0', id, method, params: wire };
}

/**
 * What request `id` becomes when its exchange (on `signal`) failed with `error`: `undefined` when the server
 * ended its listen stream, else it throws a `timeout` `ClientError` past its deadline, the signal's reason when
 * aborted, an `McpError` or `ClientError` as it is, and anything else as a `closed` `ClientError`.
 */
function exchangeFailed(
  error: unknown,
  signal: AbortSignal | undefined,
  deadline: Deadline | undefined,
  options: SendOptions,
  method: string,
  id: number,
): undefined {
  const reason = signal?.aborted ? signal.reason : undefined;
  if (reason === ENDED_BY_SERVER) return undefined;
  if (reason !== undefined && reason === deadline?.reason && error === reason) {
    throw responseTimedOut(options.call ?? { method }, options.responseTimeoutMs as number);
  }
  if (reason !== undefined && error === reason) throw error;
  if (error instanceof McpError || isClientError(error)) throw error;
  throw connectionClosed(method, id, error);
}

/**
 * Hands a notification of request `id` to its handler: progress to `onprogress`, a listen stream's notifications
 * to `onnotification`, log messages to `onlog`. False when none takes it. What `onprogress` or `onnotification`
 * throws propagates (it fails the request); what `onlog` throws is dropped. A promise of the same for the rare
 * log or progress params that only zod can judge (an own `__proto__` member): zod is loaded on demand.
 */
function routeOwn(
  notification: JSONRPCNotification,
  id: number,
  onprogress: ProgressHandler | undefined,
  onnotification: ((notification: JSONRPCNotification) => void) | undefined,
  onlog: ((params: LoggingMessageNotificationParams) => void) | undefined,
): boolean | Promise<boolean> {
  if (notification.method === 'notifications/message' && onlog !== undefined) {
    const params = logParams(notification);
    return params instanceof Promise ? params.then((read) => toLog(read, onlog)) : toLog(params, onlog);
  }
  if (notification.method === 'notifications/progress') {
    if (onprogress === undefined) return false;
    const { params } = notification;
    const verdict = verdictOf('ProgressNotificationParams', params);
    if (verdict !== undefined)
      return verdict && toProgress(params as ProgressNotificationParams, id, onprogress);
    const parsed = parseLazily('ProgressNotificationParams', params);
    const read = (outcome: LazyParseResult<ProgressNotificationParams>) =>
      outcome.success && toProgress(outcome.data, id, onprogress);
    return parsed instanceof Promise ? parsed.then(read) : read(parsed);
  }
  if (onnotification === undefined || notification.method === 'notifications/cancelled') return false;
  const meta = notification.params?._meta;
  if (typeof meta !== 'object' || meta === null || !(MetaKey.subscriptionId in meta)) return false;
  if (meta[MetaKey.subscriptionId] !== id) return false;
  onnotification(notification);
  return true;
}

/** Hands valid log params to `onlog`, dropping what it throws; false for params that are not valid. */
function toLog(
  params: LoggingMessageNotificationParams | undefined,
  onlog: (params: LoggingMessageNotificationParams) => void,
): boolean {
  if (params === undefined) return false;
  try {
    onlog(params);
  } catch {
    // A log handler's own failure: never the request's.
  }
  return true;
}

/** Hands valid progress params of request `id` to `onprogress`; false for another request's progress. */
function toProgress(params: ProgressNotificationParams, id: number, onprogress: ProgressHandler): boolean {
  if (params.progressToken !== id) return false;
  onprogress(params);
  return true;
}

/** True for the server's `notifications/cancelled` naming request `id`. */
function isCancellationOf(notification: JSONRPCNotification, id: number): boolean {
  return notification.method === 'notifications/cancelled' && notification.params?.requestId === id;
}

/** Makes `own` abort when `signal` does; returns the unlink. */
function linkAbort(signal: AbortSignal | undefined, own: AbortController): () => void {
  if (signal === undefined) return () => {};
  const onAbort = () => own.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
