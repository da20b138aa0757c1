// The peer of `requestTransportSuite`: a scripted `MessageHandler` whose methods each exercise one part of the
// contract, and `serveOverStream`, which serves a handler on the server end of a stream transport (memory,
// stdio) the way `Server.connect` does. HTTP serves the same handler through `createHttpHandler`.
import {
  isPlainObject,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  McpError,
  type RequestId,
} from '@boomerang/protocol';
import {
  type HandleContext,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isRequestId,
  jsonRpcError,
  jsonRpcResult,
  type MessageHandler,
  type Transport,
} from '@boomerang/protocol/transport';

/** What the suite's server saw, for the tests to check. */
export interface SuiteServerLog {
  /** Every notification the server received. */
  readonly notifications: JSONRPCNotification[];
  /** Ids of the `suite/hang` requests that arrived. */
  readonly hanging: RequestId[];
  /** Ids of the requests whose cancellation reached the server. */
  readonly cancelled: RequestId[];
}

/**
 * The suite's server. Methods: `suite/echo` (answers `{ echoed: params }`, `_meta` left out), `suite/notify`
 * (`{ count }` `notifications/progress` for the request's progress token before its result), `suite/fail` (answers the
 * error given as `{ code, message, data? }`), `suite/hang` (never answers; records its cancellation).
 */
export function suiteServer(): { readonly handler: MessageHandler; readonly log: SuiteServerLog } {
  const log: SuiteServerLog = { notifications: [], hanging: [], cancelled: [] };
  const handler: MessageHandler = {
    async handle(message: unknown, ctx: HandleContext = {}): Promise<JSONRPCResponse | undefined> {
      if (isJSONRPCNotification(message)) {
        log.notifications.push(message);
        return undefined;
      }
      if (!isJSONRPCRequest(message)) return undefined;
      const { id, method, params = {} } = message;
      const { _meta, ...rest } = params;
      switch (method) {
        case 'suite/echo':
          return jsonRpcResult(id, { resultType: 'complete', echoed: rest });
        case 'suite/notify': {
          const count = Number(rest.count ?? 0);
          const progressToken = isPlainObject(_meta) ? _meta.progressToken : undefined;
          for (let i = 0; i < count; i++) {
            const params = { progressToken, progress: i };
            await ctx.notify?.({ jsonrpc: '2.0', method: 'notifications/progress', params });
          }
          return jsonRpcResult(id, { resultType: 'complete', sent: count });
        }
        case 'suite/fail': {
          const { code, message: text, data } = rest as { code: number; message: string; data?: unknown };
          return jsonRpcError(id, new McpError(code, text, data));
        }
        case 'suite/hang':
          log.hanging.push(id);
          await cancellationOf(ctx);
          log.cancelled.push(id);
          return undefined;
        default:
          return jsonRpcError(id, new McpError(-32601, 'Method not found'));
      }
    },
  };
  return { handler, log };
}

/** Resolves once the request of `ctx` is cancelled (never, when the transport cannot tell). */
function cancellationOf(ctx: HandleContext): Promise<void> {
  return new Promise((resolve) => {
    if (ctx.cancellation !== undefined) {
      if (ctx.cancellation.aborted) resolve();
      else ctx.cancellation.onAbort(() => resolve());
    } else if (ctx.signal?.aborted) resolve();
    else ctx.signal?.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * Serves `handler` on the server end of a stream transport until it closes: each request is handled with a
 * `signal` that its `notifications/cancelled` aborts and a `notify` that sends on the transport tied to it
 * (`relatedRequestId`), and its response (if any) is sent back. Other notifications go to the handler.
 */
export function serveOverStream(transport: Transport, handler: MessageHandler): void {
  const inFlight = new Map<RequestId, AbortController>();
  const serve = async (request: JSONRPCRequest): Promise<void> => {
    const controller = new AbortController();
    inFlight.set(request.id, controller);
    const ctx: HandleContext = {
      signal: controller.signal,
      notify: (notification) => transport.send(notification, { relatedRequestId: request.id }),
    };
    try {
      const response = await handler.handle(request, ctx);
      if (response !== undefined && !controller.signal.aborted) await transport.send(response);
    } finally {
      inFlight.delete(request.id);
    }
  };
  void (async () => {
    for await (const message of transport.messages) {
      if (isJSONRPCRequest(message)) void serve(message).catch(() => {});
      else if (isJSONRPCNotification(message)) {
        const notification = message;
        if (notification.method === 'notifications/cancelled') {
          const id = notification.params?.requestId;
          if (isRequestId(id)) inFlight.get(id)?.abort(new Error('cancelled by the client'));
        }
        void handler.handle(notification).catch(() => {});
      }
    }
  })().catch(() => {});
}
