import {
  argumentError,
  describeIssues,
  type Implementation,
  isCacheableMethod,
  isPlainObject,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type ServerCapabilities,
} from '@boomerang/protocol';
import { resolveLogger } from '@boomerang/protocol/internal';
import { ImplementationSchema, safeParse } from '@boomerang/protocol/schemas';
import {
  type HandleContext,
  type MessageHandler,
  parseMessage,
  type Transport,
} from '@boomerang/protocol/transport';
import { mergeCapabilities, serverCapabilities } from './capabilities.js';
import { type ConnectOptions, type ServeRequest, type ServerConnection, serveTransport } from './connect.js';
import type { ServerCore } from './core.js';
import { type CustomMethod, checkMethod, customMethods } from './custom-methods.js';
import { currentCapabilities } from './discover.js';
import { serveRequest } from './dispatch.js';
import { dualEraConnection, type LegacySettings, legacySettings } from './legacy/connection.js';
import { HANDLER_NAMES } from './methods.js';
import { checkMiddleware, type ServerMiddleware } from './middleware.js';
import type { SubscriptionNotification } from './notifications.js';
import type {
  CacheHints,
  CacheOptions,
  CacheScope,
  LogFn,
  MethodDefinition,
  ServerHandlers,
  ServerOptions,
} from './types.js';

const OPTION_NAMES: ReadonlySet<string> = new Set([
  ...HANDLER_NAMES,
  'instructions',
  'capabilities',
  'methods',
  'extensions',
  'cache',
  'requestState',
  'logger',
  'notifications',
  'legacy',
]);

/**
 * The low-level MCP 2026-07-28 server: a table of request handlers behind the protocol's rules. It validates
 * every request's `_meta` and params, negotiates the version per request, answers `server/discover`, checks
 * every input request a handler returns against this request's client capabilities, stamps `resultType`,
 * `serverInfo` and cache hints, keeps cursors opaque and, with `requestState: sealed(...)`, seals request
 * state. It knows JSON-RPC messages, never HTTP: serve it with `connect(transport)` (stream transports) or call
 * `handle(message, ctx)` (request/response transports such as HTTP).
 *
 * Methods beyond the protocol's (`options.methods`) and extensions (`options.extensions`: their capabilities,
 * methods and result types) are served by the same rules; a method the server does not serve answers `-32601`.
 *
 * Throws `TypeError` at construction for an invalid `info`, an unknown option, an option of the wrong type, or a
 * custom method that takes a built-in name, and `RangeError` for a negative or fractional `cache.ttlMs`.
 */
export class Server implements MessageHandler {
  /** The server's self-description, sent in every result's `_meta["io.modelcontextprotocol/serverInfo"]`. */
  readonly info: Implementation;
  readonly #core: ServerCore;
  readonly #methods: Map<string, CustomMethod>;
  readonly #closing = new AbortController();
  /** Stops the extensions publishing into this server's source (see `ExtensionSubscriptions.attach`). */
  readonly #detach: (() => void)[] = [];
  /** Settings of 2025-11-25 sessions; `undefined` when `legacy: false`. */
  readonly #legacy: LegacySettings | undefined;
  /** Set by the first request served: middleware can no longer be added. */
  #serving = false;

