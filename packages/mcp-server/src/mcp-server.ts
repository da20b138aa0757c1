import {
  argumentError,
  type Implementation,
  type InputRequiredResult,
  type JSONRPCResponse,
  type PaginatedRequestParams,
  type ServerCapabilities,
} from '@boomerang/protocol';
import type { HandleContext, MessageHandler, Transport } from '@boomerang/protocol/transport';
import {
  type ConnectOptions,
  createNotificationHub,
  type MaybePromise,
  type RequestContext,
  Server,
  type ServerConnection,
  type ServerHandlers,
  type ServerMiddleware,
} from '@boomerang/server';
import { featureCapabilities } from './capabilities.js';
import { complete } from './completion.js';
import { methodDefinition } from './methods.js';
import { checkOptions, passThroughOptions } from './options.js';
import { describePrompt, getPrompt, PROMPT_META_KEYS, type PromptEntry, promptEntry } from './prompts.js';
import { Registry, register } from './registry.js';
import type { ResolvedValues, ResolveMapFor, ResolverPlanOptions } from './resolvers/index.js';
import {
  describeResource,
  describeTemplate,
  RESOURCE_META_KEYS,
  type ResourceEntry,
  readResource,
  resourceEntry,
  type TemplateEntry,
  templateEntry,
} from './resources.js';
import type { AnyObjectSchema, AnySchema } from './schema-types.js';
import { requestStateEnvelope } from './security.js';
import {
  askFirst,
  callTool,
  describeTool,
  TOOL_META_KEYS,
  type ToolEntry,
  toolEntry,
  validateTaskCall,
} from './tools.js';
import type {
  ArgsOf,
  McpServerOptions,
  MethodConfig,
  MethodHandler,
  MethodReturn,
  NoResolved,
  PromptConfig,
  PromptInputCheck,
  PromptMetadata,
  PromptResult,
  RegisteredHandle,
  ResourceConfig,
  ResourceMetadata,
  ResourceResult,
  ResourceTemplateConfig,
  StaticResourceHandler,
  ToolConfig,
  ToolHandler,
  ToolMetadata,
  ToolReturn,
} from './types.js';
import type { TemplateVariables } from './uri-template.js';

/** The spec's recommended tool names (a SHOULD: other names are served, with a warning at registration). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** A registered tool: `update({ title, description, annotations, icons, _meta })` or `remove()`. */
export type ToolHandle = RegisteredHandle<ToolMetadata>;
/** A registered prompt. */
export type PromptHandle = RegisteredHandle<PromptMetadata>;
/** A registered static resource (its `name` is the URI). */
export type ResourceHandle = RegisteredHandle<ResourceConfig>;
/** A registered resource template (its `name` is the URI template). */
export type ResourceTemplateHandle = RegisteredHandle<ResourceMetadata>;
/** A registered custom method: `remove()` stops serving it (later requests answer `-32601`). */
export interface MethodHandle {
  /** The method name. */
  readonly name: string;
  /** Unregisters it (idempotent); the name may be registered again. */
  remove(): void;
}

/**
 * The high-level MCP 2026-07-28 server: tools, prompts, resources and resource templates registered with
 * schemas (any Standard Schema: zod 4, valibot, arktype…; or raw JSON Schema), resolvers that ask the user
 * mid-call, and `requestState` sealed by default. It builds on one
 * low-level `Server` of `@boomerang/server` (validation, `server/discover`, capability checks, sealing, cursors,
 * cache hints) and serves it through {@link McpServer.handle} and {@link McpServer.connect}.
 *
 * Capabilities follow what is registered: `tools`, `prompts`, `resources` appear with the first registration of
 * their kind (and stay, so a list may become empty), `completions` with the first `complete` callback; a method
 * of a capability not advertised answers `-32601` (the low-level server reads them live). `options.capabilities`
 * is deep-merged into what is advertised (`{ logging: {} }` so that `ctx.log` emits, `extensions`); what it
 * declares under `tools`, `prompts`, `resources` or `completions` is carried once that feature appears. Custom
 * methods (`method`) and `options.extensions` are served by the same rules as the built-in ones.
 *
 * Throws `TypeError` at construction for an invalid `info`, an unknown option, a bad `requestStateSecurity`
 * (including an explicit policy on a nameless server without an `audience`), and `RangeError` for a bad
 * `pageSize` or `maxStateBytes`.
 */
