import type {
  AuthInfo,
  ClientCapabilities,
  HandleContext,
  Implementation,
  InputRequest,
  InputResponses,
  JSONRPCNotification,
  LoggingLevel,
  ProgressToken,
  RequestId,
} from '@boomerang/protocol';
import { isLoggingLevel as isMcpLoggingLevel, LOGGING_LEVELS } from '@boomerang/protocol';
import type { Cancellation } from './cancellation.js';
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
  /** A 2025-11-25 session's back-channel (see {@link RequestContext.ask}). */
  ask?: (request: InputRequest) => Promise<unknown>;
}

/**
 * What the core reads from a `HandleContext` beyond the transport's members: set by the legacy layer
 * (legacy/serve.ts) for a request of a 2025-11-25 session, whose version and back-channel it carries.
 */
export interface EraContext extends HandleContext {
  readonly legacy?: {
    readonly protocolVersion: string;
    readonly ask: (request: InputRequest) => Promise<unknown>;
  };
}

/**
 * Builds the handler context of one request, and `end()`, which the server calls once the response is decided:
 * from then on progress and log notifications are dropped (they are request-scoped and must stop with it).
 */
export function createRequestContext(init: RequestContextInit): { ctx: RequestContext; end(): void } {
  let ended = false;
  let lastProgress = Number.NEGATIVE_INFINITY;
  const { notify, progressToken, logLevel } = init;

  const send = async (notification: JSONRPCNotification): Promise<void> => {
    if (ended || notify === undefined) return;
    try {
      await notify(notification);
    } catch (error) {
      init.warn(`could not deliver ${notification.method} for request ${String(init.requestId)}`, { error });
    }
  };

  const ctx: RequestContext = {
    requestId: init.requestId,
    method: init.method,
    get signal() {
      return init.cancel.signal;
    },
    protocolVersion: init.protocolVersion,
    clientCapabilities: init.clientCapabilities,
    clientInfo: init.clientInfo,
    auth: init.auth,
    progressToken,
    logLevel,
    inputResponses: init.inputResponses,
    requestState: init.requestState,
    ...(init.ask === undefined ? {} : { ask: init.ask }),
    async sendProgress(progress, total, message) {
      if (typeof progress !== 'number' || !Number.isFinite(progress)) {
        throw new TypeError(`"progress" expected finite number, got ${String(progress)}`);
      }
      if (total !== undefined && (typeof total !== 'number' || !Number.isFinite(total))) {
        throw new TypeError(`"total" expected finite number, got ${String(total)}`);
      }
      // Progress MUST increase: a value that does not is dropped rather than sent.
      if (progressToken === undefined || progress <= lastProgress) return;
      lastProgress = progress;
      const params: Record<string, unknown> = { progressToken, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined) params.message = message;
      await send({ jsonrpc: '2.0', method: 'notifications/progress', params } as JSONRPCNotification);
    },
    async log(level, data, logger) {
      if (!isLoggingLevel(level))
        throw new TypeError(`"level" expected a logging level, got ${String(level)}`);
      if (!init.loggingEnabled || logLevel === undefined) return;
      if (LEVELS.indexOf(level) < LEVELS.indexOf(logLevel)) return;
      const params: Record<string, unknown> = { level, data };
      if (logger !== undefined) params.logger = logger;
      await send({ jsonrpc: '2.0', method: 'notifications/message', params } as JSONRPCNotification);
    },
  };
  return {
    ctx,
    end() {
      ended = true;
    },
  };
}
