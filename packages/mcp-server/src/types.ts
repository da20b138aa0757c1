import type {
  Annotations,
  CallToolRequestParams,
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  Icon,
  MetaObject,
  ReadResourceResult,
  ServerCapabilities,
  ToolAnnotations,
} from '@boomerang/protocol';
import type { SealCodec } from '@boomerang/seal';
import type {
  CacheOptions,
  HandlerResult,
  Logger,
  MaybePromise,
  MethodResult,
  NotificationSource,
  PrincipalBinder,
  RequestContext,
  ServerExtension,
  ServerHandlers,
  TaskPolicy,
  TaskSupport,
} from '@boomerang/server';
import type { AnswerBinding } from './resolvers/plan.js';
import type { AnyObjectSchema, AnySchema, InputOf, OutputOf } from './schema-types.js';

/** What `resolved` is for a handler without `resolve`: an empty object. */
export type NoResolved = Record<never, never>;

/**
 * The arguments a handler receives for an optional `input` schema `I` (`{}` without one): a Standard Schema's
 * output, the value a raw JSON Schema describes.
 */
export type ArgsOf<I> = I extends AnyObjectSchema ? OutputOf<I> : NoResolved;

// --- options

/**
 * How `requestState` is protected (see the README). Default: sealed under a random key made for this instance
 * (state does not survive a restart or cross replicas), audience = the server name. Give `keys` (or a `codec`)
 * to share state across replicas; an explicit policy needs a server name or an `audience`.
 */
export interface RequestStateSecurity {
  /** Secrets of ≥ 32 bytes, newest first: `keys[0]` seals, every key opens (`parseKeys(env)`). */
  keys?: readonly Uint8Array[];
  /** Your own cipher (a KMS): exclusive with `keys`. Expiry, audience and binding are still enforced. */
  codec?: SealCodec;
  /** Lifetime of one round's state, whole seconds. Default 600. */
  ttlSeconds?: number;
  /**
   * Bind state to the principal: `true` (default: `auth.clientId`/`issuer`/`subject`), `false`, or a function
   * naming the principal (a throw fails the request closed).
   */
  bindPrincipal?: boolean | PrincipalBinder;
  /** The audience claim. Default: the server name. */
  audience?: string;
  /** Epoch milliseconds, for tests. Default `Date.now`. */
  clock?: () => number;
}

/** Options of `new McpServer(info, options)`. */
export interface McpServerOptions {
  /** Guidance for the model, sent in `server/discover`. */
  instructions?: string;
  /**
   * Capabilities deep-merged into what `server/discover` advertises, as the low-level server's option:
   * `{ logging: {} }` (needed for `ctx.log` to emit anything), `extensions`. What it declares under `tools`,
   * `prompts`, `resources` or `completions` is advertised once that feature appears (its first registration).
   */
  capabilities?: ServerCapabilities;
  /** Extensions served (their capabilities, methods and result types), as the low-level server's option. */
  extensions?: readonly ServerExtension[];
  /**
   * The tasks runtime (`createTasks({ store })` of `@boomerang/tasks`): its extension is served, and tools
   * registered with `task` run as tasks. Registering such a tool without it throws `TypeError`.
   */
  tasks?: ToolTasks;
  /** Request-state protection; on by default (see {@link RequestStateSecurity}). */
  requestStateSecurity?: RequestStateSecurity;
  /** Where rejections and internal errors go (the low-level server's logger; `console` fits). */
  logger?: Logger;
  /** `ttlMs`/`cacheScope` defaults for lists, reads and `server/discover`. */
  cache?: CacheOptions;
  /** Items per page of the four list methods. Default: everything on one page. */
  pageSize?: number;
  /**
   * Where `subscriptions/listen` streams get their notifications (`list_changed` after registrations,
   * `resources/updated` from `resourceUpdated`). Default: an in-process hub (`createNotificationHub()` from
   * `@boomerang/server`); pass a shared source so that several instances notify each other's subscribers, or
   * `false` to serve no subscriptions (`subscriptions/listen` then answers `-32601`).
   */
  notifications?: NotificationSource | false;
  /**
   * Cap, in bytes of plaintext JSON, on the request state resolvers record per round (every answer so far).
   * Default 20,480, so the sealed token always fits the sealer's 65,536-character limit. A round that would
   * exceed it fails with an error naming the registration (for a tool, an `isError` result) instead of minting a
   * huge token; sampling completions are the usual culprit.
   */
  maxStateBytes?: number;
  /**
   * How an answer is bound to the question it answers (default `'question'`). `'question'`: an answer counts
   * only under the wire key naming the exact question asked now (`r<n>.<digest>` of the rendered request), and
   * a round with nothing recorded seals no state, so a one-question call costs no cryptography. `'round'`:
   * also, the sealed state of the previous round must say that this very question was asked in this call, so
   * an answer is bound to the call's arguments and principal and expires with the state (every round seals).
   */
  answerBinding?: AnswerBinding;
  /**
   * Serve 2025-11-25 clients (default `true`): on a connection that opens with `initialize`, every
   * `InputRequiredResult` (a resolver's questions, or one a handler built) is asked through real server→client
   * requests and the handler runs again with the answers, the same rounds as 2026-07-28. `requestTimeoutMs`:
   * how long one such request waits (default 60 000). `false`: `initialize` answers `-32022`.
   */
  legacy?: boolean | { readonly requestTimeoutMs?: number | undefined };
}