export class McpServer implements MessageHandler {
  /** The server's self-description. */
  readonly info: Implementation;
  readonly #server: Server;
  readonly #pageSize: number | undefined;
  /** A tasks runtime was given: tools may have `task`. */
  readonly #tasks: boolean;
  readonly #plan: ResolverPlanOptions;
  readonly #tools: Registry<ToolEntry>;
  readonly #prompts: Registry<PromptEntry>;
  readonly #resources: Registry<ResourceEntry>;
  readonly #templates: Registry<TemplateEntry>;
  /** A `complete` callback was registered at least once (the `completions` capability stays from then on). */
  #completions = false;
  /** The `capabilities` option: what the feature capabilities carry once they appear. */
  readonly #declared: ServerCapabilities | undefined;
  /** The capabilities in force (the low-level server reads them per request); rebuilt when a registry changes. */
  #capabilities: ServerCapabilities = {};

  constructor(info: Implementation, options: McpServerOptions = {}) {
    checkOptions(info, options);
    const { pageSize, maxStateBytes, answerBinding } = options;
    this.#declared = options.capabilities;
    this.info = info;
    this.#pageSize = pageSize;
    this.#tasks = options.tasks !== undefined;
    this.#plan = {
      ...(maxStateBytes === undefined ? {} : { maxStateBytes }),
      ...(answerBinding === undefined ? {} : { answerBinding }),
    };
    const changed = (list: 'tools' | 'prompts' | 'resources') => () => {
      this.#syncCapabilities();
      void this.#server?.notifyListChanged(list);
    };
    this.#tools = new Registry('tool', changed('tools'));
    this.#prompts = new Registry('prompt', changed('prompts'));
    this.#resources = new Registry('resource', changed('resources'));
    this.#templates = new Registry('resource template', changed('resources'));
    this.#syncCapabilities();

    const notifications =
      options.notifications === undefined ? createNotificationHub() : options.notifications || undefined;
    this.#server = new Server(info, {
      ...passThroughOptions(options),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      capabilities: () => this.#capabilities,
      ...(notifications === undefined ? {} : { notifications }),
      requestState: requestStateEnvelope(info.name, options.requestStateSecurity),
      onListTools: (params) => {
        const { items, more } = this.#page(this.#tools, params);
        return { tools: items.map(describeTool), ...more };
      },
      onCallTool: this.#callTool(options),
      onListPrompts: (params) => {
        const { items, more } = this.#page(this.#prompts, params);
        return { prompts: items.map(describePrompt), ...more };
      },
      onGetPrompt: (params, ctx) => getPrompt(this.#prompts, params, ctx),
      onListResources: (params) => {
        const { items, more } = this.#page(this.#resources, params);
        return { resources: items.map(describeResource), ...more };
      },
      onListResourceTemplates: (params) => {
        const { items, more } = this.#page(this.#templates, params);
        return { resourceTemplates: items.map(describeTemplate), ...more };
      },
      onReadResource: (params, ctx) => readResource(this.#resources, this.#templates, params, ctx),
      onComplete: (params, ctx) => complete(this.#prompts, this.#templates, params, ctx),
    });
  }

  /**
   * Adds a middleware around every request (every round of every flow, on every transport and in both eras):
   * `(ctx, next) => result`, the first registered outermost, registered before the server serves. `ctx` tells the
   * method, params, `_meta`, principal and round (see `ServerMiddlewareContext` of `@boomerang/server`); handlers
   * and resolvers read the request's `_meta` as `ctx.meta`. `rateLimit()` and `serverTelemetry()` of
   * `@boomerang/otel` are middleware. Returns the server, so calls chain.
   */
  use(middleware: ServerMiddleware): this {
    this.#server.use(middleware);
    return this;
  }

