// Questions: what a resolver returns when only the client can supply its value. Each renders to one input
// request and knows how to read (validate) the client's answer to it.
import {
  argumentError,
  type CreateMessageRequestParams,
  createMessageRequest,
  elicitRequest,
  elicitUrlRequest,
  type InputRequest,
  listRootsRequest,
  validate,
} from '@boomerang/protocol';
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
  safeParse,
} from '@boomerang/protocol/schemas';
import type { FormSchema, FormValues } from '../schema-types.js';
import type { RefusalAction } from './errors.js';
import { formOf } from './form-schema.js';
import { questionDigest } from './state.js';
import type {
  ElicitOutcome,
  ElicitUrlOutcome,
  ListRootsAnswer,
  Question,
  QuestionKind,
  SampleAnswer,
} from './types.js';

/**
 * How an answer reads: a value (and what to record in the state for later rounds), a refusal the consumer did
 * not ask to see, or a problem phrased to follow "Resolver for 'x' received ".
 */
export type AnswerRead =
  | { ok: true; value: unknown; record: unknown }
  | { ok: true; refused: RefusalAction; record: unknown }
  | { ok: false; problem: string };

/** The run-time side of a {@link Question}. */
export interface QuestionImpl {
  readonly kind: QuestionKind;
  /** The input request sent to the client, exactly as rendered this round. */
  readonly request: InputRequest;
  /** {@link questionDigest} of `request` (memoised where the rendering allows it). */
  digest(): string;
  /**
   * Reads a fresh answer, or a recorded one (the `record` of an earlier read). Never throws; synchronous unless
   * the schema validates asynchronously.
   */
  read(answer: unknown): AnswerRead | Promise<AnswerRead>;
}

/**
 * The handle a question builder returns: frozen, opaque, and unforgeable (the implementation sits in a private
 * field, which only this module can read). A private field instead of a WeakMap entry: a question is built on
 * every round, and short-lived WeakMap keys cost the garbage collector.
 */
class QuestionHandle {
  readonly #impl: QuestionImpl;
  readonly kind: QuestionKind;

  constructor(impl: QuestionImpl) {
    this.#impl = impl;
    this.kind = impl.kind;
    Object.freeze(this);
  }

  get [Symbol.toStringTag](): string {
    return 'Question';
  }

  static implOf(value: object): QuestionImpl | undefined {
    return #impl in value ? (value as QuestionHandle).#impl : undefined;
  }
}

/**
 * Form questions by form (`Form.questions`: cached per schema object, so stable), refusal handling and message: a
 * form asked again is the same immutable question, so building it is a lookup instead of rendering the request,
 * closures and a handle, and its digest is computed once instead of canonical JSON plus SHA-256 every round.
 * Bounded, so messages built from arguments cannot grow it without limit.
 */
const FORM_QUESTIONS_PER_SCHEMA = 512;

/** Memoises `questionDigest(request)` for one question. */
function digestOnce(request: InputRequest): () => string {
  let digest: string | undefined;
  return () => {
    digest ??= questionDigest(request);
    return digest;
  };
}

let rootsDigest: string | undefined;

/** The run-time question behind a value a resolver returned, or undefined for any other value. */
export function questionOf(value: unknown): QuestionImpl | undefined {
  return typeof value === 'object' && value !== null ? QuestionHandle.implOf(value) : undefined;
}

function question<T>(impl: QuestionImpl): Question<T> {
  return new QuestionHandle(impl) as unknown as Question<T>;
}

function checkMessage(message: unknown, where: string): asserts message is string {
  if (typeof message !== 'string') throw argumentError(`${where} message`, 'string', message);
}

const WRONG_ELICIT = 'a non-elicitation response';

/** Options of {@link elicit} and {@link elicitResult}. */
export interface ElicitOptions {
  /**
   * `_meta` of the `elicitation/create` request: part of the rendered question (so of the digest its answer is
   * bound to), for an extension that annotates the form, e.g. `{ ui: { resourceUri } }` for a form an MCP App
   * may render (`elicitApp` of `@boomerang/apps`). A client that does not know a key ignores it and shows the
   * form. Copied when the question is built; such questions are not cached, so build them from constants.
   */
  readonly _meta?: Readonly<Record<string, unknown>> | undefined;
}

