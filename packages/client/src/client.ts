import {
  type CallToolResult,
  type ClientCapabilities,
  type CompleteResult,
  type DiscoverResult,
  type GetPromptResult,
  type Implementation,
  type InputRequiredMethod,
  type InputRequiredResult,
  isRequestTransport,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  MetaKey,
  type ReadResourceResult,
  type RequestTransport,
  type SubscriptionFilter,
  type Transport,
} from '@boomerang/protocol';
import { type CachedMethod, type ResultCache, throughCache } from './cache.js';
import type { Connection, Era } from './connection.js';
import { correlate } from './correlator.js';
import { notConnected, type OriginatingRequest, roundsExceeded } from './errors.js';
import { answerInputRequests, type InputCallbacks } from './input-requests.js';
import { type RoundInputs, runInputRequiredLoop } from './mrtr-loop.js';
import {
  type ClientOptions,
  type CompleteParams,
  type InputRequiredCallOptions,
  type ListParams,
  type RequestOptions,
  resolveClientOptions,
} from './options.js';
import { firstInputs, paramsOf, roundParams, withoutUndefined } from './params.js';
import type { ProgressHandler } from './requester.js';
import { type AnswerOf, type ClientMethod, parseResult, type ResultByMethod } from './results.js';
import { ClientSession } from './session.js';
import { callScope } from './signals.js';
import { createSubscription, type ListenOptions, type Subscription } from './subscription.js';

// The option types live in options.ts; re-exported so that `./client.js` still names them.
export type { ClientOptions, CompleteParams, InputRequiredCallOptions, ListParams, RequestOptions };

/**
 * An MCP 2026-07-28 client. Every request carries the full `_meta` (protocol version, the capabilities derived
 * from the callbacks, `clientInfo`); there is no handshake. `callTool`, `getPrompt` and `readResource` run the MRTR
 * loop: each `input_required` result's requests go to the callbacks concurrently, and the request is sent again
 * (new id, same params, the answers, the exact `requestState`) until the result is complete. `client.session`
 * exposes single rounds for hosts that drive the loop themselves.
 */
export class Client {
  /** The `clientInfo` sent with every request. */
  readonly info: Implementation;
  /** The `clientCapabilities` sent with every request: derived from the callbacks, plus option `capabilities`. */
  readonly capabilities: ClientCapabilities;
  /** Single-round access to the three MRTR methods (the manual loop). */
  readonly session: ClientSession;
  readonly #callbacks: InputCallbacks;
  readonly #maxRounds: number;
  readonly #timeoutMs: number | undefined;
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly #cache: ResultCache | undefined;
  readonly #era: Era;
  #connection: Connection | undefined;
  #connecting = false;

  /**
   * Throws `TypeError` for a narrowing option without its callback or a `capabilities` that is not an object,
   * `RangeError` for a bad `elicitationModes`, `inputRequiredMaxRounds` (a non-negative integer) or
   * `requestTimeoutMs` (positive milliseconds); see `resolveClientOptions`.
   */
  constructor(info: Implementation, options: ClientOptions = {}) {
    const settings = resolveClientOptions(options);
    this.info = info;
    this.capabilities = settings.capabilities;
    this.#callbacks = settings.callbacks;
    this.#maxRounds = settings.maxRounds;
    this.#timeoutMs = settings.timeoutMs;
    this.#sleep = settings.sleep;
    this.#cache = settings.cache;
    this.#era = settings.era;
    this.session = new ClientSession({
      once: (request, args, opts) => this.#once(request, args, opts),
      loop: (request, args, opts) => this.#loop(request, args, opts),
    });
  }

  /** The protocol revision negotiated for this connection (`"2026-07-28"` or `"2025-11-25"`), else `undefined`. */
  get protocolVersion(): string | undefined {
    return this.#connection?.protocolVersion;
  }

