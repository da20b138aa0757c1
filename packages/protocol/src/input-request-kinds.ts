// The kinds of input request an `InputRequiredResult` may embed, one row each: what a client must declare to be
// asked one, its schemas and hand-written check, its builders, the client callback that answers it, and its
// 2025-11-25 counterpart. Every package that branches on an input request's method reads this table instead: a
// new kind is a row here (plus its schemas, its checks and, in the client, its callback).
import type { CheckedName } from './checks/checked.js';
import { isCreateMessageParams, isElicitParams, isListRootsParams } from './checks/input-requests.js';
import type { Check } from './checks/shapes.js';
import { createMessageRequest, elicitRequest, elicitUrlRequest, listRootsRequest } from './input-requests.js';
import { isPlainObject } from './jsonrpc.js';
import type * as Legacy from './legacy/index.js';
import type * as Schemas from './schema/index.js';

/** The method of an input request: `elicitation/create`, `sampling/createMessage` or `roots/list`. */
export type InputRequestMethod = Schemas.InputRequest['method'];

/** The names of a module's zod schemas, without `Schema`: `ElicitRequest` for `ElicitRequestSchema`. */
type SchemaNames<Module> = {
  [K in keyof Module]: K extends `${infer Name}Schema` ? Name : never;
}[keyof Module];

/** A zod schema of @boomerang/protocol/schemas, by name (`ElicitRequest` is `ElicitRequestSchema`). */
export type SchemaName = SchemaNames<typeof Schemas>;

/** A zod schema of @boomerang/protocol/2025-11-25, by name. */
export type LegacySchemaName = SchemaNames<typeof Legacy>;

/**
 * A client capability an input request can need: a member of `ClientCapabilities` other than the open maps
 * (`experimental`, `extensions`).
 */
export type InputRequestCapabilityName = Exclude<
  keyof { [K in keyof Schemas.ClientCapabilities as string extends K ? never : K]: unknown },
  'experimental' | 'extensions'
>;

/** The params of an input request as the table's functions read them: a plain object (`{}` when absent). */
export type InputRequestParams = Readonly<Record<string, unknown>>;

/** A member of a client capability that a request needs declared: `elicitation.url`, `sampling.tools`. */
export interface CapabilityNeed {
  /** The member of the capability's settings object: `form`, `url`, `tools`, `context`. */
  readonly member: string;
  /**
   * `true` when the spec says a server MUST NOT send the request unless the client declared the member (an
   * elicitation mode, `sampling.tools`): a client refuses such a request. `false` when it only SHOULD NOT
   * (`sampling.context`): Boomerang's server still never sends it undeclared, and its client answers a server
   * that did.
   */
  readonly must: boolean;
}

/** The client capability behind a kind of input request, and what the params of one request need of it. */
export interface InputRequestCapability {
  /** The member of `ClientCapabilities` that declares it: `elicitation`, `sampling`, `roots`. */
  readonly name: InputRequestCapabilityName;
  /** The members of its settings object that a request may need. */
  readonly members: readonly string[];
  /**
   * The member that a declared capability with none of `members` stands for: an empty `elicitation: {}` is form
   * mode (spec: backwards compatibility).
   */
  readonly implied?: string;
  /** The members the params need, in `members` order: one of a few constant lists (nothing is allocated). */
  readonly needs: (params: InputRequestParams) => readonly CapabilityNeed[];
  /**
   * Why the params ask for a member this revision does not define (an unknown elicitation `mode`), or
   * `undefined`. `needs` then names the member a server falls back to.
   */
  readonly unknownMember?: (params: InputRequestParams) => string | undefined;
}

/** The 2025-11-25 counterpart of a kind: a real server→client JSON-RPC request of the same method. */
export interface LegacyCounterpart {
  /** Its request's zod schema at @boomerang/protocol/2025-11-25, by name. */
  readonly request: LegacySchemaName;
  /** Its answer's zod schema there, by name. */
  readonly result: LegacySchemaName;
  /**
   * The params as 2025-11-25 sends them, where they differ (a URL elicitation carries an `elicitationId`, which
   * 2026-07-28 dropped for `requestState`); the same object when nothing changes.
   */
  readonly params?: (params: InputRequestParams) => InputRequestParams;
}

/** The name of the message that answers an input request: its zod schema's and its hand-written check's. */
export type InputResponseName = SchemaName & CheckedName;