  constructor(info: Implementation, options: ServerOptions = {}) {
    const checked = safeParse(ImplementationSchema, info);
    if (!checked.success)
      throw new TypeError(`"info" is invalid: ${describeIssues(checked.error.issues, 'info')}`);
    checkOptions(options);
    const handlers: ServerHandlers = Object.fromEntries(
      HANDLER_NAMES.flatMap((name) => (options[name] ? [[name, options[name]]] : [])),
    );
    this.info = info;
    this.#legacy = legacySettings(options.legacy);
    const { notifications } = options;
    const custom = customMethods(options.methods, options.extensions);
    this.#methods = custom.methods;
    this.#core = {
      info,
      handlers,
      capabilities: capabilitiesInForce(handlers, options.capabilities, notifications !== undefined),
      methods: custom.methods,
      resultTypes: custom.resultTypes,
      extensions: custom.extensions,
      instructions: options.instructions,
      cacheHints: resolveCache(options.cache),
      requestState: options.requestState,
      notifications,
      subscriptions: custom.subscriptions,
      closing: this.#closing.signal,
      listening: new Set(),
      log: resolveLogger(options.logger),
      middleware: [],
    };
    if (notifications !== undefined) {
      for (const extension of custom.subscriptions) this.#detach.push(extension.attach(notifications));
    }
  }

  /**
   * Where this server reports what never reaches the wire: the `logger` option's functions (the missing ones
   * silent, a throwing one contained), or `console.warn` / `console.error` by default. Layers built on the
   * server (`McpServer`) log through it, so one logger serves the whole stack.
   */
  get logger(): { readonly debug: LogFn; readonly warn: LogFn; readonly error: LogFn } {
    return this.#core.log;
  }

  /**
   * The capabilities `server/discover` advertises now: implied by the handlers and merged with
   * `options.capabilities` (or read from it, when it is a function), with the notification source's
   * `listChanged` / `subscribe` and the extensions filled in.
   */
  get capabilities(): ServerCapabilities {
    return currentCapabilities(this.#core);
  }

  /**
   * Adds a middleware around every request this server serves (on every transport and in both eras, a 2025-11-25
   * session's `initialize`, `ping`, `logging/setLevel` and `resources/(un)subscribe` included): an onion
   * function `(ctx, next) => result`, run in registration order, the first registered outermost. `ctx` tells the
   * method, params, `_meta`, principal and round of the request (see `ServerMiddlewareContext`); `next()` resolves
   * to its result or rejects with its `McpError`; throwing an `McpError` answers with it instead. Register them
   * before the server serves its first request (`Error` afterwards: a request must never see half a chain);
   * `TypeError` for something other than a function. Returns the server, so calls chain.
   */
  use(middleware: ServerMiddleware): this {
    checkMiddleware(middleware);
    if (this.#serving) {
      throw new Error(
        'server.use() after the server started serving: register middleware before connect or handle',
      );
    }
    this.#core.middleware.push(middleware);
    return this;
  }

  /**
   * Serves one more custom method from now on, as if it were in `options.methods` (`McpServer#method` registers
   * through this); `remove()` stops serving exactly this registration (later requests answer `-32601`).
   * Throws `TypeError` for a built-in name or a bad definition, `Error` when the name is taken.
   */
  addMethod(name: string, definition: MethodDefinition): { remove(): void } {
    if (typeof name !== 'string') throw argumentError('name', 'a string', name);
    const method = checkMethod(`method "${name}"`, name, definition, this.#methods);
    this.#methods.set(name, method);
    return {
      remove: () => {
        if (this.#methods.get(name) === method) this.#methods.delete(name);
      },
    };
  }

  /**
   * Announces that the tool, prompt or resource list changed: every `subscriptions/listen` stream that asked
   * for that kind (on every server sharing the `notifications` source) receives
   * `notifications/{tools,prompts,resources}/list_changed`. A no-op without a source. Never rejects: a source
   * that fails is reported to the logger. Throws `TypeError` for another `list`.
   */
  notifyListChanged(list: 'tools' | 'prompts' | 'resources'): Promise<void> {
    if (list !== 'tools' && list !== 'prompts' && list !== 'resources') {
      throw argumentError('list', '"tools", "prompts" or "resources"', list);
    }
    return this.#publish({ jsonrpc: '2.0', method: `notifications/${list}/list_changed` });
  }

  /**
   * Announces that the resource at `uri` changed: every `subscriptions/listen` stream with `uri` in its
   * `resourceSubscriptions` receives `notifications/resources/updated { uri }`. A no-op without a source. Never
   * rejects (failures go to the logger). Throws `TypeError` when `uri` is not a string.
   */
  notifyResourceUpdated(uri: string): Promise<void> {
    if (typeof uri !== 'string') throw argumentError('uri', 'a string', uri);
    return this.#publish({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
  }

  /**
   * Ends every open `subscriptions/listen` stream gracefully, on every transport: each gets its
   * `SubscriptionsListenResult` (`{ resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId" } }`)
   * as the last message; over HTTP that closes the event stream. Later listen requests are acknowledged and
   * ended at once. Other requests are not affected. Resolves once every stream has its result (on stream
   * transports the connection then sends it). Extensions stop publishing into this server's source. Call it
   * before closing the HTTP listener or the process.
   */
  async close(): Promise<void> {
    this.#closing.abort();
    for (const detach of this.#detach.splice(0)) detach();
    await Promise.allSettled([...this.#core.listening]);
  }

  async #publish(notification: SubscriptionNotification): Promise<void> {
    const source = this.#core.notifications;
    if (source === undefined) return;
    try {
      await source.publish(notification);
    } catch (error) {
      this.#core.log.warn(`the notification source failed to publish ${notification.method}`, { error });
    }
  }

  /**
   * Answers one message (text, bytes or an already-parsed value). Resolves to the JSON-RPC response, or to
   * `undefined` for notifications, for responses (a server expects none) and for a request whose `ctx.signal`
   * was aborted before it finished. Never rejects: bad input gets the matching JSON-RPC error.
   */
  async handle(message: unknown, ctx: HandleContext = {}): Promise<JSONRPCResponse | undefined> {
    this.#serving = true;
    const parsed = parseMessage(message);
    if (!parsed.ok) return parsed.error;
    const { message: parsedMessage } = parsed;
    if (!('method' in parsedMessage) || !('id' in parsedMessage)) return undefined;
    return serveRequest(this.#core, parsedMessage as JSONRPCRequest, ctx);
  }

  /**
   * Serves a stream transport until it closes: many requests in flight at once, `notifications/cancelled`
   * honoured, progress and log notifications sent next to their request. `options.auth` is the principal of
   * every request on this connection. Resolves at once to the {@link ServerConnection}, whose `close()` stops.
   */
  async connect(transport: Transport, options: ConnectOptions = {}): Promise<ServerConnection> {
    this.#serving = true;
    const warn = this.#core.log.warn;
    if (this.#legacy === undefined) {
      const serve = (...[request, ctx, ending]: Parameters<ServeRequest>) =>
        serveRequest(this.#core, request, ctx, { ending });
      return serveTransport(transport, serve, options, warn);
    }
    // Both eras: an `initialize` turns this connection into a 2025-11-25 session (legacy/connection.ts).
    const era = dualEraConnection(this.#core, transport, this.#legacy);
    return serveTransport(era.transport, era.serve, options, warn);
  }
}

function checkOptions(options: ServerOptions): void {
  if (!isPlainObject(options)) throw argumentError('options', 'a plain object', options);
  for (const [name, value] of Object.entries(options)) {
    if (!OPTION_NAMES.has(name)) throw new TypeError(`unknown option "${name}"`);
    if (value === undefined) continue;
    if (name.startsWith('on') && typeof value !== 'function') {
      throw argumentError(name, 'a function', value);
    }
  }
  const { instructions, capabilities, logger } = options;
  const open: unknown = capabilities;
  const requestState: unknown = options.requestState;
  if (instructions !== undefined && typeof instructions !== 'string') {
    throw argumentError('instructions', 'a string', instructions);
  }
  if (open !== undefined && typeof open !== 'function' && !isPlainObject(open)) {
    throw argumentError('capabilities', 'a plain object or a function returning one', open);
  }
  if (
    requestState !== undefined &&
    !(hasFunction(requestState, 'seal') && hasFunction(requestState, 'open'))
  ) {
    throw argumentError('requestState', '{ seal, open } (use sealed({ keys }))', requestState);
  }
  if (logger !== undefined && (typeof logger !== 'object' || logger === null)) {
    throw argumentError('logger', 'an object with debug / warn / error functions', logger);
  }
  const notifications: unknown = options.notifications;
  if (
    notifications !== undefined &&
    !(hasFunction(notifications, 'publish') && hasFunction(notifications, 'subscribe'))
  ) {
    throw argumentError(
      'notifications',
      '{ publish, subscribe } (use createNotificationHub())',
      notifications,
    );
  }
}

/** Whether `value[name]` is a function, read as `value?.[name]` would read it (an object's or a function's member). */
function hasFunction(value: unknown, name: string): boolean {
  if ((typeof value !== 'object' || value === null) && typeof value !== 'function') return false;
  const member: unknown = Reflect.get(value, name);
  return typeof member === 'function';
}

/**
 * Without a notification source nobody can `subscriptions/listen`, so advertising `listChanged` or `subscribe`
 * would promise notifications that never come (and the method answers `-32601`).
 */
function checkNoSubscriptionCapabilities(caps: ServerCapabilities): void {
  for (const [feature, member] of [
    ['tools', 'listChanged'],
    ['prompts', 'listChanged'],
    ['resources', 'listChanged'],
    ['resources', 'subscribe'],
  ] as const) {
    const value = (caps[feature] as Record<string, unknown> | undefined)?.[member];
    if (value === true) {
      throw new TypeError(
        `"capabilities.${feature}.${member}" needs a "notifications" source (use createNotificationHub())`,
      );
    }
  }
}

/**
 * The capabilities in force, as the dispatcher reads them per request: static ones are implied by the handlers
 * and merged with the author's once (and checked: without a notification source nobody can listen, so
 * `listChanged` / `subscribe` may not be declared); a function is read live, as it is.
 */
function capabilitiesInForce(
  handlers: ServerHandlers,
  declared: ServerOptions['capabilities'],
  hasSource: boolean,
): () => ServerCapabilities {
  if (typeof declared === 'function') {
    return () => {
      const caps = declared();
      if (!isPlainObject(caps)) throw new TypeError('"capabilities" returned something other than an object');
      return caps;
    };
  }
  const caps = mergeCapabilities(serverCapabilities(handlers), declared);
  if (!hasSource) checkNoSubscriptionCapabilities(caps);
  return () => caps;
}

const DEFAULT_HINTS: Required<CacheHints> = { ttlMs: 0, cacheScope: 'private' };

/** Resolves `cache` into one `{ ttlMs, cacheScope }` per cacheable method; checks every value once. */
function resolveCache(cache: CacheOptions | undefined): (method: string) => Required<CacheHints> {
  if (cache === undefined) return () => DEFAULT_HINTS;
  if (!isPlainObject(cache)) throw argumentError('cache', 'a plain object', cache);
  const base = mergeHints(DEFAULT_HINTS, cache, 'cache');
  const byMethod = new Map<string, Required<CacheHints>>();
  for (const [method, hints] of Object.entries(cache.methods ?? {})) {
    if (!isCacheableMethod(method)) {
      throw new TypeError(`"cache.methods" has "${method}", which is not a cacheable method`);
    }
    if (hints !== undefined) byMethod.set(method, mergeHints(base, hints, `cache.methods["${method}"]`));
  }
  return (method) => byMethod.get(method) ?? base;
}

function mergeHints(base: Required<CacheHints>, hints: CacheHints, name: string): Required<CacheHints> {
  const { ttlMs = base.ttlMs, cacheScope = base.cacheScope } = hints;
  if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs < 0) {
    throw new RangeError(`"${name}.ttlMs" expected a non-negative integer, got ${String(ttlMs)}`);
  }
  if (cacheScope !== 'public' && cacheScope !== 'private') {
    throw argumentError(`${name}.cacheScope`, '"public" or "private"', cacheScope);
  }
  return { ttlMs, cacheScope: cacheScope satisfies CacheScope };
}