  /**
   * Starts using `transport` and decides its revision once (option `protocol`): with `'auto'` it sends
   * `server/discover`, and `initialize` when that shows a 2025-11-25 server. A {@link RequestTransport} (HTTP) is
   * used as is; a stream transport (stdio, in memory) through the correlator, which pairs responses with requests
   * by id. Throws when already connected (`close()` first to switch transports), or when `initialize` fails.
   */
  async connect(transport: Transport | RequestTransport): Promise<void> {
    if (this.#connection !== undefined || this.#connecting) {
      throw new Error('Client is already connected; call close() first');
    }
    this.#connecting = true;
    try {
      const reportsEveryOutcome = isRequestTransport(transport);
      this.#connection = await this.#era(reportsEveryOutcome ? transport : correlate(transport), {
        info: this.info,
        capabilities: this.capabilities,
        callbacks: this.#callbacks,
        reportsEveryOutcome,
      });
    } finally {
      this.#connecting = false;
    }
  }

  /** Closes the transport; every call in flight rejects with a `closed` `ClientError`. Idempotent. */
  async close(): Promise<void> {
    const connection = this.#connection;
    this.#connection = undefined;
    await connection?.close();
  }

  /** `server/discover`: the server's supported versions, capabilities, instructions (and `serverInfo` in `_meta`). */
  discover(options?: RequestOptions): Promise<DiscoverResult> {
    return this.#request('server/discover', {}, options);
  }

  /**
   * `tools/list`: one page of tools, `{ tools, nextCursor? }`. Like the other list methods and `readResource`,
   * served from the cache while a result for the same params is fresh (`ttlMs`), unless `{ cache: false }`.
   */
  listTools(params: ListParams = {}, options?: RequestOptions): Promise<ListToolsResult> {
    return this.#list('tools/list', params, options);
  }

  /** `tools/call`, with the MRTR loop: resolves to the final `CallToolResult` (check its `isError`). */
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: InputRequiredCallOptions,
  ): Promise<CallToolResult> {
    return this.#loop<'tools/call'>({ method: 'tools/call', name }, args, options);
  }

  /** `prompts/list`: one page of prompts, `{ prompts, nextCursor? }`. */
  listPrompts(params: ListParams = {}, options?: RequestOptions): Promise<ListPromptsResult> {
    return this.#list('prompts/list', params, options);
  }

  /** `prompts/get`, with the MRTR loop. Prompt arguments are strings on the wire. */
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: InputRequiredCallOptions,
  ): Promise<GetPromptResult> {
    return this.#loop<'prompts/get'>({ method: 'prompts/get', name }, args, options);
  }

  /** `resources/list`: one page of resources, `{ resources, nextCursor? }`. */
  listResources(params: ListParams = {}, options?: RequestOptions): Promise<ListResourcesResult> {
    return this.#list('resources/list', params, options);
  }

  /** `resources/templates/list`: one page of templates, `{ resourceTemplates, nextCursor? }`. */
  listResourceTemplates(
    params: ListParams = {},
    options?: RequestOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.#list('resources/templates/list', params, options);
  }

  /**
   * `resources/read`, with the MRTR loop. Cached only when the first request answered `complete` (a result
   * reached through `input_required` rounds depends on the answers, so it is never cached), and never for a
   * resumed flow (`inputResponses` / `requestState` given).
   */
  readResource(uri: string, options: InputRequiredCallOptions = {}): Promise<ReadResourceResult> {
    const request = { method: 'resources/read', uri } as const;
    if (options.inputResponses !== undefined || options.requestState !== undefined) {
      return this.#loop<'resources/read'>(request, undefined, options);
    }
    let rounds = 0;
    return this.#cached('resources/read', uri, options, async () => {
      const result = await this.#loop<'resources/read'>(request, undefined, options, () => rounds++);
      return { result, cacheable: rounds === 1 };
    });
  }

  /**
   * `subscriptions/listen`: opens a stream of the notifications `filter` asks for (`toolsListChanged`,
   * `promptsListChanged`, `resourcesListChanged`, `resourceSubscriptions: [uri…]`). Iterate it with
   * `for await`; `break` cancels it; it ends when the server ends it. Every notification it receives also
   * invalidates the matching cached results. See {@link Subscription}.
   */
  listen(filter: SubscriptionFilter, options: ListenOptions = {}): Subscription {
    const connection = this.#connection;
    return createSubscription(
      async (signal, onnotification) => {
        if (connection === undefined) throw notConnected('subscriptions/listen');
        const params = { notifications: filter };
        return connection.request('subscriptions/listen', params, { signal, onnotification });
      },
      options,
      (notification) => void this.#cache?.invalidate(notification),
    );
  }

  /** `completion/complete`: suggestions for a prompt or resource-template argument. */
  complete(params: CompleteParams, options?: RequestOptions): Promise<CompleteResult> {
    return this.#request('completion/complete', withoutUndefined(params), options);
  }

  /** One page of a list method, through the cache. */
  #list<M extends 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list'>(
    method: M,
    params: ListParams,
    options: RequestOptions | undefined,
  ): Promise<ResultByMethod[M]> {
    return this.#cached(method, params.cursor ?? null, options, async () => ({
      result: await this.#request(method, withoutUndefined(params), options),
      cacheable: true,
    }));
  }

  /** `run` through the cache, unless caching is off for the client or for this call (see `throughCache`). */
  #cached<T>(
    method: CachedMethod,
    target: string | null,
    options: RequestOptions | undefined,
    run: () => Promise<{ result: T; cacheable: boolean }>,
  ): Promise<T> {
    const cache = options?.cache === false ? undefined : this.#cache;
    return throughCache(cache, method, target, run, options?.cache === 'reload');
  }

  /**
   * Sends one request on the connection (which adds its era's envelope to `params`, a fresh object of this
   * request's own) and returns its validated result.
   */
  async #send<M extends ClientMethod>(
    method: M,
    params: Record<string, unknown>,
    signal: AbortSignal | undefined,
    onprogress: ProgressHandler | undefined,
    call?: OriginatingRequest,
  ): Promise<AnswerOf<M>> {
    const connection = this.#connection;
    if (connection === undefined) throw notConnected(method);
    const raw = await connection.request(method, params, { signal, onprogress, call });
    return parseResult(method, raw);
  }

  /** One request of a method that never answers `input_required`. */
  async #request<M extends Exclude<ClientMethod, InputRequiredMethod>>(
    method: M,
    params: Record<string, unknown>,
    options: RequestOptions = {},
  ): Promise<ResultByMethod[M]> {
    using scope = callScope({ method }, options.signal, options.timeoutMs ?? this.#timeoutMs);
    return (await this.#send(method, params, scope.signal, options.onprogress)) as ResultByMethod[M];
  }

  /** One round of an MRTR method (the manual loop's step): the complete result or the `InputRequiredResult`. */
  async #once<M extends InputRequiredMethod>(
    request: Extract<OriginatingRequest, { readonly method: M }>,
    args: Record<string, unknown> | undefined,
    options: InputRequiredCallOptions = {},
  ): Promise<ResultByMethod[M] | InputRequiredResult> {
    using scope = callScope(request, options.signal, options.timeoutMs ?? this.#timeoutMs);
    return await this.#round(
      request,
      paramsOf(request, args),
      firstInputs(options),
      scope.signal,
      options.onprogress,
    );
  }

  /**
   * An MRTR method with the automatic loop. The answers and state of a round live only in this call's closure,
   * so they never reach another request.
   */
  async #loop<M extends InputRequiredMethod>(
    request: Extract<OriginatingRequest, { readonly method: M }>,
    args: Record<string, unknown> | undefined,
    options: InputRequiredCallOptions = {},
    onRound?: () => void,
  ): Promise<ResultByMethod[M]> {
    using scope = callScope(request, options.signal, options.timeoutMs ?? this.#timeoutMs);
    const { signal } = scope;
    const capabilities = this.capabilities;
    const params = paramsOf(request, args);
    return await runInputRequiredLoop<ResultByMethod[M]>(firstInputs(options), {
      send: (inputs) => {
        onRound?.();
        return this.#round(request, params, inputs, signal, options.onprogress);
      },
      answer: (result, round) =>
        answerInputRequests(result.inputRequests ?? {}, this.#callbacks, {
          request,
          round,
          signal,
          serverInfo: result._meta?.[MetaKey.serverInfo] as Implementation | undefined,
          capabilities,
        }),
      sleep: this.#sleep,
      maxRounds: this.#maxRounds,
      exceeded: (result) => roundsExceeded(request, this.#maxRounds, result),
      signal,
    });
  }

  /** One request of an MRTR method: the original params plus this round's inputs. */
  #round<M extends InputRequiredMethod>(
    request: Extract<OriginatingRequest, { readonly method: M }>,
    params: Record<string, unknown>,
    inputs: RoundInputs,
    signal: AbortSignal | undefined,
    onprogress: ProgressHandler | undefined,
  ): Promise<ResultByMethod[M] | InputRequiredResult> {
    // AnswerOf<M> is exactly this union for every MRTR method; TypeScript cannot see it through the generic.
    const method = request.method as M;
    return this.#send(method, roundParams(params, inputs), signal, onprogress, request) as Promise<
      ResultByMethod[M] | InputRequiredResult
    >;
  }
}