// --- completion

/**
 * Completes one prompt argument or template variable: the partial `value` first, the values already chosen
 * for the other arguments next, the request context last. At most 100 values are sent (`total` and `hasMore`
 * tell the client how many there were).
 */
export type Completer = (
  value: string,
  context: { readonly arguments: Readonly<Record<string, string>> },
  ctx: RequestContext,
) => MaybePromise<readonly string[]>;

/** Completers by argument (or variable) name. */
export type CompleteMap<Names extends PropertyKey> = { readonly [K in Names]?: Completer };

// --- tools

/** What a tool handler returns when the tool has no `output` schema: a `CallToolResult`. */
export type ToolResult = HandlerResult<CallToolResult>;

/**
 * What a tool handler returns when the tool has an `output` schema: `structuredContent` of the schema's input
 * type (validated and sent as parsed; `content` defaults to one text block with its JSON), or an `isError`
 * result.
 */
export type StructuredToolResult<T> =
  | {
      structuredContent: T;
      content?: ContentBlock[];
      isError?: false;
      _meta?: MetaObject;
    }
  | (ToolResult & { isError: true });

/** The result type of a tool handler for an optional `output` schema `O`. */
export type ToolReturn<O> = O extends AnySchema ? StructuredToolResult<InputOf<O>> : ToolResult;

/** Metadata of a tool that can be changed after registration with `handle.update()`. */
export interface ToolMetadata {
  title?: string;
  description?: string;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: MetaObject;
}

/** `mcp.tool(name, config, handler)`'s config, without `resolve`. */
export interface ToolConfig<I extends AnyObjectSchema | undefined, O extends AnySchema | undefined>
  extends ToolMetadata {
  /**
   * The arguments: a Standard Schema of an object (zod 4, valibot, arktype…) or a raw JSON Schema object;
   * published as `inputSchema` (JSON Schema 2020-12 from the library's own converter, input side), and every call's
   * arguments validated with it (an `isError` result names the issues).
   */
  input?: I;
  /**
   * The structured result: a Standard Schema or a raw JSON Schema; published as `outputSchema` (output side), and
   * every `structuredContent` the handler returns validated with it.
   */
  output?: O;
  /**
   * Run the call as a task of the `io.modelcontextprotocol/tasks` extension (needs the `tasks` option):
   * `'optional'` when the request declared the extension, `'required'` always (`-32021` for a client that did
   * not declare it). The resolvers then ask through the task (`tasks/get` shows their questions, `tasks/update`
   * answers them on any instance). `{ support, askFirst }` asks the named resolvers of `resolve` (and what they
   * use) first, as ordinary rounds of the `tools/call` itself, before the task is created.
   */
  task?: TaskSupport | { readonly support: TaskSupport; readonly askFirst?: readonly string[] | undefined };
}

/**
 * A runtime that runs tool calls as tasks: `createTasks({ store })` of `@boomerang/tasks` is one. `McpServer`
 * serves its `extension` and hands it its `tools/call` handler once, with each tool's `task` setting.
 */
export interface ToolTasks {
  readonly extension: ServerExtension;
  wrapCallTool(
    inner: NonNullable<ServerHandlers['onCallTool']>,
    policy: (params: CallToolRequestParams, ctx: RequestContext) => TaskPolicy | undefined,
  ): NonNullable<ServerHandlers['onCallTool']>;
}

