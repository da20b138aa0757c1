// The Client: its public calls, each a `Call` (calls.ts) run by one loop (mrtr-loop.ts) over the connection that
// `connect()` opened through the era seam (connection.ts, eras.ts).
import {
  type CallToolResult,
  type ClientCapabilities,
  type CompleteResult,
  type DiscoverResult,
  type GetPromptResult,
  type Implementation,
  type InputRequiredMethod,
  type InputRequiredResult,
  type InputResponses,
  isRequestTransport,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  MetaKey,
  type ReadResourceResult,
  type RequestTransport,
  type ServerCapabilities,
  type StandardSchemaV1,
  type SubscriptionFilter,
  type Transport,
} from '@boomerang/protocol';
import { type CachedMethod, throughCache } from './cache.js';
import {
  type Call,
  callOf,
  type InputRequiredParams,
  promptCall,
  resourceCall,
  schemaCall,
  specCall,
  toolCall,
} from './calls.js';
import type { Connection, ServerDescription } from './connection.js';
import {
  type Continuation,
  continuationProblem,
  responsesProblem,
  type Step,
  toContinuation,
} from './continuation.js';
import { correlate } from './correlator.js';
import {
  invalidContinuation,
  invalidInputResponses,
  notConnected,
  roundsExceeded,
  stateRejected,
} from './errors.js';
import { answerInputRequests } from './input-requests.js';
import { asks, type LoopOutcome, type RoundInputs, roundInputs, runInputRequiredLoop } from './mrtr-loop.js';
import {
  type CachedCallOptions,
  type CallOptions,
  type ClientOptions,
  type ClientSettings,
  type CompleteParams,
  type ListParams,
  type RequestOptions,
  resolveClientOptions,
} from './options.js';
import { isStateRefusal, shouldRestart, ToolHints } from './restart.js';
import type { ResultByMethod } from './results.js';
import { callScope } from './signals.js';
import { createSubscription, type ListenOptions, type Subscription } from './subscription.js';

/** Where a call's loop starts, and whether it stops at the first round that asks (start/resume). */
interface Flow {
  /** The first request's inputs: none for a new flow, the answers and state of a resumed one. */
  readonly inputs: RoundInputs;
  /** How many `input_required` results the flow had before this call. */
  readonly before: number;
  /** Stop at the first round that asks, and hand it back as a continuation. */
  readonly pause: boolean;
}

const NEW_FLOW: Flow = Object.freeze({ inputs: Object.freeze({}), before: 0, pause: false });
const NEW_STEP: Flow = Object.freeze({ inputs: Object.freeze({}), before: 0, pause: true });

/**
 * An MCP 2026-07-28 client. Every request carries the full `_meta` (protocol version, the capabilities derived
 * from the callbacks, `clientInfo`); there is no handshake. Every call, built-in (`callTool`, `listTools`, …) or
 * not (`request`), runs one loop: each `input_required` result's requests go to the callbacks concurrently, and
 * the request is sent again (new id, same params, the answers, the exact `requestState`) until the result is
 * complete. `start` and `resume` run the same loop a step at a time, for flows answered elsewhere or later.
 */
export class Client {
  /** The `clientInfo` sent with every request. */
  readonly info: Implementation;
  /**
   * The `clientCapabilities` sent with every request: derived from the callbacks, plus option `capabilities`
   * (the extensions this client supports are declared there, under `extensions`).
   */
  readonly capabilities: ClientCapabilities;
  readonly #settings: ClientSettings;
  /** Each tool's hints from the `tools/list` results received (for `restartOnInvalidState`). */
  readonly #toolHints = new ToolHints();
  #connection: Connection | undefined;
  #connecting = false;
  #server: ServerDescription | undefined;

  /**
   * Throws `TypeError` for a narrowing option without its callback or a `capabilities` that is not an object,
   * `RangeError` for a bad `elicitationModes`, `inputRequiredMaxRounds` (a non-negative integer) or
   * `requestTimeoutMs` (positive milliseconds); see `resolveClientOptions`.
   */
  constructor(info: Implementation, options: ClientOptions = {}) {
    this.#settings = resolveClientOptions(options);
    this.info = info;
    this.capabilities = this.#settings.capabilities;
  }

