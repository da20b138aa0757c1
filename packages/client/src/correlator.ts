// The correlator: a stream transport (stdio, in memory) seen as a request transport. On a stream every message
// travels on one channel, so responses are matched to their requests by id here, and the notifications of a
// request (progress by its token, a listen stream's by its subscription id, a `notifications/cancelled` naming
// it) are handed to that request. HTTP needs none of this: fetch pairs each POST with its answer.
import {
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  MetaKey,
  type RequestId,
} from '@boomerang/protocol';
import {
  type ExchangeOptions,
  isRequestId,
  MessageQueue,
  messageKind,
  type RequestTransport,
  type Transport,
  type TransportSendOptions,
} from '@boomerang/protocol/transport';
import { connectionClosed } from './errors.js';

/** One exchange in flight. */
interface Pending {
  readonly method: string;
  readonly onMessage: ExchangeOptions['onMessage'];
  /** The request's progress token, when it carries one. */
  readonly token: string | number | undefined;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (response: JSONRPCResponse) => void;
  readonly reject: (error: unknown) => void;
  /** Set when the peer cancelled the request: an abort then sends no `notifications/cancelled` back. */
  cancelledByPeer: boolean;
}

/**
 * The one abort listener of the correlator on a signal that exchanges in flight passed. Exchanges often share one
 * (a client's response deadline is shared by the requests of a moment), and an `addEventListener` per exchange
 * costs about as much as the rest of an in-memory round: so one listener per signal, counted, and the latest
 * watch nobody uses is kept for the next exchange.
 */
interface Watch {
  readonly signal: AbortSignal;
  readonly onAbort: () => void;
  /** The exchanges in flight passing `signal`. */
  users: number;
}

/**
 * The {@link RequestTransport} over a stream `transport` (its one consumer from now on): requests keep the ids
 * their caller gave them and their responses are matched by id; a response with an unknown id (late, after a
 * cancel) is dropped, as the cancellation spec asks. Aborting an exchange sends `notifications/cancelled`
 * (unless the peer cancelled it first). A notification goes to the exchange it belongs to: `notifications/progress`
 * by the `progressToken` in the request's `_meta`, a `subscriptions/listen` stream's by its subscription id (the
 * listen request's id), `notifications/cancelled` by the `requestId` it names; everything else (a 2025-11-25
 * server's requests, notifications of no exchange) comes out of `messages`. When the stream ends or fails,
 * every exchange in flight rejects with a `closed` `ClientError`. A peer that never answers leaves an exchange
 * pending until its signal aborts: stream transports do not report every outcome.
 */
export function correlate(transport: Transport): RequestTransport {
  return new Correlator(transport);
}

/** The state of {@link correlate}: the exchanges in flight, by id and by progress token, and the abort watches. */
class Correlator implements RequestTransport {
  readonly messages: AsyncIterable<JSONRPCMessage>;
  readonly #transport: Transport;
  readonly #pending = new Map<RequestId, Pending>();
  readonly #byProgressToken = new Map<string | number, RequestId>();
  readonly #unclaimed = new MessageQueue();
  readonly #watches = new Map<AbortSignal, Watch>();
  /** The latest watch no exchange uses: kept (with its listener) until another one goes idle. */
  #idle: Watch | undefined;
  #closed = false;

  constructor(transport: Transport) {
    this.#transport = transport;
    void this.#read();
    this.messages = this.#unclaimed.iterable({ onReturn: async () => {} });
  }