/** One row of {@link INPUT_REQUEST_KINDS}: everything a package needs to know about one kind of input request. */
export interface InputRequestKind<
  M extends InputRequestMethod = InputRequestMethod,
  Callback extends string = string,
  Response extends InputResponseName = InputResponseName,
> {
  /** The method, the same in both revisions. */
  readonly method: M;
  /** The client capability that covers it, and what a request's params need of it. */
  readonly capability: InputRequestCapability;
  /** Its zod schema at @boomerang/protocol/schemas, by name. */
  readonly request: SchemaName;
  /**
   * The message that answers it: `<name>Schema` at @boomerang/protocol/schemas, and `<name>` for
   * `parseLazily` / `verdictOf` at @boomerang/protocol/internal.
   */
  readonly result: Response;
  /** The hand-written check of its `params` (`undefined` when it has none): true only where zod accepts them. */
  readonly isParams: Check;
  /** The functions of @boomerang/protocol that build it (elicitation: one per mode). */
  readonly builders: readonly ((...args: never) => Schemas.InputRequest)[];
  /** The member of a Boomerang client's options whose callback answers it; registering it declares `capability`. */
  readonly callback: Callback;
  /**
   * What a person reads of one such question (for scripted answers, logs and inboxes): an elicitation's message,
   * a sampling request's text blocks joined by newlines; `undefined` when it has no text (`roots/list`).
   */
  readonly text: (params: InputRequestParams) => string | undefined;
  /** Its 2025-11-25 counterpart. */
  readonly legacy: LegacyCounterpart;
}

/** A frozen row, its method, callback and answer kept as literal types (the client types its callbacks by them). */
function row<M extends InputRequestMethod, Callback extends string, Response extends InputResponseName>(
  kind: InputRequestKind<M, Callback, Response>,
): InputRequestKind<M, Callback, Response> {
  return Object.freeze(kind);
}

const need = (member: string, must: boolean): CapabilityNeed => Object.freeze({ member, must });

const NOTHING: readonly never[] = Object.freeze([]);
const FORM_MODE: readonly CapabilityNeed[] = Object.freeze([need('form', true)]);
const URL_MODE: readonly CapabilityNeed[] = Object.freeze([need('url', true)]);
const TOOLS = need('tools', true);
const CONTEXT = need('context', false);
const WITH_TOOLS: readonly CapabilityNeed[] = Object.freeze([TOOLS]);
const WITH_CONTEXT: readonly CapabilityNeed[] = Object.freeze([CONTEXT]);
const WITH_TOOLS_AND_CONTEXT: readonly CapabilityNeed[] = Object.freeze([TOOLS, CONTEXT]);

/**
 * `elicitation`: a request needs the member named by its `mode` (absent: form). Spec: a server MUST NOT send a
 * mode the client did not declare; an empty `elicitation: {}` declares form mode.
 */
const ELICITATION = Object.freeze<InputRequestCapability>({
  name: 'elicitation',
  members: Object.freeze(['form', 'url']),
  implied: 'form',
  needs: (params) => (params.mode === 'url' ? URL_MODE : FORM_MODE),
  unknownMember: (params) => {
    const mode = params.mode ?? 'form';
    return mode === 'form' || mode === 'url' ? undefined : `elicitation mode "${String(mode)}" is unknown`;
  },
});

/**
 * `sampling`: `tools` or `toolChoice` need `sampling.tools` (spec: MUST), the deprecated `includeContext`
 * `"thisServer"` / `"allServers"` need `sampling.context` (spec: SHOULD).
 */
const SAMPLING = Object.freeze<InputRequestCapability>({
  name: 'sampling',
  members: Object.freeze(['tools', 'context']),
  needs: (params) => {
    const tools = params.tools !== undefined || params.toolChoice !== undefined;
    const context = params.includeContext === 'thisServer' || params.includeContext === 'allServers';
    if (tools) return context ? WITH_TOOLS_AND_CONTEXT : WITH_TOOLS;
    return context ? WITH_CONTEXT : NOTHING;
  },
});

/** `roots`: no members. */
const ROOTS = Object.freeze<InputRequestCapability>({
  name: 'roots',
  members: NOTHING,
  needs: () => NOTHING,
});

