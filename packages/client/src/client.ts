// The Client: its public calls, each a `Call` (calls.ts) run by the call runner (call-runner.ts: the call's steps
// around the MRTR loop, each request through the middleware chain) over the connection `connect()` opened through
// the era seam (open-connection.ts, eras.ts).
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  DiscoverResult,
  GetPromptResult,
  Implementation,
  InputRequiredMethod,
  InputResponses,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  StandardSchemaV1,
  SubscriptionFilter,
  Tool,
} from '@boomerang/protocol';
import { MetaKey } from '@boomerang/protocol';
import type { RequestTransport, Transport } from '@boomerang/protocol/transport';
import { CallRunner, type Flow, NEW_STEP } from './call-runner.js';
import {
  type Call,
  callOf,
  countingCall,
  type InputRequiredParams,
  promptCall,
  resourceCall,
  schemaCall,
  specCall,
  toolCall,
} from './calls.js';
import type { Connection, ServerDescription } from './connection.js';
import { type Continuation, continuationProblem, responsesProblem, type Step } from './continuation.js';
import { invalidContinuation, invalidInputResponses, notConnected } from './errors.js';
import { Listing } from './listing.js';
import { type ClientMiddleware, checkMiddleware } from './middleware.js';
import { roundInputs } from './mrtr-loop.js';
import { openConnection } from './open-connection.js';
import type {
  CachedCallOptions,
  CallOptions,
  ClientOptions,
  ClientSettings,
  CompleteParams,
  ListAllOptions,
  ListParams,
  RequestOptions,
} from './options.js';
import { resolveClientOptions } from './options.js';
import { OutputSchemas } from './output-schemas.js';
import type { Paginated } from './pagination.js';
import { ToolHints } from './restart.js';
import type { ResultByMethod } from './results.js';
import { TaskFollower } from './steps/follow-task.js';
import { createSubscription, type ListenOptions, type Subscription } from './subscription.js';
import { clientTasks } from './task-methods.js';
import type { ClientTasks } from './tasks.js';

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
  /** The user's middleware, in registration order. */
  readonly #middleware: ClientMiddleware[] = [];
  readonly #taskFollower: TaskFollower;
  readonly #runner: CallRunner;
  readonly #listing: Listing;
  #connection: Connection | undefined;
  #connecting = false;
  #server: ServerDescription | undefined;
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
    const connection = () => this.#connection;
    this.#taskFollower = new TaskFollower(this.#settings, connection);
    this.#runner = new CallRunner({
      settings: this.#settings,
      capabilities: this.capabilities,
      connection,
      middleware: this.#middleware,
      hints: this.#toolHints,
      tasks: this.#taskFollower,
    });
    this.#listing = new Listing(this.#settings, this.#runner);
    this.tasks = clientTasks(this.#runner, this.#taskFollower);
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
    try {
      const connection = await openConnection(transport, this.#settings, this.info, this.capabilities);
      this.#connection = connection;
      this.#server = connection.server;
      this.#taskFollower.reset();
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
   * Adds a middleware around every request this client sends (each round of every call, a retry's too): an onion
   * function `(ctx, next) => result`, the first registered outermost. `ctx` tells the method, the round's params,
   * the round number, the call's options and `meta` (members to add to the request's `_meta`: a `traceparent`),
   * and `ctx.call`, shared by every round of the call (see `ClientCallContext`); `next()` sends the request and
   * resolves to its raw result or rejects with the server's `McpError` or a `ClientError`. `clientTelemetry()` of
   * `@boomerang/otel` is one. Register them before the calls they should see; `TypeError` for anything but a
   * function. Returns the client, so calls chain.
   */
  use(middleware: ClientMiddleware): this {
    this.#middleware.push(checkMiddleware(middleware));
    return this;
  }

  /**
   * `server/discover`: the server's supported versions, capabilities, instructions (and `serverInfo` in `_meta`).
   * Also updates {@link serverCapabilities}.
   */
  async discover(options?: CallOptions): Promise<DiscoverResult> {
    const result = await this.#runner.call(specCall('server/discover', {}), options);
    const serverInfo = result._meta?.[MetaKey.serverInfo] as Implementation | undefined;
    this.#server = { capabilities: result.capabilities, serverInfo, instructions: result.instructions };
    return result;
  }

  /**
   * `tools/list`: one page of tools, `{ tools, nextCursor? }`. Like the other list methods and `readResource`,
   * served from the cache while a result for the same params is fresh (`ttlMs`), unless `{ cache: false }`.
   */
  async listTools(params: ListParams = {}, options?: CachedCallOptions): Promise<ListToolsResult> {
    const result = await this.#listing.page('tools/list', params, options);
    this.#outputSchemas.record(result.tools, params.cursor === undefined);
    this.#toolHints.learn(result.tools);
    return result;
  }

  /**
   * Every tool of every page of `tools/list`, one page requested at a time as the iteration goes on (see
   * {@link Paginated}); at most `maxPages` pages (default: option `listMaxPages`, 100).
   */
  tools(params: Omit<ListParams, 'cursor'> = {}, options: ListAllOptions = {}): Paginated<Tool> {
    return this.#listing.all('tools/list', options, async (cursor) => {
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
    const result = await this.#runner.call(toolCall(name, args), options);
    await this.#checkToolResult(name, result);
    return result;
  }

  /** `prompts/list`: one page of prompts, `{ prompts, nextCursor? }`. */
  listPrompts(params: ListParams = {}, options?: CachedCallOptions): Promise<ListPromptsResult> {
    return this.#listing.page('prompts/list', params, options);
  }

  /** Every prompt of every page of `prompts/list` (see {@link Client.tools}). */
  prompts(params: Omit<ListParams, 'cursor'> = {}, options: ListAllOptions = {}): Paginated<Prompt> {
    return this.#listing.all('prompts/list', options, async (cursor) => {
      const page = await this.listPrompts({ ...params, cursor }, options);
      return { items: page.prompts, nextCursor: page.nextCursor };
    });
  }

  /** `prompts/get`, with the MRTR loop. Prompt arguments are strings on the wire. */
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult> {
    return this.#runner.call(promptCall(name, args), options);
  }

  /** `resources/list`: one page of resources, `{ resources, nextCursor? }`. */
  listResources(params: ListParams = {}, options?: CachedCallOptions): Promise<ListResourcesResult> {
    return this.#listing.page('resources/list', params, options);
  }

  /** Every resource of every page of `resources/list` (see {@link Client.tools}). */
  resources(params: Omit<ListParams, 'cursor'> = {}, options: ListAllOptions = {}): Paginated<Resource> {
    return this.#listing.all('resources/list', options, async (cursor) => {
      const page = await this.listResources({ ...params, cursor }, options);
      return { items: page.resources, nextCursor: page.nextCursor };
    });
  }

  /** `resources/templates/list`: one page of templates, `{ resourceTemplates, nextCursor? }`. */
  listResourceTemplates(
    params: ListParams = {},
    options?: CachedCallOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.#listing.page('resources/templates/list', params, options);
  }

  /** Every template of every page of `resources/templates/list` (see {@link Client.tools}). */
  resourceTemplates(
    params: Omit<ListParams, 'cursor'> = {},
    options: ListAllOptions = {},
  ): Paginated<ResourceTemplate> {
    return this.#listing.all('resources/templates/list', options, async (cursor) => {
      const page = await this.listResourceTemplates({ ...params, cursor }, options);
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    });
  }

  /**
   * `resources/read`, with the MRTR loop. Cached only when the first request answered `complete` (a result
   * reached through `input_required` rounds depends on the answers, so it is never cached).
   */
  readResource(uri: string, options: CachedCallOptions = {}): Promise<ReadResourceResult> {
    return this.#listing.cached('resources/read', uri, options, async () => {
      const counter = { requests: 0 };
      const result = await this.#runner.call(countingCall(resourceCall(uri), counter), options);
      return { result, cacheable: counter.requests === 1 };
    });
  }

  /** `completion/complete`: suggestions for a prompt or resource-template argument. */
  complete(params: CompleteParams, options?: CallOptions): Promise<CompleteResult> {
    return this.#runner.call(specCall('completion/complete', params), options);
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
    return await this.#runner.call(schemaCall(method, params ?? {}, options?.result), options);
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
    const meta = options.meta ?? continuation.meta;
    const flow = { inputs, before: continuation.round, pause: true, carried: continuation.carried };
    return await this.#step(call, meta === undefined ? options : { ...options, meta }, flow);
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

  /** A tool result against the `outputSchema` of the last `tools/list` (see {@link Client.callTool}). */
  async #checkToolResult(name: string, result: CallToolResult): Promise<void> {
    if (this.#settings.validateToolOutput)
      await this.#outputSchemas.check({ method: 'tools/call', name }, result);
  }

  /** A call a step at a time (`start`, `resume`); a complete tool result is checked as `callTool` checks it. */
  async #step<R>(call: Call<R>, options: CallOptions, flow: Flow): Promise<Step<R>> {
    const step = await this.#runner.step(call, options, flow);
    const spec = (options as { result?: unknown }).result === undefined;
    const { origin } = call;
    if (
      step.continuation === undefined &&
      spec &&
      origin.method === 'tools/call' &&
      origin.name !== undefined
    ) {
      await this.#checkToolResult(origin.name, step.result as CallToolResult);
    }
    return step;
  }
}
