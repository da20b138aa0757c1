import {
  ErrorCode,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResultResponse,
  jsonRpcError,
  jsonRpcResult,
  McpError,
  MetaKey,
  messageKind,
  type ProgressNotificationParams,
  ProgressNotificationParamsSchema,
  type RequestId,
  type Result,
  type Transport,
} from '@boomerang/protocol';
import { connectionClosed } from './errors.js';

/** Receives the `notifications/progress` of one request. An error it throws fails that request. */
export type ProgressHandler = (progress: ProgressNotificationParams) => void;

/** Per-request options of {@link Requester.request}. */
export interface SendOptions {
  /** Aborting it cancels the request: it rejects with `signal.reason` and `notifications/cancelled` is sent. */
  readonly signal?: AbortSignal;
  /** When given, the request carries a fresh `_meta.progressToken` and its progress notifications come here. */
  readonly onprogress?: ProgressHandler;
  /**
   * For `subscriptions/listen`: every notification whose `_meta["io.modelcontextprotocol/subscriptionId"]` is
   * this request's id comes here (the acknowledgement included). A `notifications/cancelled` from the server
   * naming this request ends it: the request resolves to `undefined` (a graceful end, like its result).
   */
  readonly onnotification?: (notification: JSONRPCNotification) => void;
}

/** What the peer may send besides responses and progress; the dual-era client plugs its legacy handlers in here. */
export interface PeerHandlers {
  /** A request from the server. Modern servers never send one; the default answers `-32601`. */
  readonly onRequest?: (request: JSONRPCRequest) => Promise<unknown>;
  /** Any notification other than progress for a pending request. Ignored by default. */
  readonly onNotification?: (notification: JSONRPCNotification) => void;
}

/**
 * The request correlator over a stream {@link Transport}: numbers requests, matches responses to them, routes
 * progress, cancels, and fails everything in flight when the connection ends. It knows JSON-RPC and nothing of
 * MRTR, `_meta` contents or result shapes.
 */
export interface Requester {
  /**
   * Sends one request and resolves to its raw `result` member. Rejects with {@link McpError} for an error response,
   * with `signal.reason` when aborted, and with a `closed` `ClientError` when the connection ends first.
   */
  request(method: string, params: Record<string, unknown>, options?: SendOptions): Promise<unknown>;
  /** Sends one notification. */
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  /** True once the connection ended. */
  readonly closed: boolean;
  /** Closes the transport and fails every request in flight. Idempotent. */
  close(): Promise<void>;
}

interface Pending {
  readonly method: string;
  readonly onprogress: ProgressHandler | undefined;
  readonly onnotification: ((notification: JSONRPCNotification) => void) | undefined;
  settle(outcome: { ok: true; value: unknown } | { ok: false; error: unknown }): void;
}

/**
 * Starts reading `transport.messages` (its one consumer) and returns the {@link Requester} for it. Ids are
 * integers counting from 1 per connection, so every request, including each MRTR round, gets a new one; the
 * progress token of a request is its id. Responses with an unknown id (late, after a cancel or timeout) are
 * ignored, as the cancellation spec asks.
 */