  /**
   * Answers one JSON-RPC message (text, bytes or parsed); resolves to the response, or `undefined` for
   * notifications and cancelled requests. Never rejects. This is what request/response transports (HTTP) call.
   */
  handle(message: unknown, ctx?: HandleContext): Promise<JSONRPCResponse | undefined> {
    return this.#server.handle(message, ctx);
  }

  /**
   * Serves a stream transport (stdio, in-memory, and each 2025-11-25 session of `@boomerang/transport-http`)
   * until it closes; `options.auth` is the principal of every request on it (for tests and in-process
   * embedding), `options.authOf(request)` that of one request.
   */
  connect(transport: Transport, options?: ConnectOptions): Promise<ServerConnection> {
    return this.#server.connect(transport, options);
  }

  /**
   * The published `inputSchema` of the registered tool `name` (what `tools/list` shows), or `undefined` when no
   * tool has that name: what `createHttpHandler(mcp)` and `listen(mcp)` of `@boomerang/transport-http` read
   * (its `HttpMessageHandler` contract) to validate `Mcp-Param-*` headers without a `tools` option.
   */
  toolSchema(name: string): { readonly inputSchema: Record<string, unknown> } | undefined {
    const entry = typeof name === 'string' ? this.#tools.get(name) : undefined;
    return entry === undefined ? undefined : { inputSchema: entry.inputSchema };
  }

