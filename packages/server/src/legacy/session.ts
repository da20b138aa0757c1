// One 2025-11-25 session on a stream connection: what `initialize` negotiated, the session-wide log level and
// resource subscriptions, and the server→client requests in flight (the back-channel the 2026-07-28 era has not).
import {
  type ClientCapabilities,
  ErrorCode,
  type Implementation,
  type InputRequest,
  isPlainObject,
  type JSONRPCMessage,
  type JSONRPCResponse,
  type LoggingLevel,
  McpError,
  type RequestId,
} from '@boomerang/protocol';
import { type InputRequestParams, inputRequestKind } from '@boomerang/protocol/internal';
import { describeCapabilities, missingClientCapabilities } from '../capabilities.js';

/** Sends one message on the session's connection (a request of the back-channel, or a notification). */
export type SessionSend = (message: JSONRPCMessage, relatedRequestId?: RequestId) => Promise<void>;

/** What `initialize` told the server about the client. */
export interface LegacyHello {
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

/** `-32001`: the code the 2025-11-25 SDKs use for a request that timed out. */
export const REQUEST_TIMEOUT = -32001;

/**
 * A 2025-11-25 session. `ask` sends one input request (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`) to the client as a real server→client request: checked against the capabilities the client
 * declared at `initialize` (`-32021` naming the missing ones, nothing sent), bounded by `timeoutMs`
 * (`-32001`, and the client is told with `notifications/cancelled`), cancelled the same way when `signal`
 * aborts. The client's `error` answer rejects with an `McpError` of that code.
 */
export class LegacySession {
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  /** Set by `logging/setLevel`: the lowest level of `notifications/message` the client wants. */
  logLevel: LoggingLevel | undefined;
  /** Resource URIs of `resources/subscribe`, each with the function that stops its subscription. */
  readonly subscriptions = new Map<string, () => void>();
  readonly #pending = new Map<string, Pending>();
  readonly #send: SessionSend;
  readonly #timeoutMs: number;
  #nextId = 0;
  #closed = false;

  constructor(hello: LegacyHello, send: SessionSend, timeoutMs: number) {
    this.clientCapabilities = hello.clientCapabilities;
    this.clientInfo = hello.clientInfo;
    this.#send = send;
    this.#timeoutMs = timeoutMs;
  }

  /** Sends a notification that belongs to no request (list changes, resource updates). */
  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.#send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Asks the client; see the class comment. `relatedRequestId` is the client request being served. */
  ask(request: InputRequest, relatedRequestId: RequestId, signal?: AbortSignal): Promise<unknown> {
    const missing = missingClientCapabilities({ ask: request }, this.clientCapabilities);
    if (missing !== undefined) {
      return Promise.reject(
        McpError.missingRequiredClientCapability(
          missing,
          `The client did not declare ${describeCapabilities(missing)} at initialize`,
        ),
      );
    }
    if (this.#closed) return Promise.reject(new McpError(ErrorCode.InternalError, 'Connection closed'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = `boomerang-${++this.#nextId}`;
    const cancel = (reason: string) =>
      void this.#send(
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } },
        relatedRequestId,
      ).catch(() => {});
    return new Promise<unknown>((resolve, reject) => {
      const done = () => {
        this.#pending.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        done();
        cancel('the request that asked was cancelled');
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        done();
        cancel('timed out');
        const message = `The client did not answer ${request.method} within ${this.#timeoutMs} ms`;
        reject(new McpError(REQUEST_TIMEOUT, message));
      }, this.#timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, {
        resolve: (result) => {
          done();
          resolve(result);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      const params =
        request.params === undefined ? {} : { params: legacyParams(request.method, request.params) };
      this.#send({ jsonrpc: '2.0', id, method: request.method, ...params }, relatedRequestId).catch(
        (error: unknown) => this.#pending.get(id)?.reject(error),
      );
    });
  }

  /** Routes a response from the client to the request that waits for it; false when none does. */
  receive(response: JSONRPCResponse): boolean {
    const pending = this.#pending.get(String(response.id));
    if (pending === undefined || typeof response.id !== 'string') return false;
    if ('result' in response) pending.resolve(response.result);
    else {
      const { code, message, data } = isPlainObject(response.error)
        ? (response.error as { code: number; message: string; data?: unknown })
        : { code: ErrorCode.InternalError, message: 'Invalid error', data: undefined };
      pending.reject(new McpError(code, message, data));
    }
    return true;
  }

  /** Ends the session: requests in flight reject, resource subscriptions stop. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const pending of [...this.#pending.values()]) {
      pending.reject(new McpError(ErrorCode.InternalError, 'Connection closed'));
    }
    for (const stop of this.subscriptions.values()) stop();
    this.subscriptions.clear();
  }
}

/**
 * The params of an input request as 2025-11-25 sends them: its kind's 2025-11-25 counterpart says what changes (a
 * URL-mode elicitation carries the `elicitationId` that revision requires, freshly minted; 2026-07-28 dropped it
 * and correlates through `requestState`).
 */
function legacyParams(method: string, params: InputRequestParams): InputRequestParams {
  const toLegacy = inputRequestKind(method)?.legacy.params;
  return toLegacy === undefined ? params : toLegacy(params);
}