/** A tool handler: validated arguments, resolved values (`{}` without `resolve`), the request context. */
export type ToolHandler<Args, Resolved, Out> = (
  args: Args,
  resolved: Resolved,
  ctx: RequestContext,
) => MaybePromise<Out>;

/** A registered tool, prompt or resource: change its metadata or remove it. */
export interface RegisteredHandle<Meta> {
  /** The tool or prompt name, the resource URI or the template. */
  readonly name: string;
  /** Replaces the given metadata members; the next list shows them. */
  update(patch: Meta): void;
  /** Unregisters it (idempotent); the name may be registered again. */
  remove(): void;
}

// --- prompts

/** Metadata of a prompt that can be changed after registration. */
export interface PromptMetadata {
  title?: string;
  description?: string;
  icons?: Icon[];
  _meta?: MetaObject;
}

/** `mcp.prompt(name, config, handler)`'s config, without `resolve`. */
export interface PromptConfig<I extends AnyObjectSchema | undefined> extends PromptMetadata {
  /**
   * The arguments: a Standard Schema of an object (zod 4, valibot, arktype…) or a raw JSON Schema object, whose
   * fields accept strings (prompt arguments are strings on the wire; use `z.coerce` or your library's equivalent to
   * read numbers). Published as the prompt's `arguments` (names, titles, descriptions, required); a failed
   * validation is `-32602`.
   */
  input?: I;
  /** Completers for the arguments (`completion/complete`). */
  complete?: CompleteMap<I extends AnyObjectSchema ? keyof InputOf<I> & string : never>;
}

/** True when a prompt argument's input type accepts no string at all (`z.number()` rather than `z.coerce`). */
type RejectsStrings<T> = unknown extends T ? false : [Extract<T, string>] extends [never] ? true : false;

/**
 * `unknown` when every field of the prompt input `I` accepts a string; otherwise an impossible `input` member
 * whose text names the field (prompt arguments are strings on the wire).
 */
export type PromptInputCheck<I> = I extends AnyObjectSchema
  ? {
      [K in keyof InputOf<I>]-?: RejectsStrings<InputOf<I>[K]> extends true ? K : never;
    }[keyof InputOf<I>] extends infer Bad
    ? [Bad] extends [never]
      ? unknown
      : { input: `prompt argument '${Bad & string}' must accept a string: use z.coerce` }
    : unknown
  : unknown;

/** What a prompt handler returns: a `GetPromptResult`. */
export type PromptResult = HandlerResult<GetPromptResult>;

// --- resources

/** Metadata of a static resource or a template. */
export interface ResourceMetadata {
  /** Default: the URI (or the template). */
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: MetaObject;
}

/** `mcp.resource(uri, config, handler)`'s config. */
export interface ResourceConfig extends ResourceMetadata {
  /** Size in bytes, when known. */
  size?: number;
}

/** What a resource handler returns: a `ReadResourceResult` (`ttlMs`/`cacheScope` optional). */
export type ResourceResult = HandlerResult<ReadResourceResult>;

/** A static resource's handler: it only gets the context, and cannot ask (no `InputRequiredResult`). */
export type StaticResourceHandler = (ctx: RequestContext) => MaybePromise<ResourceResult>;

/** `mcp.resourceTemplate(uriTemplate, config, handler)`'s config, without `resolve`. */
export interface ResourceTemplateConfig<Vars> extends ResourceMetadata {
  /** Completers for the template's variables (`completion/complete` with `ref/resource`). */
  complete?: CompleteMap<keyof Vars & string>;
}

// --- custom methods

/** `mcp.method(name, config, handler)`'s config, without `resolve`. */
export interface MethodConfig<I extends AnyObjectSchema | undefined> {
  /**
   * The method's params as a Standard Schema of an object or a raw JSON Schema object (without `_meta`,
   * `inputResponses` and `requestState`, which reach the
   * handler through `ctx`); invalid params answer `-32602` naming the field. Default: no params.
   */
  params?: I;
}

/** A custom method's handler: validated params, resolved values (`{}` without `resolve`), the request context. */
export type MethodHandler<Params, Resolved, Return> = (
  params: Params,
  resolved: Resolved,
  ctx: RequestContext,
) => MaybePromise<Return>;

/** What a custom method's handler returns: any JSON object (the server fills `resultType` and `_meta`). */
export type MethodReturn = HandlerResult<MethodResult>;
