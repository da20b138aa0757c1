// The one logger shape of every Boomerang package, and its default: what never reaches the wire (a refused
// requestState's reason, the error behind an `Internal error`, a lost bus) goes to stderr under one prefix.

/** One log function: a message and optional structured details. `console.warn` and friends fit. */
export type LogFn = (message: string, details?: Readonly<Record<string, unknown>>) => void;

/**
 * Where a Boomerang server, transport or runtime reports what it never sends on the wire. `console` fits as
 * is. Default: `warn` and `error` go to `console.warn` / `console.error` (stderr in Node, so stdio stays clean)
 * prefixed `[boomerang]`; `debug` is silent.
 */
export interface Logger {
  debug?: LogFn;
  warn?: LogFn;
  error?: LogFn;
}

/** A {@link Logger} with every level present: what the SDK's packages log through. */
export interface ResolvedLogger {
  readonly debug: LogFn;
  readonly warn: LogFn;
  readonly error: LogFn;
}

/** The prefix of every line the default logger writes. */
export const LOG_PREFIX = '[boomerang]';

const silent: LogFn = () => {};

/** The default: `warn` / `error` to the console under {@link LOG_PREFIX}, `debug` silent. */
export const consoleLogger: ResolvedLogger = Object.freeze({
  debug: silent,
  warn: (message: string, details?: Readonly<Record<string, unknown>>) =>
    console.warn(`${LOG_PREFIX} ${message}`, ...(details ? [details] : [])),
  error: (message: string, details?: Readonly<Record<string, unknown>>) =>
    console.error(`${LOG_PREFIX} ${message}`, ...(details ? [details] : [])),
});

/**
 * The logger the SDK logs through: {@link consoleLogger} when none is given; else the given one's functions, a
 * missing one silent, and one that throws contained (a logger must never turn into a failed request).
 */
export function resolveLogger(logger: Logger | undefined): ResolvedLogger {
  if (logger === undefined) return consoleLogger;
  const bind = (fn: LogFn | undefined): LogFn =>
    typeof fn !== 'function'
      ? silent
      : (message, details) => {
          try {
            fn.call(logger, message, details);
          } catch {}
        };
  return { debug: bind(logger.debug), warn: bind(logger.warn), error: bind(logger.error) };
}
