// The Client: its public calls, each a `Call` (calls.ts) run by one loop (mrtr-loop.ts) over the connection that
// `connect()` opened through the era seam (connection.ts, eras.ts).
import {
  argumentError,
  type CallToolResult,
  type ClientCapabilities,
  type CompleteResult,
  type DiscoverResult,
  ErrorCode,
  type GetPromptResult,
  type Implementation,
  type InputRequiredMethod,
  type InputRequiredResult,
  type InputResponses,
  isInputRequired,
  isPlainObject,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  McpError,
  MetaKey,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type ServerCapabilities,
  type StandardSchemaV1,
  type SubscriptionFilter,
  type Tool,
} from '@boomerang/protocol';
import type { Task } from '@boomerang/protocol/tasks';
import { isRequestTransport, type RequestTransport, type Transport } from '@boomerang/protocol/transport';
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
import { remedyFor } from './capabilities.js';
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
  connectTimedOut,
  describeRequest,
  inTask,
  invalidContinuation,
  invalidInputResponses,
  invalidResult,
  notConnected,
  type OriginatingRequest,
  roundsExceeded,
  stateRejected,
  taskHookFailed,
  tooManyInputRequests,
} from './errors.js';
import { answerInputRequests, inputRequestCount } from './input-requests.js';
import { checkLogLevel, deliverLog } from './logging.js';
import { asks, type LoopOutcome, type RoundInputs, roundInputs, runInputRequiredLoop } from './mrtr-loop.js';
import {
  type CachedCallOptions,
  type CallOptions,
  type ClientOptions,
  type ClientSettings,
  type CompleteParams,
  checkMaxPages,
  type ListAllOptions,
  type ListParams,
  type RequestOptions,
  resolveClientOptions,
} from './options.js';
import { OutputSchemas } from './output-schemas.js';
import { type Page, Paginated } from './pagination.js';
import { isStateRefusal, shouldRestart, ToolHints } from './restart.js';
import { parseResult, type ResultByMethod } from './results.js';
import { callScope, raceSignal } from './signals.js';
import { createSubscription, type ListenOptions, type Subscription } from './subscription.js';
import { followTask, pollInterval, type TaskReading, type TaskStream } from './task-loop.js';
import {
  type ClientTasks,
  CreatedTask,
  isTaskAnswer,
  readAcknowledgement,
  readCreatedTask,
  readTask,
  readTaskNotification,
} from './tasks.js';

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
  /**
   * The tasks extension's methods, by hand: `get`, `update`, `cancel`, and `result(taskId)`, which waits for a
   * task from any process (a host that restarted, after storing the `taskId` its `onTask` hook was given). See
   * {@link ClientTasks}.
   */
  readonly tasks: ClientTasks;
  readonly #settings: ClientSettings;
  /** Each tool's hints from the `tools/list` results received (for `restartOnInvalidState`). */
  readonly #toolHints = new ToolHints();
  #connection: Connection | undefined;
  #connecting = false;
  #server: ServerDescription | undefined;
  /** The server answered `subscriptions/listen` with `-32601` on this connection: follow tasks by polling. */
  #listenRefused = false;
  /** The `outputSchema` of each tool of the last `tools/list`, by name: what `callTool` results must match. */
  readonly #outputSchemas = new OutputSchemas();

  /**
   * Throws `TypeError` for a narrowing option without its callback or a `capabilities` that is not an object,
   * `RangeError` for a bad `elicitationModes`, `inputRequiredMaxRounds` (a non-negative integer) or
   * `requestTimeoutMs` (positive milliseconds); see `resolveClientOptions`.
   */
  constructor(info: Implementation, options: ClientOptions = {}) {
    this.#settings = resolveClientOptions(options);
    this.info = info;
    this.capabilities = this.#settings.capabilities;
    this.tasks = {
      get: (taskId, options) =>
        this.#taskCall('tasks/get', taskId, {}, options, async (raw) => (await readTask(taskId, raw)).task),
      update: async (taskId, inputResponses, options) => {
        if (!isPlainObject(inputResponses)) {
          throw argumentError('inputResponses', 'an object of answers by key', inputResponses);
        }
        const read = (raw: unknown) => readAcknowledgement('tasks/update', raw);
        return await this.#taskCall('tasks/update', taskId, { inputResponses }, options, read);
      },
      cancel: (taskId, options) =>
        this.#taskCall('tasks/cancel', taskId, {}, options, (raw) =>
          readAcknowledgement('tasks/cancel', raw),
        ),
      result: (taskId, options) => this.#taskResult(taskId, options),
    };
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
   * by id. Throws when already connected (`close()` first to switch transports), when `initialize` fails, or
   * with a `timeout` `ClientError` (`method: 'connect'`) past `connectTimeoutMs` (default 30 s; the transport is
   * then closed).
   */
  async connect(transport: Transport | RequestTransport): Promise<void> {
    if (this.#connection !== undefined || this.#connecting) {
      throw new Error('Client is already connected; call close() first');
    }
    this.#connecting = true;
    const { connectTimeoutMs, callbacks, maxInputRequests } = this.#settings;
    const limit = connectTimeoutMs === undefined ? undefined : new AbortController();
    const timer =
      limit === undefined
        ? undefined
        : setTimeout(() => limit.abort(connectTimedOut(connectTimeoutMs as number)), connectTimeoutMs);
    try {
      const reportsEveryOutcome = isRequestTransport(transport);
      const connection = await this.#settings.era(reportsEveryOutcome ? transport : correlate(transport), {
        info: this.info,
        capabilities: this.capabilities,
        callbacks,
        reportsEveryOutcome,
        signal: limit?.signal,
        maxInputRequests,
        onLog: this.#settings.onLog,
        logLevel: this.#settings.logLevel,
      });
      this.#connection = connection;
      this.#server = connection.server;
      this.#listenRefused = false;
    } finally {
      clearTimeout(timer);
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
    this.#outputSchemas.record(result.tools, params.cursor === undefined);
    this.#toolHints.learn(result.tools);
    return result;
  }

  /**
   * Every tool of every page of `tools/list`, one page requested at a time as the iteration goes on (see
   * {@link Paginated}); at most `maxPages` pages (default: option `listMaxPages`, 100).
   */
  tools(params: Omit<ListParams, 'cursor'> = {}, options: ListAllOptions = {}): Paginated<Tool> {
    return this.#all('tools/list', options, async (cursor) => {
      const page = await this.listTools({ ...params, cursor }, options);
      return { items: page.tools, nextCursor: page.nextCursor };
    });
  }

  /**
   * `tools/call`, with the MRTR loop: resolves to the final `CallToolResult` (check its `isError`). When the last
   * `tools/list` showed an `outputSchema` for the tool (and option `validateToolOutput` is on), a result that is
   * not `isError` must carry `structuredContent` matching it: else an `invalid-result` `ClientError`. When the
   * client declares the tasks extension (option `tasks`) and the server answers with a task, the call follows the
   * task to its end (notifications or polling), answers its questions through the callbacks with `tasks/update`,
   * and resolves to its result; the `onTask` hooks are told the `taskId` first. Aborting the call (or its timeout)
   * sends `tasks/cancel`. A failed task rejects with its error as an `McpError`; a cancelled one with a
   * `task-cancelled` `ClientError`.
   */
  async callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<CallToolResult> {
    const result = await this.#call(toolCall(name, args), options);
    await this.#checkToolResult(name, result);
    return result;
  }

  /** `prompts/list`: one page of prompts, `{ prompts, nextCursor? }`. */
  listPrompts(params: ListParams = {}, options?: CachedCallOptions): Promise<ListPromptsResult> {
    return this.#list('prompts/list', params, options);
  }

  /** Every prompt of every page of `prompts/list` (see {@link Client.tools}). */
  prompts(params: Omit<ListParams, 'cursor'> = {}, options: ListAllOptions = {}): Paginated<Prompt> {
    return this.#all('prompts/list', options, async (cursor) => {
      const page = await this.listPrompts({ ...params, cursor }, options);
      return { items: page.prompts, nextCursor: page.nextCursor };
    });
  }

  /** `prompts/get`, with the MRTR loop. Prompt arguments are strings on the wire. */
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult> {
    return this.#call(promptCall(name, args), options);
  }

  /** `resources/list`: one page of resources, `{ resources, nextCursor? }`. */
  listResources(params: ListParams = {}, options?: CachedCallOptions): Promise<ListResourcesResult> {
    return this.#list('resources/list', params, options);
  }

  /** Every resource of every page of `resources/list` (see {@link Client.tools}). */
  resources(params: Omit<ListParams, 'cursor'> = {}, options: ListAllOptions = {}): Paginated<Resource> {
    return this.#all('resources/list', options, async (cursor) => {
      const page = await this.listResources({ ...params, cursor }, options);
      return { items: page.resources, nextCursor: page.nextCursor };
    });
  }

  /** `resources/templates/list`: one page of templates, `{ resourceTemplates, nextCursor? }`. */
  listResourceTemplates(
    params: ListParams = {},
    options?: CachedCallOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.#list('resources/templates/list', params, options);
  }

  /** Every template of every page of `resources/templates/list` (see {@link Client.tools}). */
  resourceTemplates(
    params: Omit<ListParams, 'cursor'> = {},
    options: ListAllOptions = {},
  ): Paginated<ResourceTemplate> {
    return this.#all('resources/templates/list', options, async (cursor) => {
      const page = await this.listResourceTemplates({ ...params, cursor }, options);
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    });
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
    const problem = await continuationProblem(continuation);
    if (problem !== undefined) throw invalidContinuation(continuation, problem);
    const call = callOf(continuation.method, continuation.params, options.result);
    const wrong = await responsesProblem(continuation, responses);
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

  /** Every page of a list method, as one iteration capped at `maxPages` (checked now: `RangeError`). */
  #all<T>(method: string, options: ListAllOptions, page: (cursor: string | undefined) => Promise<Page<T>>) {
    const maxPages =
      options.maxPages === undefined
        ? this.#settings.listMaxPages
        : checkMaxPages('maxPages', options.maxPages);
    return new Paginated(method, maxPages, page);
  }

  /** A tool result against the `outputSchema` of the last `tools/list` (see {@link Client.callTool}). */
  async #checkToolResult(name: string, result: CallToolResult): Promise<void> {
    if (this.#settings.validateToolOutput)
      await this.#outputSchemas.check({ method: 'tools/call', name }, result);
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
      if (outcome.paused === undefined) {
        const spec = (options as { result?: unknown }).result === undefined;
        if (spec && call.origin.method === 'tools/call' && call.origin.name !== undefined) {
          await this.#checkToolResult(call.origin.name, outcome.result as CallToolResult);
        }
        return { result: outcome.result };
      }
      return { continuation: toContinuation(call.method, call.params, outcome.paused, outcome.round) };
    } catch (error) {
      if (isStateRefusal(error)) throw stateRejected(call.origin, error);
      throw error;
    }
  }

  /**
   * One request of `call` with `inputs`, read by the call: its complete result or its `InputRequiredResult`. The
   * server's `-32021` comes back with a message naming what this client must register or declare.
   */
  async #send<R>(
    call: Call<R>,
    inputs: RoundInputs,
    signal: AbortSignal | undefined,
    options: CallOptions,
    responseTimeoutMs: number | undefined,
  ): Promise<R | InputRequiredResult | CreatedTask> {
    const connection = this.#connection;
    if (connection === undefined) throw notConnected(call.method);
    const { onLog } = this.#settings;
    const sent = {
      signal,
      onprogress: options.onprogress,
      call: call.origin,
      responseTimeoutMs,
      logLevel: options.logLevel ?? this.#settings.logLevel,
      onlog:
        onLog === undefined
          ? undefined
          : (params: Parameters<typeof onLog>[0]) => deliverLog(onLog, params, call.origin),
    };
    let raw: unknown;
    try {
      raw = await connection.request(call.method, call.paramsOf(inputs), sent);
    } catch (error) {
      if (error instanceof McpError && error.code === ErrorCode.MissingRequiredClientCapability) {
        throw this.#missingCapability(call.origin, error);
      }
      throw error;
    }
    // Counted before anything reads the questions: a server cannot make this client validate or answer thousands.
    const asked = inputRequestCount(raw);
    const { maxInputRequests } = this.#settings;
    if (asked > maxInputRequests) throw tooManyInputRequests(call.origin, maxInputRequests, asked, raw);
    if (this.#settings.tasks !== undefined && isTaskAnswer(raw)) {
      return new CreatedTask(await readCreatedTask(call.method, raw));
    }
    return call.read(raw);
  }

  /**
   * The server's `-32021`, again as an `McpError` with its code and `data` (`cause`: the original), its message
   * naming the call and what this client lacks: the callback to register or the option to set.
   */
  #missingCapability(request: OriginatingRequest, error: McpError): McpError {
    const required = (error.data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
    const remedy = remedyFor(required, this.capabilities);
    return new McpError(
      error.code,
      `${describeRequest(request)}: ${error.message}. This client did not declare it: ${remedy} in the Client options`,
      error.data,
      { cause: error },
    );
  }

  /**
   * The one loop every call runs: each request goes out on the connection with this round's inputs, its answer is
   * read by the call, and an `input_required` answer's questions go to the callbacks (or, when `flow.pause`, end
   * the step). The answers and state of a round live only in this call's closure, so they never reach another
   * request. The time limit and the caller's signal bound the whole call.
   */
  async #run<R>(call: Call<R>, options: CallOptions = {}, flow: Flow): Promise<LoopOutcome<R>> {
    const { callbacks, capabilities, maxRounds, sleep } = this.#settings;
    checkLogLevel('logLevel', options.logLevel);
    if (options.logLevel !== undefined && this.#settings.onLog === undefined) {
      throw new TypeError('"logLevel" expected together with an "onLog" callback in the Client options');
    }
    const timeoutMs = options.timeoutMs ?? this.#settings.timeoutMs;
    using scope = callScope(call.origin, options.signal, timeoutMs);
    const { signal } = scope;
    // A call with a time limit is bounded by it alone; without one, each request by responseTimeoutMs.
    const responseTimeoutMs = timeoutMs === undefined ? this.#settings.responseTimeoutMs : undefined;
    let sent = 0;
    const outcome = await runInputRequiredLoop<R | CreatedTask>(
      flow.inputs,
      {
        send: (inputs) => {
          sent++;
          return this.#send(call, inputs, signal, options, responseTimeoutMs);
        },
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
    if (!(outcome.result instanceof CreatedTask)) return outcome as LoopOutcome<R>;
    // Every request after the first followed an `input_required` result: the task's first question is the next.
    const before = flow.before + sent - 1;
    return { result: await this.#finishTask(call, outcome.result.task, options, signal, before) };
  }

  /**
   * The end of a call the server answered with a task: the `onTask` hooks, then the task followed to its result,
   * read as the call's own. Sends `tasks/cancel` (without waiting for its answer) when the call is aborted or
   * times out meanwhile, or when a hook throws.
   */
  async #finishTask<R>(
    call: Call<R>,
    task: Task,
    options: CallOptions,
    signal: AbortSignal | undefined,
    roundsBefore: number,
  ): Promise<R> {
    const { taskId } = task;
    const request = call.origin;
    try {
      const own = this.#settings.tasks?.onTask;
      if (own !== undefined)
        await raceSignal(
          Promise.resolve().then(() => own({ ...task }, request)),
          signal,
        );
      const call = options.onTask;
      if (call !== undefined)
        await raceSignal(
          Promise.resolve().then(() => call({ ...task }, request)),
          signal,
        );
    } catch (cause) {
      this.#cancelQuietly(taskId);
      if (signal?.aborted === true) throw cause;
      throw taskHookFailed(request, taskId, cause);
    }
    try {
      const raw = await this.#follow(taskId, task, request, signal, roundsBefore);
      return await this.#readTaskResult(call.method, taskId, raw, (value) => call.read(value));
    } catch (error) {
      if (signal?.aborted === true) this.#cancelQuietly(taskId);
      throw error;
    }
  }

  /** `client.tasks.result()`: follows a task this client did not create, and reads its `CallToolResult`. */
  async #taskResult(taskId: string, options: CallOptions = {}): Promise<CallToolResult> {
    checkTaskId(taskId);
    const request: OriginatingRequest = { method: 'tools/call' } as OriginatingRequest;
    using scope = callScope(request, options.signal, options.timeoutMs ?? this.#settings.timeoutMs);
    const raw = await this.#follow(taskId, undefined, request, scope.signal, 0);
    return await this.#readTaskResult('tools/call', taskId, raw, (value) => parseResult('tools/call', value));
  }

  /**
   * Follows task `taskId` to its end (task-loop.ts) on this connection: reads through `tasks/get` and, when the
   * server streams it, `notifications/tasks`; answers through the callbacks and `tasks/update`.
   */
  #follow(
    taskId: string,
    first: Task | undefined,
    request: OriginatingRequest,
    signal: AbortSignal | undefined,
    roundsBefore: number,
  ): Promise<Record<string, unknown>> {
    const { callbacks, capabilities, sleep } = this.#settings;
    const listens = this.#settings.tasks?.listen === true && !this.#listenRefused;
    return followTask(taskId, first, {
      request,
      roundsBefore,
      get: async (id) => readTask(id, await this.#exchange('tasks/get', { taskId: id }, signal)),
      update: async (id, inputResponses) =>
        readAcknowledgement(
          'tasks/update',
          await this.#exchange('tasks/update', { taskId: id, inputResponses }, signal),
        ),
      listen: listens ? (id) => this.#watch(id, first, signal) : undefined,
      answer: (requests, round, id, serverInfo) =>
        answerInputRequests(requests, callbacks, {
          request,
          round,
          signal,
          serverInfo,
          capabilities,
          taskId: id,
        }),
      sleep: (ms, stop) => sleep(ms, anySignal(signal, stop)),
    });
  }

  /**
   * A task's `result`, read as the result of `method` by `read`: an `input_required` result (a task's result is
   * final) and a shape `read` refuses are `invalid-result`, marked with the `taskId`.
   */
  async #readTaskResult<R>(
    method: string,
    taskId: string,
    raw: Record<string, unknown>,
    read: (raw: unknown) => R | InputRequiredResult | Promise<R | InputRequiredResult>,
  ): Promise<R> {
    try {
      const result = await read(raw);
      if (isInputRequired(result)) {
        throw invalidResult(method, "a task's result must be complete, not input_required", raw);
      }
      return result;
    } catch (error) {
      throw inTask(error, taskId);
    }
  }

  /**
   * Opens a `notifications/tasks` stream for `taskId`: `undefined` when the server does not agree to stream it
   * (no `subscriptions/listen` on this connection: remembered, so later tasks poll at once; an acknowledgement
   * without the task; or none within a poll interval, at least `LISTEN_ACK_TIMEOUT_MS`). Rejects only when
   * `signal` aborts.
   */
  async #watch(
    taskId: string,
    first: Task | undefined,
    signal: AbortSignal | undefined,
  ): Promise<TaskStream | undefined> {
    const connection = this.#connection;
    if (connection === undefined) throw notConnected('subscriptions/listen');
    const subscription = createSubscription(
      (listenSignal, onnotification) =>
        connection.request(
          'subscriptions/listen',
          { notifications: { taskIds: [taskId] } },
          { signal: listenSignal, onnotification },
        ),
      {},
      () => {},
    );
    let agreed: SubscriptionFilter | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unacknowledged = new Promise<undefined>((resolve) => {
      timer = setTimeout(
        () => resolve(undefined),
        Math.max(LISTEN_ACK_TIMEOUT_MS, pollInterval(first ?? {})),
      );
    });
    try {
      agreed = await raceSignal(Promise.race([subscription.acknowledged, unacknowledged]), signal);
    } catch (error) {
      await subscription.close();
      if (signal?.aborted === true) throw error;
      if (error instanceof McpError && error.code === -32601) this.#listenRefused = true;
      return undefined;
    } finally {
      clearTimeout(timer);
    }
    if (agreed === undefined || !Array.isArray(agreed.taskIds) || !agreed.taskIds.includes(taskId)) {
      await subscription.close();
      return undefined;
    }
    const notifications = subscription[Symbol.asyncIterator]();
    const pull = async (): Promise<TaskReading | undefined> => {
      for (;;) {
        let step: IteratorResult<unknown>;
        try {
          step = await notifications.next();
        } catch {
          return undefined;
        }
        if (step.done === true) return undefined;
        const notification = step.value as { method: string; params?: unknown };
        if (notification.method === 'notifications/tasks') return readTaskNotification(notification.params);
      }
    };
    let pending: Promise<TaskReading | undefined> | undefined;
    return {
      next: () => {
        pending ??= pull().finally(() => {
          pending = undefined;
        });
        return pending;
      },
      close: () => subscription.close(),
    };
  }

  /** One request of the tasks extension on this connection, its raw result (no loop: these never ask). */
  async #exchange(method: string, params: Record<string, unknown>, signal: AbortSignal | undefined) {
    const connection = this.#connection;
    if (connection === undefined) throw notConnected(method);
    return await connection.request(method, params, { signal, call: { method } });
  }

  /** `tasks/cancel`, best effort: the call that owned the task has already failed, whatever this answers. */
  #cancelQuietly(taskId: string): void {
    this.#exchange('tasks/cancel', { taskId }, undefined).catch(() => {});
  }

  /** `tasks/get`, `tasks/update`, `tasks/cancel` by hand: one request with the call options, read by `read`. */
  async #taskCall<R>(
    method: string,
    taskId: string,
    extra: Readonly<Record<string, unknown>>,
    options: CallOptions | undefined,
    read: (raw: unknown) => R | Promise<R>,
  ): Promise<R> {
    checkTaskId(taskId);
    const params = { taskId, ...extra };
    const call: Call<R> = {
      method,
      origin: { method },
      params,
      paramsOf: () => ({ ...params }),
      read,
    };
    return await this.#call(call, options);
  }
}

/** The shortest wait for a `subscriptions/listen` acknowledgement before a task is polled instead, in ms. */
const LISTEN_ACK_TIMEOUT_MS = 1_000;

/** Throws `TypeError` for a task id that is not a non-empty string. */
function checkTaskId(taskId: unknown): asserts taskId is string {
  if (typeof taskId !== 'string' || taskId.length === 0) {
    throw argumentError('taskId', 'a non-empty string', taskId);
  }
}

/** A signal that aborts with the first of `a` and `b` to abort (either may be absent; a never-aborting one if both are). */
function anySignal(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal {
  if (a === undefined) return b ?? new AbortController().signal;
  if (b === undefined) return a;
  return AbortSignal.any([a, b]);
}
