import type { Implementation, ServerCapabilities } from '@boomerang/protocol';
import type { CustomMethod, ResultTypes } from './custom-methods.js';
import type { ServerMiddleware } from './middleware.js';
import type { NotificationSource } from './notifications.js';
import type { RequestStateEnvelope } from './sealed.js';
import type { CacheHints, ExtensionSubscriptions, LogFn, ServerHandlers } from './types.js';

/** Everything a request needs from its server, resolved once at construction. */
export interface ServerCore {
  readonly info: Implementation;
  readonly handlers: ServerHandlers;
  /**
   * The capabilities in force, read per request (a method whose feature is absent answers `-32601`) and per
   * `server/discover`. Without the members a notification source and the extensions add (see discover.ts).
   */
  readonly capabilities: () => ServerCapabilities;
  /** Custom methods (options and extensions), by name. */
  readonly methods: ReadonlyMap<string, CustomMethod>;
  /** Extension result types, by method then `resultType`. */
  readonly resultTypes: ResultTypes;
  /** `capabilities.extensions` of the registered extensions. */
  readonly extensions: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly instructions: string | undefined;
  /** Cache hints per cacheable method (both members set). */
  readonly cacheHints: (method: string) => Required<CacheHints>;
  readonly requestState: RequestStateEnvelope | undefined;
  /** Where `subscriptions/listen` streams get their notifications; `undefined`: the method answers `-32601`. */
  readonly notifications: NotificationSource | undefined;
  /** The extensions' members of the `subscriptions/listen` filter (their `agree` runs per listen request). */
  readonly subscriptions: readonly ExtensionSubscriptions[];
  /** Aborted by `server.close()`: every open subscription ends with its result. */
  readonly closing: AbortSignal;
  /** The `subscriptions/listen` requests being served (`server.close()` waits for them). */
  readonly listening: Set<Promise<unknown>>;
  readonly log: { readonly debug: LogFn; readonly warn: LogFn; readonly error: LogFn };
  /** The middleware around every request, first registered outermost (`server.use`). */
  readonly middleware: ServerMiddleware[];
}