/** The `_meta` of {@link ElicitOptions}, copied (JSON only), or undefined without one. */
function metaOf(options: unknown, where: string): Record<string, unknown> | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw argumentError(`${where} options`, '{ _meta? }', options);
  const meta: unknown = (options as ElicitOptions)._meta;
  if (meta === undefined) return undefined;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta))
    throw argumentError(`${where} options._meta`, 'plain object', meta);
  return JSON.parse(JSON.stringify(meta)) as Record<string, unknown>;
}

/** Form elicitation: accepted content must match `schema`; `outcome` hands refusals to the consumer. */
function formQuestion<T>(
  message: unknown,
  schema: unknown,
  outcome: boolean,
  where: string,
  options?: unknown,
): Question<T> {
  checkMessage(message, where);
  const form = formOf(schema, where);
  const meta = metaOf(options, where);
  if (meta !== undefined) return buildFormQuestion(message, form, outcome, meta) as Question<T>;
  const byMessage = form.questions[outcome ? 1 : 0];
  let built = byMessage.get(message);
  if (built === undefined) {
    built = buildFormQuestion(message, form, outcome);
    if (byMessage.size >= FORM_QUESTIONS_PER_SCHEMA) byMessage.clear();
    byMessage.set(message, built);
  }
  return built as Question<T>;
}

function buildFormQuestion(
  message: string,
  form: ReturnType<typeof formOf>,
  outcome: boolean,
  meta?: Record<string, unknown>,
): Question<unknown> {
  const { requestedSchema, validator } = form;
  // Shared by every round that asks it: frozen (the schema already is), so nothing downstream can edit it.
  const request = elicitRequest(
    meta === undefined ? { message, requestedSchema } : { message, requestedSchema, _meta: meta },
  );
  Object.freeze(request.params);
  Object.freeze(request);
  return question({
    kind: 'elicit',
    request,
    digest: digestOnce(request),
    read(answer) {
      const parsed = safeParse(ElicitResultSchema, answer);
      if (!parsed.success) return { ok: false, problem: WRONG_ELICIT };
      const { action, content } = parsed.data;
      if (action !== 'accept') {
        return outcome
          ? { ok: true, value: { action }, record: { action } }
          : { ok: true, refused: action, record: { action } };
      }
      if (content === undefined) return { ok: false, problem: 'an accepted elicitation with no content' };
      const checked = validate(validator, content);
      const accepted = (result: Awaited<typeof checked>): AnswerRead => {
        if (!result.ok) {
          return {
            ok: false,
            problem: 'an accepted elicitation whose content does not match the requested schema',
          };
        }
        const value = outcome ? { action, content: result.value } : result.value;
        return { ok: true, value, record: { action, content } };
      };
      return checked instanceof Promise ? checked.then(accepted) : accepted(checked);
    },
  });
}

/** URL elicitation: `accept` only says the user agreed to open the URL; it carries no content. */
function urlQuestion<T>(message: unknown, url: unknown, outcome: boolean, where: string): Question<T> {
  checkMessage(message, where);
  if (typeof url !== 'string' && !(url instanceof URL))
    throw argumentError(`${where} url`, 'URL or string', url);
  const request = elicitUrlRequest({ message, url: String(url) });
  return question({
    kind: 'elicitUrl',
    request,
    digest: digestOnce(request),
    read(answer) {
      const parsed = safeParse(ElicitResultSchema, answer);
      if (!parsed.success) return { ok: false, problem: WRONG_ELICIT };
      const { action } = parsed.data;
      if (action !== 'accept' && !outcome) return { ok: true, refused: action, record: { action } };
      return { ok: true, value: { action }, record: { action } };
    },
  });
}

/** A question whose answer is a protocol result, validated with `schema`. */
function resultQuestion<T>(
  kind: QuestionKind,
  request: InputRequest,
  schema: { safeParse(value: unknown): { success: true; data: unknown } | { success: false } },
  expected: string,
  digest: () => string = digestOnce(request),
) {
  return question<T>({
    kind,
    request,
    digest,
    read(answer) {
      const parsed = schema.safeParse(answer);
      if (!parsed.success)
        return { ok: false, problem: `a response of the wrong kind (expected ${expected})` };
      return { ok: true, value: parsed.data, record: parsed.data };
    },
  });
}

