// The server's log messages (`notifications/message`): how a client asks for them (a level per request, in
// `_meta["io.modelcontextprotocol/logLevel"]`; a 2025-11-25 session's `logging/setLevel`) and where they go
// (the `onLog` callback, with the call they belong to when the transport tells).
import {
  isLoggingLevel,
  type JSONRPCNotification,
  type LoggingLevel,
  type LoggingMessageNotificationParams,
} from '@boomerang/protocol';
import { type LazyParseResult, parseLazily, verdictOf } from '@boomerang/protocol/internal';
import type { OriginatingRequest } from './errors.js';

/** What `onLog` learns about a log message besides its params. */
export interface LogContext {
  /**
   * The call whose request the message came with, when the transport tells: over HTTP a request's log messages
   * arrive on its own response stream. On a stream transport (stdio, in memory) messages carry nothing that ties
   * them to a request, so this is absent.
   */
  readonly request?: OriginatingRequest | undefined;
}

/**
 * Receives the server's log messages (`notifications/message`: `level`, `logger?`, `data`). What it throws is
 * dropped: a log handler never fails a call.
 */
export type LogHandler = (params: LoggingMessageNotificationParams, ctx: LogContext) => void;

/**
 * The params of a valid `notifications/message`, or `undefined` for any other notification (or a malformed one).
 * Synchronous (the protocol's check knows zod's verdict on these params), but for params only zod can read as it
 * would (an own `__proto__` member, which zod drops): zod, loaded on demand, reads those, and the answer is a
 * promise.
 */
export function logParams(
  notification: JSONRPCNotification,
): LoggingMessageNotificationParams | undefined | Promise<LoggingMessageNotificationParams | undefined> {
  if (notification.method !== 'notifications/message') return undefined;
  const { params } = notification;
  const verdict = verdictOf('LoggingMessageNotificationParams', params);
  if (verdict !== undefined) return verdict ? (params as LoggingMessageNotificationParams) : undefined;
  const read = (parsed: LazyParseResult<LoggingMessageNotificationParams>) =>
    parsed.success ? parsed.data : undefined;
  const parsed = parseLazily('LoggingMessageNotificationParams', params);
  return parsed instanceof Promise ? parsed.then(read) : read(parsed);
}

/** Hands a log message to `onLog`, dropping what it throws. */
export function deliverLog(
  onLog: LogHandler,
  params: LoggingMessageNotificationParams,
  request: OriginatingRequest | undefined,
): void {
  try {
    onLog(params, request === undefined ? {} : { request });
  } catch {
    // A log handler's own failure: never the call's.
  }
}

/** Checks a log level option: one of the eight RFC 5424 names, or `RangeError` naming the option. */
export function checkLogLevel(name: string, level: unknown): LoggingLevel | undefined {
  if (level === undefined) return undefined;
  if (!isLoggingLevel(level)) {
    throw new RangeError(
      `"${name}" expected one of debug, info, notice, warning, error, critical, alert, emergency, got ${JSON.stringify(level)}`,
    );
  }
  return level;
}
