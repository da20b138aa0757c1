import {
  type AuthInfo,
  ErrorCode,
  isPlainObject,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type RequestId,
} from '@boomerang/protocol';
import {
  CancellableHandleContext,
  type HandleContext,
  jsonRpcError,
  parseMessage,
  RequestCancellation,
  type StreamConnection,
  type StreamConnectOptions,
  type Transport,
} from '@boomerang/protocol/transport';
import type { LogFn } from './types.js';

/**
 * Options of `server.connect(transport, options)`: `auth`, the principal every request on this connection is
 * served for (in-process and test transports), and `authOf(request)`, the principal of one request.
 */
export interface ConnectOptions extends StreamConnectOptions {
  /**
   * The principal of one request, for transports that authenticate every message on their own (an HTTP
   * 2025-11-25 session authenticates each POST, so a refreshed or stepped-up token reaches the handler); wins
   * over `auth` when it returns one.
   */
  authOf?: (request: JSONRPCRequest) => AuthInfo | undefined;
}

/**
 * A served stream transport. `close()` ends open subscriptions gracefully (each gets its listen result), then
 * stops reading, aborts every other request in flight (their responses are dropped) and closes the transport;
 * `closed` settles when serving has stopped, whether by `close()` or because the peer closed the transport.
 * Disposable: `await using connection = await server.connect(transport)`.
 */
export interface ServerConnection extends StreamConnection, AsyncDisposable {}

/**
 * Serves one request; resolves `undefined` when it was cancelled. Never rejects. `ending` aborts when the
 * connection shuts down (open subscriptions then end with their result).
 */
export type ServeRequest = (
  request: JSONRPCRequest,
  ctx: HandleContext,
  ending: AbortSignal,
) => Promise<JSONRPCResponse | undefined>;

/**
 * Reads `transport.messages` and serves every request concurrently (each one is started as soon as it is read,
 * so a slow handler never blocks the others). Responses and the request's progress/log notifications are sent
 * with `relatedRequestId`. `notifications/cancelled` aborts the named request's `ctx.signal` and suppresses its
 * response; unknown or late ids are ignored. A request reusing the id of one still in flight is answered
 * `-32600`. Responses from the peer are ignored (a 2026-07-28 server never sends requests).
 *
 * `close()` first ends every open `subscriptions/listen` gracefully: `notifications/cancelled` naming the listen
 * request (what the cancellation spec asks of a server tearing a subscription down on stdio), then its result;
 * only then are the other requests aborted and the transport closed.
 */
export function serveTransport(
  transport: Transport,
  serve: ServeRequest,
  options: ConnectOptions,
  warn: LogFn,
): ServerConnection {
  const inflight = new Map<string, RequestCancellation>();
  const listens = new Set<Promise<void>>();
  const ending = new AbortController();
  const keyOf = (id: RequestId) => `${typeof id}:${String(id)}`;
  const authOf = (request: JSONRPCRequest): { auth?: AuthInfo } => {
    const auth = options.authOf?.(request) ?? options.auth;
    return auth === undefined ? {} : { auth };
  };
  let stopping = false;

  const send = (message: Parameters<Transport['send']>[0], relatedRequestId?: RequestId) =>
    transport
      .send(message, relatedRequestId === undefined ? {} : { relatedRequestId })
      .catch((error: unknown) => warn('could not send a message on the transport', { error }));

  const abortAll = (reason: string) => {
    for (const controller of inflight.values()) controller.abort(new Error(reason));
    inflight.clear();
  };

  const onMessage = (raw: unknown) => {
    const parsed = parseMessage(raw);
    if (!parsed.ok) {
      void send(parsed.error);
      return;
    }
    const message = parsed.message;
    if (!('method' in message)) return;
    if (!('id' in message)) {
      if (message.method === 'notifications/cancelled' && isPlainObject(message.params)) {
        const { requestId } = message.params;
        if (typeof requestId === 'string' || typeof requestId === 'number') {
          const key = keyOf(requestId);
          inflight.get(key)?.abort(new Error('cancelled by the client'));
          inflight.delete(key);
        }
      }
      return;
    }
    const request = message as JSONRPCRequest;
    const key = keyOf(request.id);
    if (inflight.has(key)) {
      const error = { code: ErrorCode.InvalidRequest, message: 'Invalid Request: id is already in use' };
      void send(jsonRpcError(request.id, error), request.id);
      return;
    }
    // No AbortController unless the handler reads ctx.signal (RequestCancellation, @boomerang/protocol).
    const controller = new RequestCancellation();
    inflight.set(key, controller);
    const notify: NonNullable<HandleContext['notify']> = (notification) => send(notification, request.id);
    const ctx = new CancellableHandleContext(controller, notify, authOf(request).auth);
    const isListen = request.method === 'subscriptions/listen';
    const done = serve(request, ctx, ending.signal).then(async (response) => {
      if (inflight.get(key) === controller) inflight.delete(key);
      if (response === undefined || controller.aborted) return;
      if (isListen && 'result' in response) {
        const reason = 'the server ended the subscription';
        const params = { requestId: request.id, reason };
        await send({ jsonrpc: '2.0', method: 'notifications/cancelled', params }, request.id);
      }
      await send(response, request.id);
    });
    if (isListen) {
      listens.add(done);
      void done.finally(() => listens.delete(done));
    }
  };

  const closed = (async () => {
    try {
      for await (const message of transport.messages) {
        if (stopping) break;
        onMessage(message);
      }
    } catch (error) {
      if (!stopping) warn('the transport failed while reading', { error });
    } finally {
      abortAll('connection closed');
    }
  })();

  const close = async () => {
    stopping = true;
    ending.abort();
    await Promise.allSettled([...listens]);
    abortAll('connection closed');
    await transport.close().catch((error: unknown) => warn('could not close the transport', { error }));
    await closed;
  };
  return { closed, close, [Symbol.asyncDispose]: close };
}