  request(message: JSONRPCRequest, options: ExchangeOptions = {}): Promise<JSONRPCResponse> {
    const { id, method } = message;
    if (this.#closed) return Promise.reject(connectionClosed(method, undefined));
    const { signal, onMessage } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const meta = message.params?._meta;
    const progressToken =
      typeof meta === 'object' && meta !== null && MetaKey.progressToken in meta
        ? meta[MetaKey.progressToken]
        : undefined;
    const token =
      typeof progressToken === 'string' || typeof progressToken === 'number' ? progressToken : undefined;
    return new Promise<JSONRPCResponse>((resolve, reject) => {
      const entry: Pending = {
        method,
        onMessage,
        token,
        signal,
        resolve,
        reject,
        cancelledByPeer: false,
      };
      this.#pending.set(id, entry);
      if (token !== undefined) this.#byProgressToken.set(token, id);
      if (signal !== undefined) this.#watch(signal);
      this.#transport.send(message, signal === undefined ? {} : { signal }).catch((error: unknown) => {
        this.#take(id)?.reject(connectionClosed(method, id, error));
      });
    });
  }

  async send(message: JSONRPCNotification | JSONRPCResponse, options?: TransportSendOptions): Promise<void> {
    const method = 'method' in message && typeof message.method === 'string' ? message.method : 'a response';
    if (this.#closed) throw connectionClosed(method, undefined);
    await this.#transport.send(message, options);
  }

  async close(): Promise<void> {
    if (!this.#closed) this.#failAll();
    await this.#transport.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Reads the stream to its end, routing every message; then every exchange in flight fails. */
  async #read(): Promise<void> {
    try {
      for await (const message of this.#transport.messages) this.#route(message);
      this.#failAll();
    } catch (error) {
      this.#failAll(error);
    }
  }

  #route(message: JSONRPCMessage): void {
    const kind = messageKind(message);
    if (kind === 'result' || kind === 'error') {
      const { id } = message;
      if (isRequestId(id)) this.#take(id)?.resolve(message as JSONRPCResponse);
      return;
    }
    if (kind === 'notification') {
      const entry = this.#claim(message as JSONRPCNotification);
      if (entry?.onMessage !== undefined) {
        deliver(entry, message as JSONRPCNotification);
        return;
      }
    }
    if (kind !== undefined) this.#unclaimed.push(message);
  }

  /** The exchange a notification belongs to, if any. */
  #claim(notification: JSONRPCNotification): Pending | undefined {
    const params = notification.params;
    if (notification.method === 'notifications/progress') {
      const token = params?.progressToken;
      const id =
        typeof token === 'string' || typeof token === 'number' ? this.#byProgressToken.get(token) : undefined;
      return id === undefined ? undefined : this.#pending.get(id);
    }
    if (notification.method === 'notifications/cancelled') {
      const requestId = params?.requestId;
      const entry = isRequestId(requestId) ? this.#pending.get(requestId) : undefined;
      if (entry !== undefined) entry.cancelledByPeer = true;
      return entry;
    }
    const meta = params?._meta;
    const id =
      typeof meta === 'object' && meta !== null && MetaKey.subscriptionId in meta
        ? meta[MetaKey.subscriptionId]
        : undefined;
    return typeof id === 'string' || typeof id === 'number' ? this.#pending.get(id) : undefined;
  }

  /** Takes `id` out of the exchanges in flight; `undefined` when it is not one (late, or settled already). */
  #take(id: RequestId): Pending | undefined {
    const entry = this.#pending.get(id);
    if (entry === undefined) return undefined;
    this.#pending.delete(id);
    if (entry.token !== undefined) this.#byProgressToken.delete(entry.token);
    if (entry.signal !== undefined) this.#release(entry.signal);
    return entry;
  }

  /** The caller aborted exchange `id`: it rejects with the reason, and the peer is told (unless it cancelled it). */
  #cancel(id: RequestId, entry: Pending): void {
    if (this.#take(id) !== entry) return;
    const reason = entry.signal?.reason;
    entry.reject(reason);
    if (this.#closed || entry.cancelledByPeer) return;
    const text = reason instanceof Error ? reason.message : 'Request cancelled';
    this.#transport
      .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: text } })
      .catch(() => {
        // The connection is going away; the request already failed locally.
      });
  }

  #failAll(cause?: unknown): void {
    this.#closed = true;
    for (const id of [...this.#pending.keys()]) {
      const entry = this.#take(id);
      entry?.reject(connectionClosed(entry.method, id, cause));
    }
    // No listener outlives the connection (a signal the application keeps would keep the connection alive).
    for (const found of [...this.#watches.values()]) this.#unwatch(found);
    this.#unclaimed.end();
  }

  /** An exchange passing `signal` starts: its abort cancels the exchange. */
  #watch(signal: AbortSignal): void {
    let found = this.#watches.get(signal);
    if (found === undefined) {
      const onAbort = () => this.#aborted(made);
      const made: Watch = { signal, onAbort, users: 0 };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#watches.set(signal, made);
      found = made;
    }
    if (found.users++ === 0 && this.#idle === found) this.#idle = undefined;
  }

  /** The signal of `watch` aborted: every exchange passing it is cancelled. */
  #aborted(watch: Watch): void {
    this.#unwatch(watch);
    const aborted: [RequestId, Pending][] = [];
    for (const [id, entry] of this.#pending) if (entry.signal === watch.signal) aborted.push([id, entry]);
    for (const [id, entry] of aborted) this.#cancel(id, entry);
  }

  /** An exchange passing `signal` ended. */
  #release(signal: AbortSignal): void {
    const found = this.#watches.get(signal);
    if (found === undefined || --found.users > 0) return;
    if (this.#idle !== undefined) this.#unwatch(this.#idle);
    this.#idle = found;
  }

  #unwatch(watch: Watch): void {
    watch.signal.removeEventListener('abort', watch.onAbort);
    this.#watches.delete(watch.signal);
    if (this.#idle === watch) this.#idle = undefined;
  }
}

/** Hands a notification to its exchange; what the handler throws is dropped (see `ExchangeOptions.onMessage`). */
function deliver(entry: Pending, message: JSONRPCNotification): void {
  try {
    entry.onMessage?.(message);
  } catch {
    // The consumer's own failure: it aborts the exchange itself if it must.
  }
}
