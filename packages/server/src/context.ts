import type {
  AuthInfo,
  ClientCapabilities,
  Implementation,
  InputResponses,
  JSONRPCNotification,
  LoggingLevel,
  ProgressToken,
  RequestId,
} from '@boomerang/protocol';
import { argumentError, isLoggingLevel as isMcpLoggingLevel, LOGGING_LEVELS } from '@boomerang/protocol';
import type { Cancellation } from '@boomerang/protocol/transport';
import type { LogFn, RequestContext } from './types.js';

/** RFC 5424 severities, lowest first: a client asking for `warning` gets `warning` … `emergency`. */
const LEVELS: readonly LoggingLevel[] = LOGGING_LEVELS;

/** True for one of the eight MCP log levels. */
export const isLoggingLevel: (value: unknown) => value is LoggingLevel = isMcpLoggingLevel;

/** What {@link createRequestContext} needs to know about one request. */
export interface RequestContextInit {
  requestId: RequestId;
  method: string;
  /** The request's cancellation: `ctx.signal` is its (lazily made) signal. */
  cancel: Cancellation;
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  /** The request's `_meta`. */
  meta: Readonly<Record<string, unknown>>;
  auth: AuthInfo | undefined;
  progressToken: ProgressToken | undefined;
  logLevel: LoggingLevel | undefined;
  inputResponses: InputResponses | undefined;
  requestState: string | undefined;
  /** The server advertises `logging` (without it, `ctx.log` never emits). */
  loggingEnabled: boolean;
  /** Delivers a notification tied to this request; absent when the transport cannot. */
  notify: ((notification: JSONRPCNotification) => void | Promise<void>) | undefined;
  /** Reports a failed notification delivery. */
  warn: LogFn;
}

/**
 * Builds the handler context of one request, and `end()`, which the server calls once the response is decided:
 * from then on progress and log notifications are dropped (they are request-scoped and must stop with it).
 */
export function createRequestContext(init: RequestContextInit): { ctx: RequestContext; end(): void } {
  const ctx = new HandlerContext(init);
  return { ctx, end: () => HandlerContext.end(ctx) };
}

/**
 * The {@link RequestContext} of one request. A class, because `signal` must be a getter (the request's
 * AbortController is made only when a handler reads it) and an object literal with a getter costs about 30×
 * more to create than a class instance, on every request. `sendProgress` and `log` stay own closures, so a
 * handler may destructure them.
 */
class HandlerContext implements RequestContext {
  readonly requestId: RequestContext['requestId'];
  readonly method: RequestContext['method'];
  readonly protocolVersion: RequestContext['protocolVersion'];
  readonly clientCapabilities: RequestContext['clientCapabilities'];
  readonly clientInfo: RequestContext['clientInfo'];
  readonly meta: RequestContext['meta'];
  readonly auth: RequestContext['auth'];
  readonly progressToken: RequestContext['progressToken'];
  readonly logLevel: RequestContext['logLevel'];
  readonly inputResponses: RequestContext['inputResponses'];
  readonly requestState: RequestContext['requestState'];
  readonly sendProgress: RequestContext['sendProgress'];
  readonly log: RequestContext['log'];
  readonly #cancel: Cancellation;
  #ended = false;

  constructor(init: RequestContextInit) {
    this.requestId = init.requestId;
    this.method = init.method;
    this.#cancel = init.cancel;
    this.protocolVersion = init.protocolVersion;
    this.clientCapabilities = init.clientCapabilities;
    this.clientInfo = init.clientInfo;
    this.meta = init.meta;
    this.auth = init.auth;
    const { notify, progressToken, logLevel } = init;
    this.progressToken = progressToken;
    this.logLevel = logLevel;
    this.inputResponses = init.inputResponses;
    this.requestState = init.requestState;

    const send = async (notification: JSONRPCNotification): Promise<void> => {
      if (this.#ended || notify === undefined) return;
      try {
        await notify(notification);
      } catch (error) {
        init.warn(`could not deliver ${notification.method} for request ${String(init.requestId)}`, {
          error,
        });
      }
    };
    let lastProgress = Number.NEGATIVE_INFINITY;
    this.sendProgress = async (progress, total, message) => {
      if (typeof progress !== 'number' || !Number.isFinite(progress)) {
        throw argumentError('progress', 'finite number', progress);
      }
      if (total !== undefined && (typeof total !== 'number' || !Number.isFinite(total))) {
        throw argumentError('total', 'finite number', total);
      }
      // Progress MUST increase: a value that does not is dropped rather than sent.
      if (progressToken === undefined || progress <= lastProgress) return;
      lastProgress = progress;
      const params: Record<string, unknown> = { progressToken, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined) params.message = message;
      await send({ jsonrpc: '2.0', method: 'notifications/progress', params });
    };
    this.log = async (level, data, logger) => {
      if (!isLoggingLevel(level)) throw argumentError('level', 'a logging level', level);
      if (!init.loggingEnabled || logLevel === undefined) return;
      if (LEVELS.indexOf(level) < LEVELS.indexOf(logLevel)) return;
      const params: Record<string, unknown> = { level, data };
      if (logger !== undefined) params.logger = logger;
      await send({ jsonrpc: '2.0', method: 'notifications/message', params });
    };
  }

  get signal(): AbortSignal {
    return this.#cancel.signal;
  }

  /** Drops every later progress and log notification of `ctx` (its response is decided). */
  static end(ctx: HandlerContext): void {
    ctx.#ended = true;
  }
}