export function createRequester(transport: Transport, handlers: PeerHandlers = {}): Requester {
  const pending = new Map<RequestId, Pending>();
  let nextId = 1;
  let closed = false;

  const failAll = (cause?: unknown): void => {
    closed = true;
    for (const [id, entry] of pending) {
      entry.settle({ ok: false, error: connectionClosed(entry.method, id, cause) });
    }
  };

  const cancel = (id: RequestId, reason: unknown): void => {
    const entry = pending.get(id);
    if (entry === undefined) return;
    entry.settle({ ok: false, error: reason });
    const text = reason instanceof Error ? reason.message : 'Request cancelled';
    if (!closed) {
      transport
        .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: text } })
        .catch(() => {
          // The connection is going away; the request already failed locally.
        });
    }
  };

  const answerRequest = async (request: JSONRPCRequest): Promise<void> => {
    let response: JSONRPCMessage;
    try {
      if (handlers.onRequest === undefined) throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
      response = jsonRpcResult(request.id, (await handlers.onRequest(request)) as Result);
    } catch (error) {
      response = jsonRpcError(
        request.id,
        error instanceof McpError ? error : new McpError(ErrorCode.InternalError, 'Internal error'),
      );
    }
    await transport.send(response, { relatedRequestId: request.id }).catch(() => {});
  };

  const route = (message: JSONRPCMessage): void => {
    switch (messageKind(message)) {
      case 'result': {
        const { id, result } = message as JSONRPCResultResponse;
        pending.get(id)?.settle({ ok: true, value: result });
        return;
      }
      case 'error': {
        const { id, error } = message as JSONRPCErrorResponse;
        if (id !== undefined) pending.get(id)?.settle({ ok: false, error: McpError.fromJSON(error) });
        return;
      }
      case 'request':
        void answerRequest(message as JSONRPCRequest);
        return;
      case 'notification': {
        const notification = message as JSONRPCNotification;
        if (notification.method === 'notifications/progress' && routeProgress(notification.params)) return;
        if (routeSubscription(notification)) return;
        handlers.onNotification?.(notification);
        return;
      }
      default:
      // Not a JSON-RPC message: nothing can be correlated with it.
    }
  };

  const routeProgress = (params: unknown): boolean => {
    const parsed = ProgressNotificationParamsSchema.safeParse(params);
    if (!parsed.success) return false;
    const entry = pending.get(parsed.data.progressToken);
    if (entry?.onprogress === undefined) return false;
    try {
      entry.onprogress(parsed.data);
    } catch (error) {
      cancel(parsed.data.progressToken, error);
    }
    return true;
  };

  /** Notifications of a `subscriptions/listen` stream, demultiplexed by their subscription id. */
  const routeSubscription = (notification: JSONRPCNotification): boolean => {
    const params = notification.params as Record<string, unknown> | undefined;
    if (notification.method === 'notifications/cancelled') {
      const entry = pending.get(params?.requestId as RequestId);
      if (entry?.onnotification === undefined) return false;
      entry.settle({ ok: true, value: undefined });
      return true;
    }
    const meta = params?._meta as Record<string, unknown> | undefined;
    const id = meta?.[MetaKey.subscriptionId];
    if (typeof id !== 'string' && typeof id !== 'number') return false;
    const entry = pending.get(id);
    if (entry?.onnotification === undefined) return false;
    try {
      entry.onnotification(notification);
    } catch (error) {
      cancel(id, error);
    }
    return true;
  };

  void (async () => {
    try {
      for await (const message of transport.messages) route(message);
      failAll();
    } catch (error) {
      failAll(error);
    }
  })();

  return {
    get closed() {
      return closed;
    },

    request(method, params, options = {}) {
      if (closed) return Promise.reject(connectionClosed(method, undefined));
      const { signal, onprogress, onnotification } = options;
      if (signal?.aborted) return Promise.reject(signal.reason);
      const id = nextId++;
      const wire =
        onprogress === undefined
          ? params
          : { ...params, _meta: { ...(params._meta as object | undefined), [MetaKey.progressToken]: id } };
      return new Promise((resolve, reject) => {
        const onAbort = () => cancel(id, signal?.reason);
        pending.set(id, {
          method,
          onprogress,
          onnotification,
          settle(outcome) {
            if (!pending.delete(id)) return;
            signal?.removeEventListener('abort', onAbort);
            if (outcome.ok) resolve(outcome.value);
            else reject(outcome.error);
          },
        });
        signal?.addEventListener('abort', onAbort, { once: true });
        const message = { jsonrpc: '2.0', id, method, params: wire } as JSONRPCRequest;
        transport.send(message, signal === undefined ? {} : { signal }).catch((error: unknown) => {
          pending.get(id)?.settle({
            ok: false,
            error: closed ? connectionClosed(method, id, error) : error,
          });
        });
      });
    },

    async notify(method, params) {
      if (closed) throw connectionClosed(method, undefined);
      const message = (
        params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }
      ) as JSONRPCNotification;
      await transport.send(message);
    },

    async close() {
      if (!closed) failAll();
      await transport.close();
    },
  };
}
