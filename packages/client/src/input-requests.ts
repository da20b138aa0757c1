import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  InputRequest,
  InputRequests,
  InputResponse,
  InputResponses,
  ListRootsResult,
} from '@boomerang/protocol';
import { type AnyInputRequestKind, INPUT_REQUEST_KINDS, parseLazily } from '@boomerang/protocol/internal';
import { uncoveredInputRequest } from './capabilities.js';
import { callbackFailed, type OriginatingRequest, unsupportedInputRequest } from './errors.js';
import { raceSignal } from './signals.js';

/**
 * What a callback learns about the input request it answers, besides its params: which call asked (method and
 * tool/prompt name or resource URI, so a host can show the user what the question is for; any other method
 * alone), the `inputRequests`
 * key, the round (1 for the first `input_required` of the call), the server's self-reported identity when the
 * result carried one, and a `signal` that aborts when the call is cancelled or times out, or when another
 * callback of the same round fails.
 */
export type InputRequestContext = OriginatingRequest & {
  /** Aborts when the answer is no longer wanted; long-running callbacks (a form on screen) should close. */
  readonly signal: AbortSignal;
  /** The server-assigned `inputRequests` key this callback answers. */
  readonly key: string;
  /** Which `input_required` result of the call this is: 1, 2, … (at most `inputRequiredMaxRounds`). */
  readonly round: number;
  /** `_meta["io.modelcontextprotocol/serverInfo"]` of the `InputRequiredResult`: self-reported, for display. */
  readonly serverInfo?: Implementation;
  /**
   * The task that asks, when the question comes from a task of the tasks extension (its `tasks/get` or
   * `notifications/tasks`); the answer then goes back with `tasks/update`.
   */
  readonly taskId?: string;
};

/**
 * What an elicitation callback returns: an `ElicitResult`, whose `content` entries may also be `undefined` (they
 * are dropped before the answer is checked and sent), so that `ask ? { region: 'eu' } : { ok: true }` type-checks.
 */
export type ElicitAnswer =
  | ElicitResult
  | {
      readonly action: ElicitResult['action'];
      readonly content?:
        | { readonly [field: string]: NonNullable<ElicitResult['content']>[string] | undefined }
        | undefined;
      readonly [key: string]: unknown;
    };

/** Answers `elicitation/create` (form or URL mode) with `{ action: 'accept' | 'decline' | 'cancel', content? }`. */
export type ElicitationCallback = (
  params: ElicitRequestParams,
  ctx: InputRequestContext,
) => ElicitAnswer | Promise<ElicitAnswer>;

/** Answers `sampling/createMessage` with the model's message. Keep a human in the loop (spec). */
export type SamplingCallback = (
  params: CreateMessageRequestParams,
  ctx: InputRequestContext,
) => CreateMessageResult | Promise<CreateMessageResult>;

/** Answers `roots/list` with `{ roots }` (`file://` URIs). */
export type RootsCallback = (ctx: InputRequestContext) => ListRootsResult | Promise<ListRootsResult>;

/** The callbacks that answer input requests; registering one declares its capability. */
export interface InputCallbacks {
  readonly elicitation?: ElicitationCallback | undefined;
  readonly sampling?: SamplingCallback | undefined;
  readonly roots?: RootsCallback | undefined;
}

/** One round of one call, as {@link answerInputRequests} needs it. */
export interface RoundContext {
  readonly request: OriginatingRequest;
  readonly round: number;
  /** The call's signal (caller abort and timeout); `undefined` when nothing can abort the call. */
  readonly signal: AbortSignal | undefined;
  readonly serverInfo: Implementation | undefined;
  /** What this client declared in the request that got the `input_required` answer. */
  readonly capabilities: ClientCapabilities;
  /** The task that asks, for questions of a task (tasks extension). */
  readonly taskId?: string | undefined;
}

/**
 * Answers every entry of `requests` with its callback, all at once, and resolves to the `inputResponses` under the
 * same keys. Each request is first checked against the capabilities this client declared (a server asking for
 * more gets an `unsupported-input-request` `ClientError`, never a guess). The first failure rejects the round and aborts
 * the other callbacks' signal; an abort of the call rejects at once with its reason, even if a callback ignores
 * its signal.
 */
export async function answerInputRequests(
  requests: InputRequests,
  callbacks: InputCallbacks,
  round: RoundContext,
): Promise<InputResponses> {
  const scope = new RoundScope(round.signal);
  try {
    const keys = Object.keys(requests);
    const answers = keys.map((key) => answerOne(key, requests[key] as InputRequest, callbacks, round, scope));
    const values = await raceSignal(Promise.all(answers), round.signal);
    const responses: InputResponses = {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      // As Object.fromEntries does: an own "__proto__" key stays a key.
      if (key === '__proto__') {
        const member = { value: values[i], enumerable: true, writable: true, configurable: true };
        Object.defineProperty(responses, key, member);
      } else responses[key] = values[i] as InputResponse;
    }
    return responses;
  } catch (error) {
    scope.abort(error);
    throw error;
  } finally {
    scope.unlink();
  }
}

/**
 * How many input requests a raw result asks at once: the members of `inputRequests` of an `input_required`
 * result, before any validation; 0 for any other result.
 */
export function inputRequestCount(raw: unknown): number {
  if (typeof raw !== 'object' || raw === null) return 0;
  const { resultType, inputRequests } = raw as { resultType?: unknown; inputRequests?: unknown };
  if (resultType !== 'input_required' || typeof inputRequests !== 'object' || inputRequests === null)
    return 0;
  return Object.keys(inputRequests).length;
}

/**
 * The signal the callbacks of one round share, made on first read: most callbacks never look at it, and an
 * `AbortController` (with a listener on the call's signal) per round is measurable on the hot path. Read after
 * the round failed, it is already aborted with the failure.
 */
