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
  ReadResourceResult,
  ServerCapabilities,
  StandardSchemaV1,
  SubscriptionFilter,
} from '@boomerang/protocol';
import { MetaKey } from '@boomerang/protocol';
import type { RequestTransport, Transport } from '@boomerang/protocol/transport';
import { assembleClient, type ClientParts } from './assembly.js';
import { NEW_STEP } from './call-runner.js';
import {
  callOf,
  countingCall,
  type InputRequiredParams,
  promptCall,
  resourceCall,
  schemaCall,
  specCall,
  toolCall,
} from './calls.js';
import { ClientLists } from './client-lists.js';
import type { Continuation, Step } from './continuation.js';
import { notConnected } from './errors.js';
import { type ClientMiddleware, checkMiddleware } from './middleware.js';
import { openConnection } from './open-connection.js';
import type {
  CachedCallOptions,
  CallOptions,
  ClientOptions,
  CompleteParams,
  RequestOptions,
} from './options.js';
import type { ResultByMethod } from './results.js';
import { resumption } from './steps/resume.js';
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
export class Client extends ClientLists {
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
  readonly #parts: ClientParts;

  /**
   * Throws `TypeError` for a narrowing option without its callback or a `capabilities` that is not an object,
   * `RangeError` for a bad `elicitationModes`, `inputRequiredMaxRounds` (a non-negative integer) or
   * `requestTimeoutMs` (positive milliseconds); see `resolveClientOptions`.
   */
  constructor(info: Implementation, options: ClientOptions = {}) {
    const parts = assembleClient(options);
    super(parts);
    this.#parts = parts;
    this.info = info;
    this.capabilities = parts.settings.capabilities;
    this.tasks = clientTasks(parts.runner, parts.taskFollower);
  }

  /** The protocol revision negotiated for this connection (`"2026-07-28"` or `"2025-11-25"`), else `undefined`. */
  get protocolVersion(): string | undefined {
    return this.#parts.slot.connection?.protocolVersion;
  }

  /**
   * The capabilities the server declared, once known: from the `server/discover` probe of `protocol: 'auto'`, from
   * any `discover()` since, or from a 2025-11-25 `initialize`. Read the extensions it supports with
   * `hasExtension(client.serverCapabilities, id)` from `@boomerang/protocol`. `undefined` before then (with
   * `protocol: '2026-07-28'` nothing is sent when connecting: call `discover()`).
   */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#parts.slot.server?.capabilities;
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
    const { slot } = this.#parts;
    if (slot.connection !== undefined || slot.connecting) {
      throw new Error('Client is already connected; call close() first');
    }
    slot.connecting = true;
    try {
      const connection = await openConnection(transport, this.#parts.settings, this.info, this.capabilities);
      slot.connection = connection;
      slot.server = connection.server;
      this.#parts.taskFollower.reset();
    } finally {
      slot.connecting = false;
    }
  }

  /** Closes the transport; every call in flight rejects with a `closed` `ClientError`. Idempotent. */
  async close(): Promise<void> {
    const { slot } = this.#parts;
    const connection = slot.connection;
    slot.connection = undefined;
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
    this.#parts.middleware.push(checkMiddleware(middleware));
    return this;
  }

  /**
   * `server/discover`: the server's supported versions, capabilities, instructions (and `serverInfo` in `_meta`).
   * Also updates {@link serverCapabilities}.
   */
  async discover(options?: CallOptions): Promise<DiscoverResult> {
    const result = await this.#parts.runner.call(specCall('server/discover', {}), options);
    const serverInfo = result._meta?.[MetaKey.serverInfo] as Implementation | undefined;
    this.#parts.slot.server = {
      capabilities: result.capabilities,
      serverInfo,
      instructions: result.instructions,
    };
    return result;
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
    return await this.#parts.runner.call(toolCall(name, args, this.#parts.checkTool), options);
  }

  /** `prompts/get`, with the MRTR loop. Prompt arguments are strings on the wire. */
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult> {
    return this.#parts.runner.call(promptCall(name, args), options);
  }

  /**
   * `resources/read`, with the MRTR loop. Cached only when the first request answered `complete` (a result
   * reached through `input_required` rounds depends on the answers, so it is never cached).
   */
  readResource(uri: string, options: CachedCallOptions = {}): Promise<ReadResourceResult> {
    return this.#parts.listing.cached('resources/read', uri, options, async () => {
      const counter = { requests: 0 };
      const result = await this.#parts.runner.call(countingCall(resourceCall(uri), counter), options);
      return { result, cacheable: counter.requests === 1 };
    });
  }

  /** `completion/complete`: suggestions for a prompt or resource-template argument. */
  complete(params: CompleteParams, options?: CallOptions): Promise<CompleteResult> {
    return this.#parts.runner.call(specCall('completion/complete', params), options);
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
    return await this.#parts.runner.call(schemaCall(method, params ?? {}, options?.result), options);
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
    const call = callOf<unknown>(method, params ?? {}, options.result, this.#parts.checkTool);
    return await this.#parts.runner.step(call, options, NEW_STEP);
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
    const next = await resumption(continuation, responses, options, this.#parts.checkTool);
    return await this.#parts.runner.step(next.call, next.options, next.flow);
  }

  /**
   * `subscriptions/listen`: opens a stream of the notifications `filter` asks for (`toolsListChanged`,
   * `promptsListChanged`, `resourcesListChanged`, `resourceSubscriptions: [uri…]`). Iterate it with
   * `for await`; `break` cancels it; it ends when the server ends it. Every notification it receives also
   * invalidates the matching cached results. See {@link Subscription}.
   */
  listen(filter: SubscriptionFilter, options: ListenOptions = {}): Subscription {
    const { connection } = this.#parts.slot;
    return createSubscription(
      async (signal, onnotification) => {
        if (connection === undefined) throw notConnected('subscriptions/listen');
        const params = { notifications: filter };
        return connection.request('subscriptions/listen', params, { signal, onnotification });
      },
      options,
      (notification) => void this.#parts.settings.cache?.invalidate(notification),
    );
  }
}