  /** The protocol revision negotiated for this connection (`"2026-07-28"` or `"2025-11-25"`), else `undefined`. */
  get protocolVersion(): string | undefined {
    return this.#connection?.protocolVersion;
  }

  /**
   * The capabilities the server declared, once known: from the `server/discover` probe of `protocol: 'auto'`, from
   * any `discover()` since, or from a 2025-11-25 `initialize`. Read the extensions it supports with
   * `hasExtension(client.serverCapabilities, id)` from `@boomerang/protocol`. `undefined` before then (with
   * `protocol: '2026-07-28'` nothing is sent when connecting: call `discover()`).
   */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#server?.capabilities;
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
      const connection = await this.#settings.era(reportsEveryOutcome ? transport : correlate(transport), {
        info: this.info,
        capabilities: this.capabilities,
        callbacks: this.#settings.callbacks,
        reportsEveryOutcome,
      });
      this.#connection = connection;
      this.#server = connection.server;
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

  /**
   * `server/discover`: the server's supported versions, capabilities, instructions (and `serverInfo` in `_meta`).
   * Also updates {@link serverCapabilities}.
   */
  async discover(options?: CallOptions): Promise<DiscoverResult> {
    const result = await this.#call(specCall('server/discover', {}), options);
    const serverInfo = result._meta?.[MetaKey.serverInfo] as Implementation | undefined;
    this.#server = { capabilities: result.capabilities, serverInfo, instructions: result.instructions };
    return result;
  }

  /**
   * `tools/list`: one page of tools, `{ tools, nextCursor? }`. Like the other list methods and `readResource`,
   * served from the cache while a result for the same params is fresh (`ttlMs`), unless `{ cache: false }`.
   */
  async listTools(params: ListParams = {}, options?: CachedCallOptions): Promise<ListToolsResult> {
    const result = await this.#list('tools/list', params, options);
    this.#toolHints.learn(result.tools);
    return result;
  }

  /** `tools/call`, with the MRTR loop: resolves to the final `CallToolResult` (check its `isError`). */
  callTool(name: string, args?: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult> {
    return this.#call(toolCall(name, args), options);
  }

  /** `prompts/list`: one page of prompts, `{ prompts, nextCursor? }`. */
  listPrompts(params: ListParams = {}, options?: CachedCallOptions): Promise<ListPromptsResult> {
    return this.#list('prompts/list', params, options);
  }

  /** `prompts/get`, with the MRTR loop. Prompt arguments are strings on the wire. */
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult> {
    return this.#call(promptCall(name, args), options);
  }

  /** `resources/list`: one page of resources, `{ resources, nextCursor? }`. */
  listResources(params: ListParams = {}, options?: CachedCallOptions): Promise<ListResourcesResult> {
    return this.#list('resources/list', params, options);
  }

  /** `resources/templates/list`: one page of templates, `{ resourceTemplates, nextCursor? }`. */
  listResourceTemplates(
    params: ListParams = {},
    options?: CachedCallOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.#list('resources/templates/list', params, options);
  }

  /**
   * `resources/read`, with the MRTR loop. Cached only when the first request answered `complete` (a result
   * reached through `input_required` rounds depends on the answers, so it is never cached).
   */
  readResource(uri: string, options: CachedCallOptions = {}): Promise<ReadResourceResult> {
    return this.#cached('resources/read', uri, options, async () => {
      const call = resourceCall(uri);
      let requests = 0;
      const counted: Call<ReadResourceResult> = {
        method: call.method,
        origin: call.origin,
        params: call.params,
        paramsOf: (inputs) => {
          requests++;
          return call.paramsOf(inputs);
        },
        read: (raw) => call.read(raw),
      };
      const result = await this.#call(counted, options);
      return { result, cacheable: requests === 1 };
    });
  }

  /** `completion/complete`: suggestions for a prompt or resource-template argument. */
  complete(params: CompleteParams, options?: CallOptions): Promise<CompleteResult> {
    return this.#call(specCall('completion/complete', params), options);
  }

  /**
   * Any method, an extension's or a vendor's included, with the same MRTR loop, callbacks, round cap, back-off,
   * timeout, abort and progress as the built-in calls. `options.result` (any Standard Schema: zod 4, valibot,
   * arktype…) validates the complete result, and the call resolves to the schema's output; a result it rejects is
   * an `invalid-result` `ClientError`. A method the server does not know rejects with its `McpError` (`-32601`).
   * The capabilities an extension needs are declared with option `capabilities` (`extensions: { [id]: {} }`).
   */
  async request<S extends StandardSchemaV1>(
    method: string,
    params: Readonly<Record<string, unknown>> | undefined,
    options: RequestOptions<S>,
  ): Promise<StandardSchemaV1.InferOutput<S>> {
    return await this.#call(schemaCall(method, params ?? {}, options?.result), options);
  }

  /**
   * Starts a flow of `tools/call`, `prompts/get` or `resources/read` (or, with `options.result`, of any method) a
   * step at a time: `{ result }` when the server answers at once, else `{ continuation }`, the plain-JSON flow
   * waiting for answers to its questions, for this process or another to `resume()`. Nothing is answered by the
   * callbacks; state-only rounds are followed (with the back-off) up to the round cap.
   */
  start<M extends InputRequiredMethod>(
    method: M,
    params: InputRequiredParams[M],
    options?: CallOptions,
  ): Promise<Step<ResultByMethod[M], M>>;
  /** Starts a flow of any method a step at a time; its complete result is validated by `options.result`. */
  start<S extends StandardSchemaV1, M extends string = string>(
    method: M,
    params: Readonly<Record<string, unknown>> | undefined,
    options: RequestOptions<S>,
  ): Promise<Step<StandardSchemaV1.InferOutput<S>, M>>;
  async start(
    method: string,
    params: Readonly<Record<string, unknown>> | undefined,
    options: CallOptions & { readonly result?: StandardSchemaV1 } = {},
  ): Promise<Step<unknown>> {
    return await this.#step(callOf(method, params ?? {}, options.result), options, NEW_STEP);
  }

  /**
   * Resumes a flow from its `continuation` (made by `start()` or `resume()`, here or in another process, and
   * stored as JSON in between) with `responses` to its questions, under their keys: the next `{ result }` or
   * `{ continuation }`. A continuation of a method outside the spec needs `options.result` again.
   *
   * Rejects with a `ClientError`: `invalid-continuation` when `continuation` is not one this client can resume,
   * `invalid-input-responses` for answers under keys that were not asked or of the wrong kind, `state-rejected`
   * when the server refuses the flow's state (tampered with, expired, sealed under another key, or bound to
   * other arguments or another user).
   */
  resume<M extends InputRequiredMethod>(
    continuation: Continuation<M>,
    responses: InputResponses,
    options?: CallOptions,
  ): Promise<Step<ResultByMethod[M], M>>;
  /** Resumes a flow of any method; its complete result is validated by `options.result`. */
  resume<S extends StandardSchemaV1, M extends string = string>(
    continuation: Continuation<M>,
    responses: InputResponses,
    options: RequestOptions<S>,
  ): Promise<Step<StandardSchemaV1.InferOutput<S>, M>>;
  async resume(
    continuation: Continuation,
    responses: InputResponses,
    options: CallOptions & { readonly result?: StandardSchemaV1 } = {},
  ): Promise<Step<unknown>> {
    const problem = continuationProblem(continuation);
    if (problem !== undefined) throw invalidContinuation(continuation, problem);
    const call = callOf(continuation.method, continuation.params, options.result);
    const wrong = responsesProblem(continuation, responses);
    if (wrong !== undefined) throw invalidInputResponses(call.origin, wrong.problem, wrong.keys);
    const inputs = roundInputs(responses, continuation.requestState);
    return await this.#step(call, options, { inputs, before: continuation.round, pause: true });
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
      (notification) => void this.#settings.cache?.invalidate(notification),
    );
  }

  /** One page of a list method, through the cache. */
  #list<M extends 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list'>(
    method: M,
    params: ListParams,
    options: CachedCallOptions | undefined,
  ): Promise<ResultByMethod[M]> {
    return this.#cached(method, params.cursor ?? null, options, async () => ({
      result: await this.#call(specCall(method, params), options),
      cacheable: true,
    }));
  }

  /** `run` through the cache, unless caching is off for the client or for this call (see `throughCache`). */
  #cached<T>(
    method: CachedMethod,
    target: string | null,
    options: CachedCallOptions | undefined,
    run: () => Promise<{ result: T; cacheable: boolean }>,
  ): Promise<T> {
    const cache = options?.cache === false ? undefined : this.#settings.cache;
    return throughCache(cache, method, target, run, options?.cache === 'reload');
  }

  /**
   * A call with the automatic loop: its complete result. When the server refuses the flow's state and
   * `restartOnInvalidState` allows it (see `shouldRestart`), the flow starts over from its first round, within the
   * call's time limit.
   */
  async #call<R>(call: Call<R>, options: CallOptions | undefined): Promise<R> {
    const allowed = this.#settings.restarts;
    if (allowed === 0 && options?.restartOnInvalidState !== true) {
      return (await this.#run(call, options, NEW_FLOW)).result as R;
    }
    const timeoutMs = options?.timeoutMs ?? this.#settings.timeoutMs;
    const started = performance.now();
    let carriedState = false;
    const watched: Call<R> = {
      method: call.method,
      origin: call.origin,
      params: call.params,
      paramsOf: (inputs) => {
        carriedState = inputs.requestState !== undefined;
        return call.paramsOf(inputs);
      },
      read: (raw) => call.read(raw),
    };
    for (let restarts = 0; ; restarts++) {
      const left =
        timeoutMs === undefined ? undefined : Math.max(1, timeoutMs - (performance.now() - started));
      try {
        return (await this.#run(watched, { ...options, timeoutMs: left }, NEW_FLOW)).result as R;
      } catch (error) {
        const refusal = {
          method: call.method,
          name: (call.params as { name?: string }).name,
          carriedState,
          restarts,
          marked: options?.restartOnInvalidState,
        };
        if (!isStateRefusal(error) || !shouldRestart(refusal, allowed, this.#toolHints)) throw error;
      }
    }
  }

  /**
   * A call a step at a time: the complete result, or the continuation of the round that asks. A `-32602` that
   * names the `requestState` a request carried is the server refusing the flow's state: `state-rejected`.
   */
  async #step<R>(call: Call<R>, options: CallOptions, flow: Flow): Promise<Step<R>> {
    try {
      const outcome = await this.#run(call, options, flow);
      if (outcome.paused === undefined) return { result: outcome.result };
      return { continuation: toContinuation(call.method, call.params, outcome.paused, outcome.round) };
    } catch (error) {
      if (isStateRefusal(error)) throw stateRejected(call.origin, error);
      throw error;
    }
  }

  /** One request of `call` with `inputs`, read by the call: its complete result or its `InputRequiredResult`. */
  async #send<R>(
    call: Call<R>,
    inputs: RoundInputs,
    signal: AbortSignal | undefined,
    onprogress: CallOptions['onprogress'],
  ): Promise<R | InputRequiredResult> {
    const connection = this.#connection;
    if (connection === undefined) throw notConnected(call.method);
    const sent = { signal, onprogress, call: call.origin };
    return call.read(await connection.request(call.method, call.paramsOf(inputs), sent));
  }

  /**
   * The one loop every call runs: each request goes out on the connection with this round's inputs, its answer is
   * read by the call, and an `input_required` answer's questions go to the callbacks (or, when `flow.pause`, end
   * the step). The answers and state of a round live only in this call's closure, so they never reach another
   * request. The time limit and the caller's signal bound the whole call.
   */
  async #run<R>(call: Call<R>, options: CallOptions = {}, flow: Flow): Promise<LoopOutcome<R>> {
    const { callbacks, capabilities, maxRounds, sleep } = this.#settings;
    using scope = callScope(call.origin, options.signal, options.timeoutMs ?? this.#settings.timeoutMs);
    const { signal } = scope;
    const { onprogress } = options;
    return await runInputRequiredLoop<R>(
      flow.inputs,
      {
        send: (inputs) => this.#send(call, inputs, signal, onprogress),
        answer: (result, round) =>
          answerInputRequests(result.inputRequests ?? {}, callbacks, {
            request: call.origin,
            round,
            signal,
            serverInfo: result._meta?.[MetaKey.serverInfo] as Implementation | undefined,
            capabilities,
          }),
        sleep,
        maxRounds,
        exceeded: (result, round) =>
          roundsExceeded(
            call.origin,
            maxRounds,
            result,
            asks(result) ? toContinuation(call.method, call.params, result, round) : undefined,
          ),
        signal,
        pause: flow.pause,
      },
      flow.before,
    );
  }
}