class RoundScope {
  #controller: AbortController | undefined;
  #failure: { reason: unknown } | undefined;
  #unlinked = false;
  readonly #call: AbortSignal | undefined;
  #onAbort: (() => void) | undefined;

  constructor(call: AbortSignal | undefined) {
    this.#call = call;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = new AbortController();
      this.#controller = controller;
      const call = this.#call;
      if (this.#failure !== undefined) controller.abort(this.#failure.reason);
      else if (call?.aborted) controller.abort(call.reason);
      else if (!this.#unlinked && call !== undefined) {
        this.#onAbort = () => this.abort(call.reason);
        call.addEventListener('abort', this.#onAbort, { once: true });
      }
    }
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    this.#failure ??= { reason };
    this.#controller?.abort(reason);
  }

  /** The round settled: the call's signal no longer reaches the callbacks. */
  unlink(): void {
    this.#unlinked = true;
    if (this.#onAbort !== undefined) this.#call?.removeEventListener('abort', this.#onAbort);
  }
}

async function answerOne(
  key: string,
  request: InputRequest,
  callbacks: InputCallbacks,
  round: RoundContext,
  scope: RoundScope,
): Promise<InputResponse> {
  const problem = uncoveredInputRequest(request, round.capabilities);
  if (problem !== undefined) throw unsupportedInputRequest(round.request, key, request.method, problem);
  const kind = INPUT_REQUEST_KINDS[request.method];
  const name = kind.callback;
  const callback = callbacks[name];
  if (callback === undefined) {
    // Declared through `ClientOptions.capabilities` (a manual-loop host) but not answerable by this loop.
    const problem = `this client declared it but has no ${name} callback (answer it through client.start() / client.resume())`;
    throw unsupportedInputRequest(round.request, key, request.method, problem);
  }
  const ctx = inputRequestContext(key, round, scope);
  let value: unknown;
  try {
    value = await callWith(name, callback, request.params, ctx);
  } catch (cause) {
    throw callbackFailed(round.request, key, request.method, `The ${name} callback threw`, cause);
  }
  const { tidy } = CALLBACKS[name];
  if (tidy !== undefined) value = tidy(value);
  // The hand-written check vouches for a plain answer at once; anything else waits for zod, loaded on demand.
  const checked = parseLazily(kind.result, value);
  const parsed = checked instanceof Promise ? await checked : checked;
  if (parsed.success) return parsed.data;
  throw callbackFailed(
    round.request,
    key,
    request.method,
    `The ${name} callback returned an invalid answer`,
    parsed.error,
  );
}

/**
 * `{ ...round.request, signal, key, round, serverInfo? }`, written as literals: on Node 20's V8, adding members to
 * a spread copy costs several times more, and this runs for every input request.
 */
function inputRequestContext(key: string, round: RoundContext, scope: RoundScope): InputRequestContext {
  const { request } = round;
  const ctx: Record<string, unknown> =
    request.uri !== undefined
      ? {
          method: request.method,
          uri: request.uri,
          get signal() {
            return scope.signal;
          },
          key,
          round: round.round,
        }
      : request.name !== undefined
        ? {
            method: request.method,
            name: request.name,
            get signal() {
              return scope.signal;
            },
            key,
            round: round.round,
          }
        : {
            method: request.method,
            get signal() {
              return scope.signal;
            },
            key,
            round: round.round,
          };
  if (round.serverInfo !== undefined) ctx.serverInfo = round.serverInfo;
  if (round.taskId !== undefined) ctx.taskId = round.taskId;
  return ctx as InputRequestContext;
}

/** An elicitation answer whose `content` has no `undefined` entry (an `ElicitAnswer` may carry some). */
function withoutUndefinedFields(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const { content } = value as { content?: unknown };
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return value;
  const entries = Object.entries(content);
  if (entries.every(([, field]) => field !== undefined)) return value;
  return { ...value, content: Object.fromEntries(entries.filter(([, field]) => field !== undefined)) };
}

/** The name of a callback that answers a kind of input request: `elicitation`, `sampling`, `roots`. */
type CallbackName = AnyInputRequestKind['callback'];

/** The params of the input requests that the callback `C` answers. */
type ParamsOf<C extends CallbackName> = Extract<
  InputRequest,
  { method: Extract<AnyInputRequestKind, { callback: C }>['method'] }
>['params'];

/** How the loop calls one callback, and what it does to the answer before checking it. */
interface CallbackUse<C extends CallbackName> {
  invoke(callback: NonNullable<InputCallbacks[C]>, params: ParamsOf<C>, ctx: InputRequestContext): unknown;
  /** The answer as it is checked and sent. */
  tidy?(answer: unknown): unknown;
}

/**
 * Each callback of {@link InputCallbacks}, by the name a kind's row of the protocol's table gives it: `roots` gets
 * no params (`roots/list` carries none but `_meta`), and an elicitation answer drops its `undefined` content
 * fields (an {@link ElicitAnswer} may carry some).
 */
const CALLBACKS: { readonly [C in CallbackName]: CallbackUse<C> } = {
  elicitation: {
    invoke: (elicitation, params, ctx) => elicitation(params, ctx),
    tidy: withoutUndefinedFields,
  },
  sampling: { invoke: (sampling, params, ctx) => sampling(params, ctx) },
  roots: { invoke: (roots, _params, ctx) => roots(ctx) },
};

/** Calls the callback `name` with the params of the request it answers. */
function callWith<C extends CallbackName>(
  name: C,
  callback: NonNullable<InputCallbacks[C]>,
  params: ParamsOf<C>,
  ctx: InputRequestContext,
): unknown {
  return CALLBACKS[name].invoke(callback, params, ctx);
}