/** An elicitation's message. */
function elicitationText(params: InputRequestParams): string | undefined {
  return typeof params.message === 'string' ? params.message : undefined;
}

/** The text blocks of a sampling request's messages, joined by newlines. */
function samplingText(params: InputRequestParams): string | undefined {
  if (!Array.isArray(params.messages)) return undefined;
  const texts: string[] = [];
  for (const message of params.messages) {
    if (!isPlainObject(message)) continue;
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    for (const block of blocks) {
      if (isPlainObject(block) && block.type === 'text' && typeof block.text === 'string')
        texts.push(block.text);
    }
  }
  return texts.join('\n');
}

const NO_TEXT = (): undefined => undefined;

/** A URL elicitation as 2025-11-25 sends it: with a fresh `elicitationId` (unless it has one). */
function withElicitationId(params: InputRequestParams): InputRequestParams {
  if (params.mode !== 'url' || 'elicitationId' in params) return params;
  return { ...params, elicitationId: globalThis.crypto.randomUUID() };
}

/**
 * The kinds of input request, by method. A client declares `capability.name` (and the members `capability.needs`
 * names) in the `_meta` of the request that gets the question; it answers with a `result`, under the question's
 * key in `inputResponses`:
 *
 * - `elicitation/create`: capability `elicitation` (member `form` or `url`, by `mode`); `ElicitRequest` →
 *   `ElicitResult`; callback `elicitation(params, ctx)`; in 2025-11-25 a URL elicitation carries `elicitationId`.
 * - `sampling/createMessage`: capability `sampling` (`tools` for `tools`/`toolChoice`, `context` for
 *   `includeContext`); `CreateMessageRequest` → `CreateMessageResult`; callback `sampling(params, ctx)`.
 * - `roots/list`: capability `roots`; `ListRootsRequest` → `ListRootsResult`; callback `roots(ctx)`.
 *
 * Read it with {@link inputRequestKind} when the method comes off a wire: the table is a plain object, and a
 * method such as `toString` must not find a row.
 */
export const INPUT_REQUEST_KINDS = Object.freeze({
  'elicitation/create': row({
    method: 'elicitation/create',
    capability: ELICITATION,
    request: 'ElicitRequest',
    result: 'ElicitResult',
    isParams: isElicitParams,
    builders: Object.freeze([elicitRequest, elicitUrlRequest]),
    callback: 'elicitation',
    text: elicitationText,
    legacy: Object.freeze({ request: 'ElicitRequest', result: 'ElicitResult', params: withElicitationId }),
  }),
  'sampling/createMessage': row({
    method: 'sampling/createMessage',
    capability: SAMPLING,
    request: 'CreateMessageRequest',
    result: 'CreateMessageResult',
    isParams: isCreateMessageParams,
    builders: Object.freeze([createMessageRequest]),
    callback: 'sampling',
    text: samplingText,
    legacy: Object.freeze({ request: 'CreateMessageRequest', result: 'CreateMessageResult' }),
  }),
  'roots/list': row({
    method: 'roots/list',
    capability: ROOTS,
    request: 'ListRootsRequest',
    result: 'ListRootsResult',
    isParams: isListRootsParams,
    builders: Object.freeze([listRootsRequest]),
    callback: 'roots',
    text: NO_TEXT,
    legacy: Object.freeze({ request: 'ListRootsRequest', result: 'ListRootsResult' }),
  }),
}) satisfies { readonly [M in InputRequestMethod]: InputRequestKind<M> };

/** The table's type: each row with its method, callback and answer as literal types. */
export type InputRequestKinds = typeof INPUT_REQUEST_KINDS;

/** Any row of the table. */
export type AnyInputRequestKind = InputRequestKinds[InputRequestMethod];

/** The rows, for {@link inputRequestKind}. */
const ROWS: readonly AnyInputRequestKind[] = Object.freeze(Object.values(INPUT_REQUEST_KINDS));

/**
 * The row of an input request's `method`, read off a wire (any value), or `undefined` for any other method. A
 * scan of the few rows: as fast as a `switch` on the method (a `Map` or a keyed property read costs about twice
 * as much on this hot path).
 */
export function inputRequestKind(method: unknown): AnyInputRequestKind | undefined {
  for (let i = 0; i < ROWS.length; i++) {
    const kind = ROWS[i];
    if (kind?.method === method) return kind;
  }
  return undefined;
}
