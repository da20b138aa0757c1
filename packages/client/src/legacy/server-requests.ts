// A 2025-11-25 server calls the client back mid-call: its `elicitation/create`, `sampling/createMessage` and
// `roots/list` requests are answered by the same callbacks the MRTR loop uses, in the context of the call in
// flight.
import {
  type ClientCapabilities,
  ErrorCode,
  type Implementation,
  type InputRequest,
  type JSONRPCNotification,
  type JSONRPCRequest,
  McpError,
} from '@boomerang/protocol';
import { isClientError, type OriginatingRequest } from '../errors.js';
import { answerInputRequests, type InputCallbacks } from '../input-requests.js';
import type { PeerHandlers } from '../requester.js';

/**
 * Keeps the calls in flight, so that a legacy server's request (which does not say which call it serves on a
 * stream transport) reaches the callbacks with the most recent one as its context.
 */
export class CallsInFlight {
  readonly #calls: OriginatingRequest[] = [];

  /** Records `request` until the returned disposable is disposed. */
  track(request: OriginatingRequest): Disposable {
    this.#calls.push(request);
    return {
      [Symbol.dispose]: () => {
        const at = this.#calls.lastIndexOf(request);
        if (at >= 0) this.#calls.splice(at, 1);
      },
    };
  }

  /** The most recent call in flight; a `tools/call` with an empty name when there is none. */
  current(): OriginatingRequest {
    return this.#calls.at(-1) ?? { method: 'tools/call', name: '' };
  }
}

/** What {@link answerServerRequest} needs from the client. */
export interface ServerRequestContext {
  readonly callbacks: InputCallbacks;
  readonly capabilities: ClientCapabilities;
  readonly calls: CallsInFlight;
  readonly serverInfo: Implementation | undefined;
  /** The most of the server's requests answered at once (the client's `maxInputRequests`); no bound when absent. */
  readonly maxInFlight?: number | undefined;
}

/**
 * Answers one request of a 2025-11-25 server: `ping` with `{}`; `elicitation/create`,
 * `sampling/createMessage` and `roots/list` with the callback the MRTR loop would use (same checks against
 * the declared capabilities, same validation of the answer). A request no callback covers is `-32601`; a
 * callback that throws or answers badly is `-32603` (the details stay local).
 */
export async function answerServerRequest(
  request: JSONRPCRequest,
  ctx: ServerRequestContext,
  signal?: AbortSignal,
): Promise<unknown> {
  if (request.method === 'ping') return {};
  const key = String(request.id);
  const input = { method: request.method, params: request.params } as InputRequest;
  try {
    const answers = await answerInputRequests({ [key]: input }, ctx.callbacks, {
      request: ctx.calls.current(),
      round: 1,
      signal,
      serverInfo: ctx.serverInfo,
      capabilities: ctx.capabilities,
    });
    return answers[key];
  } catch (error) {
    if (isClientError(error, 'unsupported-input-request')) {
      throw new McpError(ErrorCode.MethodNotFound, error.message);
    }
    throw error;
  }
}

/**
 * The requester's handlers for a connection that may turn out legacy: while `answering()` is `undefined` (a
 * 2026-07-28 connection, or before `initialize`) every server request is `-32601`; afterwards requests go to
 * {@link answerServerRequest}, and the server's `notifications/cancelled` aborts the callbacks' `signal` of
 * the request it names (its answer is then never sent: the callback's rejection is dropped with it). Beyond
 * `maxInFlight` requests being answered, another is answered `-32603` at once (no callback runs).
 */
export function legacyPeerHandlers(answering: () => ServerRequestContext | undefined): PeerHandlers {
  const inFlight = new Map<string, AbortController>();
  return {
    async onRequest(request) {
      const ctx = answering();
      if (ctx === undefined) throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
      const key = `${typeof request.id}:${request.id}`;
      if (ctx.maxInFlight !== undefined && inFlight.size >= ctx.maxInFlight) {
        throw new McpError(
          ErrorCode.InternalError,
          `Too many requests at once: this client answers at most ${ctx.maxInFlight} server requests at the same time (maxInputRequests)`,
        );
      }
      const controller = new AbortController();
      inFlight.set(key, controller);
      try {
        return await answerServerRequest(request, ctx, controller.signal);
      } finally {
        inFlight.delete(key);
      }
    },
    onNotification(notification: JSONRPCNotification) {
      if (notification.method !== 'notifications/cancelled') return;
      const id = (notification.params as { requestId?: unknown } | undefined)?.requestId;
      const key = `${typeof id}:${String(id)}`;
      inFlight.get(key)?.abort(new McpError(ErrorCode.InternalError, 'Cancelled by the server'));
    },
  };
}
