// Running one JSON-RPC message through the handler and turning its outcome into the HTTP answer: JSON when the
// response comes first, an event stream from the first notification on.
import {
  type AuthInfo,
  ErrorCode,
  type JSONRPCErrorResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type RequestId,
} from '@boomerang/protocol';
import {
  CancellableHandleContext,
  type HandleContext,
  isRequestId,
  jsonRpcError,
  type MessageHandler,
  RequestCancellation,
} from '@boomerang/protocol/transport';
import { type EventStream, openEventStream } from './event-stream.js';
import type { Exchange } from './exchange.js';
import { headersOf, json, type Reply, statusOf } from './replies.js';

/**
 * Runs one request: JSON if the handler answers before notifying, SSE from its first notification on.
 * The handler's signal follows the HTTP request's and the event stream's cancellation.
 */
export function answer(
  handler: MessageHandler,
  message: JSONRPCRequest,
  exchange: Exchange,
  auth: AuthInfo | undefined,
  onError: (error: unknown) => void,
): Promise<Reply> {
  // The exchange's own cancellation, or one that follows the request's signal (cheaper than `AbortSignal.any`).
  const owned = exchange.cancellation;
  const cancel = owned ?? new RequestCancellation();
  const requestSignal = owned === undefined ? exchange.signal : undefined;
  const follow = () => cancel.abort(requestSignal?.reason);
  if (requestSignal !== undefined) {
    if (requestSignal.aborted) follow();
    else requestSignal.addEventListener('abort', follow, { once: true });
  }
  let stream: EventStream | undefined;
  let finished = false;

  return new Promise<Reply>((resolve) => {
    const notify = (notification: JSONRPCNotification): void => {
      if (finished || cancel.aborted) return;
      if (stream === undefined) {
        stream = openEventStream((reason) => {
          finished = true;
          cancel.abort(reason);
        });
        resolve(stream.response);
      }
      stream.write(notification);
    };
    const ctx = new CancellableHandleContext(cancel, notify, auth);

    void safeHandle(handler, message, ctx, onError).then((response) => {
      const reply = response ?? cancelled(message.id, cancel.aborted);
      // Through `exchange`, not `requestSignal`: this closure keeps the exchange (and a web `Request` behind it)
      // alive until the handler is done. A `Request` forwards its `init.signal` to its own signal through a weak
      // reference, so a collected `Request` would never tell the handler that its client went away.
      if (owned === undefined) exchange.signal.removeEventListener('abort', follow);
      finished = true;
      if (stream !== undefined) {
        if (!cancel.aborted) stream.write(reply);
        stream.close();
        return;
      }
      const status = statusOf(reply);
      resolve(status === 429 ? json(status, reply, headersOf(reply)) : json(status, reply));
    });
  });
}

/** Delivers a notification: the handler runs to its end, and the answer is 202 with no body. */
export async function deliver(
  handler: MessageHandler,
  message: JSONRPCNotification,
  exchange: Exchange,
  auth: AuthInfo | undefined,
  onError: (error: unknown) => void,
): Promise<Reply> {
  const owned = exchange.cancellation;
  const ctx =
    owned === undefined
      ? { signal: exchange.signal, ...(auth && { auth }) }
      : new CancellableHandleContext(owned, undefined, auth);
  await safeHandle(handler, message, ctx, onError);
  return { status: 202, headers: {}, body: null };
}

/** `handler.handle` that never rejects: a throwing handler is its own bug, answered `-32603`. */
async function safeHandle(
  handler: MessageHandler,
  message: JSONRPCRequest | JSONRPCNotification,
  ctx: HandleContext,
  onError: (error: unknown) => void,
): Promise<JSONRPCResponse | undefined> {
  try {
    return await handler.handle(message, ctx);
  } catch (error) {
    onError(error);
    const id = 'id' in message && isRequestId(message.id) ? message.id : undefined;
    return id === undefined
      ? undefined
      : jsonRpcError(id, { code: ErrorCode.InternalError, message: 'Internal error' });
  }
}

/** The answer when the handler dropped a request (its signal aborted): nobody is listening any more. */
function cancelled(id: RequestId, aborted: boolean): JSONRPCErrorResponse {
  const reason = aborted ? 'Request cancelled' : 'Internal error: the handler sent no response';
  return jsonRpcError(id, { code: ErrorCode.InternalError, message: reason });
}