  /**
   * Registers a tool whose handler receives the validated arguments, the values of its `resolve` map and the
   * request context. Resolved names are not in `inputSchema`, and a client-sent value under one is ignored.
   * The handler cannot return an `InputRequiredResult` (its resolvers drive the rounds): a type error, and an
   * `isError` result if forced. Throws `ResolverGraphError` for a bad resolver graph, `TypeError` for a bad
   * config, `Error` when the name is taken.
   */
  tool<
    const I extends AnyObjectSchema | undefined = undefined,
    const O extends AnySchema | undefined = undefined,
    const R extends ResolveMapFor<ArgsOf<I>> = ResolveMapFor<ArgsOf<I>>,
  >(
    name: string,
    config: ToolConfig<I, O> & { resolve: R },
    handler: ToolHandler<ArgsOf<I>, ResolvedValues<R>, ToolReturn<O>>,
  ): ToolHandle;
  /**
   * Registers a tool without resolvers: the handler receives the validated arguments, `{}` and the request
   * context, and may return an `InputRequiredResult` it built itself, reading `ctx.inputResponses` and
   * `ctx.requestState` (plaintext: the server seals and verifies it) on the retry.
   */
  tool<
    const I extends AnyObjectSchema | undefined = undefined,
    const O extends AnySchema | undefined = undefined,
  >(
    name: string,
    config: ToolConfig<I, O> & { resolve?: undefined },
    handler: ToolHandler<ArgsOf<I>, NoResolved, ToolReturn<O> | InputRequiredResult>,
  ): ToolHandle;
  tool(name: string, config: object, handler: (...args: never[]) => unknown): ToolHandle {
    const entry = toolEntry(name, config, handler, this.#plan);
    if (entry.task !== undefined && !this.#tasks) {
      throw new TypeError(
        `tool '${entry.name}': "task" needs the "tasks" option (createTasks({ store }) of @boomerang/tasks)`,
      );
    }
    if (!TOOL_NAME.test(entry.name)) {
      this.#server.logger.warn(
        `tool name '${entry.name}' is outside the spec's recommendation (1-128 of A-Z a-z 0-9 _ - .): some clients may reject it`,
      );
    }
    return register(this.#tools, entry.name, entry, `tool '${entry.name}'`, TOOL_META_KEYS);
  }

  /**
   * Registers a prompt: `input` is a Standard Schema of an object (zod 4, valibot, arktype…) or a raw JSON Schema
   * object, of string-accepting fields (arguments are strings on the wire; use `z.coerce` for numbers),
   * published as the prompt's `arguments`; invalid arguments answer `-32602`. With
   * `resolve`, the handler cannot return an `InputRequiredResult`; a declined elicitation answers `-32602`.
   */
  prompt<
    const I extends AnyObjectSchema | undefined = undefined,
    const R extends ResolveMapFor<ArgsOf<I>> = ResolveMapFor<ArgsOf<I>>,
  >(
    name: string,
    config: PromptConfig<I> & { resolve: R } & PromptInputCheck<I>,
    handler: (
      args: ArgsOf<I>,
      resolved: ResolvedValues<R>,
      ctx: RequestContext,
    ) => MaybePromise<PromptResult>,
  ): PromptHandle;
  /** Registers a prompt without resolvers; its handler may build its own rounds. */
  prompt<const I extends AnyObjectSchema | undefined = undefined>(
    name: string,
    config: PromptConfig<I> & { resolve?: undefined } & PromptInputCheck<I>,
    handler: (
      args: ArgsOf<I>,
      resolved: NoResolved,
      ctx: RequestContext,
    ) => MaybePromise<PromptResult | InputRequiredResult>,
  ): PromptHandle;
  prompt(name: string, config: object, handler: (...args: never[]) => unknown): PromptHandle {
    const entry = promptEntry(name, config, handler, this.#plan);
    return register(this.#prompts, entry.name, entry, `prompt '${entry.name}'`, PROMPT_META_KEYS);
  }

  /**
   * Registers a static resource at `uri`. Its handler gets only the context and cannot ask for input:
   * returning an `InputRequiredResult` is a type error, and `-32603` if forced. Use a template to ask.
   */
  resource(uri: string, config: ResourceConfig, handler: StaticResourceHandler): ResourceHandle {
    const entry = resourceEntry(uri, config, handler);
    return register(this.#resources, entry.uri, entry, `resource '${entry.uri}'`, [
      ...RESOURCE_META_KEYS,
      'size',
    ]);
  }

  /**
   * Registers a resource template (RFC 6570, e.g. `'users://{id}/posts{?page}'`). A read whose URI matches
   * (static resources first, then templates in registration order) calls the handler with the template's
   * variables, typed from the template string. With `resolve`, the handler cannot return an
   * `InputRequiredResult`; without, it may build its own rounds.
   */
  resourceTemplate<T extends string, const R extends ResolveMapFor<TemplateVariables<T>>>(
    uriTemplate: T,
    config: ResourceTemplateConfig<TemplateVariables<T>> & { resolve: R },
    handler: (
      vars: TemplateVariables<T>,
      resolved: ResolvedValues<R>,
      ctx: RequestContext,
    ) => MaybePromise<ResourceResult>,
  ): ResourceTemplateHandle;
  /** Registers a resource template without resolvers. */
  resourceTemplate<T extends string>(
    uriTemplate: T,
    config: ResourceTemplateConfig<TemplateVariables<T>> & { resolve?: undefined },
    handler: (
      vars: TemplateVariables<T>,
      resolved: NoResolved,
      ctx: RequestContext,
    ) => MaybePromise<ResourceResult | InputRequiredResult>,
  ): ResourceTemplateHandle;
  resourceTemplate(
    uriTemplate: string,
    config: object,
    handler: (...args: never[]) => unknown,
  ): ResourceTemplateHandle {
    const entry = templateEntry(uriTemplate, config, handler, this.#plan);
    return register(
      this.#templates,
      uriTemplate,
      entry,
      `resource template '${uriTemplate}'`,
      RESOURCE_META_KEYS,
    );
  }

  /**
   * Registers a method the protocol does not define (a vendor or extension method), served like the built-in
   * ones: `_meta` checked, `params` (a Standard Schema of an object or a raw JSON Schema) validated with
   * `-32602` naming the field, the result stamped.
   * With `resolve`, its resolvers ask exactly as a tool's do (their questions go out as `input_required` rounds)
   * and the handler cannot return an `InputRequiredResult`; a declined or cancelled elicitation consumed
   * unwrapped answers `-32602`. Throws `TypeError` for a built-in name or a bad config, a resolver graph error
   * naming the culprit, `Error` when the name is taken.
   */
  method<
    const I extends AnyObjectSchema | undefined = undefined,
    const R extends ResolveMapFor<ArgsOf<I>> = ResolveMapFor<ArgsOf<I>>,
  >(
    name: string,
    config: MethodConfig<I> & { resolve: R },
    handler: MethodHandler<ArgsOf<I>, ResolvedValues<R>, MethodReturn>,
  ): MethodHandle;
  /**
   * Registers a method without resolvers: the handler receives the validated params, `{}` and the request
   * context, and may return an `InputRequiredResult` it built itself, reading `ctx.inputResponses` and
   * `ctx.requestState` (plaintext: the server seals and verifies it) on the retry.
   */
  method<const I extends AnyObjectSchema | undefined = undefined>(
    name: string,
    config: MethodConfig<I> & { resolve?: undefined },
    handler: MethodHandler<ArgsOf<I>, NoResolved, MethodReturn | InputRequiredResult>,
  ): MethodHandle;
  method(name: string, config: object, handler: (...args: never[]) => unknown): MethodHandle {
    const served = this.#server.addMethod(name, methodDefinition(name, config, handler, this.#plan));
    return { name, remove: () => served.remove() };
  }

  /**
   * Announces that the resource at `uri` changed: every `subscriptions/listen` stream subscribed to it (on every
   * server sharing the `notifications` source) receives `notifications/resources/updated`. Throws `TypeError`
   * for an empty or non-string `uri`.
   */
  resourceUpdated(uri: string): void {
    if (typeof uri !== 'string' || uri === '') throw argumentError('uri', 'a non-empty string', uri);
    void this.#server.notifyResourceUpdated(uri);
  }

  /**
   * Ends every open `subscriptions/listen` stream gracefully (each gets its final result) and resolves when
   * they have. Connections made with {@link McpServer.connect} are closed through their own handles.
   */
  close(): Promise<void> {
    return this.#server.close();
  }

  /**
   * The `tools/call` handler: the registry's, wrapped by the tasks runtime when there is one (tools with `task`
   * then run as tasks; their `askFirst` resolvers ask on the request itself first).
   */
  #callTool(options: McpServerOptions) {
    const run: NonNullable<ServerHandlers['onCallTool']> = (params, ctx) =>
      callTool(this.#tools, params, ctx, this.#server.logger.warn);
    const { tasks } = options;
    if (tasks === undefined) return run;
    return tasks.wrapCallTool(run, (params) => {
      const entry = this.#tools.get(params.name);
      if (entry?.task === undefined) return undefined;
      return {
        support: entry.task.support,
        validate: (p) => validateTaskCall(entry, p),
        before: (p, ctx) => askFirst(entry, p, ctx),
      };
    });
  }

  /** One page of `registry`: its items, and `{ nextCursor }` to spread into the result when there are more. */
  #page<E>(registry: Registry<E>, params: PaginatedRequestParams) {
    const { items, nextCursor } = registry.page(params.cursor, this.#pageSize);
    return { items, more: nextCursor === undefined ? {} : { nextCursor } };
  }

  /** Rebuilds the capabilities in force from the registries (a new object: the server may be reading the last). */
  #syncCapabilities(): void {
    this.#completions ||=
      this.#prompts.values().some((p) => Object.keys(p.complete).length > 0) ||
      this.#templates.values().some((t) => Object.keys(t.complete).length > 0);
    this.#capabilities = featureCapabilities(this.#declared, {
      tools: this.#tools.ever,
      prompts: this.#prompts.ever,
      resources: this.#resources.ever || this.#templates.ever,
      completions: this.#completions,
    });
  }
}