/**
 * Asks the user to fill a form (form-mode `elicitation/create`). The resolver's value becomes the accepted
 * content, validated by `schema` (its output: a zod `z.output`, a valibot `InferOutput`, …); a declined or
 * cancelled form fails the call with a `ResolutionError` (use {@link elicitResult} to receive the refusal
 * instead).
 *
 * `schema` is any Standard Schema of an object (zod 4, valibot, arktype…: converted to JSON Schema by its own
 * library, as tool schemas are) or a raw JSON Schema object, and must be flat: strings, numbers, booleans, enums
 * and multi-select enums (the elicitation subset every client can render). It is published as JSON Schema
 * 2020-12 (input side) trimmed to that subset; the answer is validated with the whole schema. Forms must not
 * ask for secrets: use {@link elicitUrl}. The rendered question (message and schema) is what an answer is bound
 * to: keep it deterministic (no timestamps), or every round asks again. Build `schema` once, at module scope:
 * the published form and the question's digest are cached per schema object, while a schema built per call is
 * converted, digested and compiled on every round.
 *
 * `options._meta` annotates the request (see {@link ElicitOptions}).
 *
 * @throws TypeError when `message` is not a string, or `schema` is no schema, has no JSON Schema converter, or
 * is outside the elicitation subset, or `options._meta` is not a plain object.
 */
export function elicit<const S extends FormSchema>(
  message: string,
  schema: S,
  options?: ElicitOptions,
): Question<FormValues<S>> {
  return formQuestion(message, schema, false, 'elicit()', options);
}

/**
 * Like {@link elicit}, but the consumer receives the whole outcome, `{ action: 'accept', content } |
 * { action: 'decline' } | { action: 'cancel' }`, and a refusal does not fail the call.
 *
 * @throws TypeError when `message` is not a string or `schema` is outside the elicitation subset.
 */
export function elicitResult<const S extends FormSchema>(
  message: string,
  schema: S,
  options?: ElicitOptions,
): Question<ElicitOutcome<FormValues<S>>> {
  return formQuestion(message, schema, true, 'elicitResult()', options);
}

/**
 * Asks the user to complete an interaction at `url`, out of band (URL-mode `elicitation/create`: sign-ins,
 * payments, anything the client must not see). The value is `{ action: 'accept' }`: the user agreed to open
 * the URL; whether they finished is for the server to know (e.g. its OAuth callback stored a token). Needs the
 * client's `elicitation.url` capability. A refusal fails the call (use {@link elicitUrlResult} to receive it).
 *
 * @throws TypeError when `message` is not a string or `url` not an absolute URL.
 */
export function elicitUrl(message: string, url: string | URL): Question<{ action: 'accept' }> {
  return urlQuestion(message, url, false, 'elicitUrl()');
}

/**
 * Like {@link elicitUrl}, but the consumer receives `{ action: 'accept' | 'decline' | 'cancel' }` and a refusal
 * does not fail the call.
 *
 * @throws TypeError when `message` is not a string or `url` not an absolute URL.
 */
export function elicitUrlResult(message: string, url: string | URL): Question<ElicitUrlOutcome> {
  return urlQuestion(message, url, true, 'elicitUrlResult()');
}

/**
 * Asks the client to sample its LLM (`sampling/createMessage`); the value is the client's
 * `CreateMessageResult`, validated. `tools`/`toolChoice` need the client's `sampling.tools` capability (checked
 * by the server when the question goes out). Sampling is deprecated in 2026-07-28 but fully specified. A
 * completion is recorded in the request state and rides every later round: mind the state cap.
 *
 * @throws TypeError when `messages` is not an array or `maxTokens` not an integer.
 */
export function sample(params: CreateMessageRequestParams): Question<SampleAnswer> {
  return resultQuestion(
    'sample',
    createMessageRequest(params),
    CreateMessageResultSchema,
    'a sampling result',
  );
}

/**
 * Asks the client for its roots (`roots/list`); the value is the client's `{ roots }`, validated. Roots are
 * deprecated in 2026-07-28: prefer tool arguments or configuration.
 */
export function listRoots(): Question<ListRootsAnswer> {
  const request = listRootsRequest();
  return resultQuestion('listRoots', request, ListRootsResultSchema, 'a roots list', () => {
    rootsDigest ??= questionDigest(request);
    return rootsDigest;
  });
}
