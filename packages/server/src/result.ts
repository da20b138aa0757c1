import {
  type ClientCapabilities,
  describeIssues,
  hasExtension,
  type Implementation,
  type InputRequests,
  isPlainObject,
  McpError,
  MetaKey,
  type Result,
  type SchemaIssue,
  validate,
} from '@boomerang/protocol';
import { InputRequestsSchema, ResultMetaObjectSchema, safeParse } from '@boomerang/protocol/schemas';
import { describeCapabilities, missingClientCapabilities } from './capabilities.js';
import { wrapCursor } from './cursor.js';
import type { ResultTypeRule } from './custom-methods.js';
import { MAX_INPUT_REQUESTS } from './limits.js';
import type { ResultSpec } from './methods.js';
import type { RequestStateBinding, RequestStateEnvelope } from './sealed.js';
import type { CacheHints } from './types.js';

/** What finishing a result needs to know about the request and the server. */
export interface FinishContext {
  readonly method: string;
  readonly spec: ResultSpec;
  readonly serverInfo: Implementation;
  /** Resolved cache defaults for this method (both members set). */
  readonly cache: Required<CacheHints>;
  readonly clientCapabilities: ClientCapabilities;
  /** The extension result types this method may answer with, by `resultType`. */
  readonly resultTypes: ReadonlyMap<string, ResultTypeRule> | undefined;
  /** Seals outbound state; `undefined` passes state through as written. */
  readonly envelope: RequestStateEnvelope | undefined;
  /** The request the state belongs to (set on the three multi-round-trip methods). */
  readonly binding: RequestStateBinding | undefined;
  /** This request's round (`0` for a first round): sealed beside outbound state. */
  readonly round: number;
  /** What middleware carried to the next round; `undefined` for nothing. */
  readonly carried: Readonly<Record<string, string>> | undefined;
}

const NO_CARRIED: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Turns what a handler returned into the result the server sends (a promise only when a custom envelope seals
 * asynchronously), or throws:
 *
 * - `resultType` defaults to `"complete"`; another value is a programming error unless an extension registered
 *   it for this method: then the request must declare that extension (`McpError` `-32021` naming it) and the
 *   result must pass the extension's schema;
 * - `_meta["io.modelcontextprotocol/serverInfo"]` is added (the handler's other `_meta` keys are kept);
 * - complete results of cacheable methods get `ttlMs`/`cacheScope` unless the handler set them;
 * - a list handler's `nextCursor` is wrapped into the opaque wire cursor;
 * - an `InputRequiredResult` is legal only on multi-round-trip methods, needs `inputRequests` (non
 *   empty, at most `MAX_INPUT_REQUESTS`) or `requestState`, never carries cache hints, its input requests must fit this request's client
 *   capabilities (`McpError` `-32021` otherwise), and its `requestState` is sealed when the server seals;
 * - the final object is validated against the method's result schema.
 *
 * Programming errors throw a plain `Error` whose message is for the server log only (the wire gets `-32603`).
 */
export function finishResult(value: unknown, ctx: FinishContext): Result | Promise<Result> {
  const { method, spec } = ctx;
  if (!isPlainObject(value)) throw new Error(`the ${method} handler returned a non-object result`);
  const meta = isPlainObject(value._meta) ? copyMembers(value._meta) : {};
  meta[MetaKey.serverInfo] ??= ctx.serverInfo;
  if (value.resultType === 'input_required') return finishInputRequired(value, meta, ctx);
  if (value.resultType !== undefined && value.resultType !== 'complete') {
    return finishExtensionResult(value, meta, ctx);
  }
  const result = copyMembers(value);
  result.resultType = 'complete';
  result._meta = meta;
  if (spec.cacheable) {
    result.ttlMs ??= ctx.cache.ttlMs;
    result.cacheScope ??= ctx.cache.cacheScope;
  }
  if (spec.paginated && result.nextCursor !== undefined) {
    if (typeof result.nextCursor !== 'string')
      throw new Error(`the ${method} handler returned a non-string nextCursor`);
    result.nextCursor = wrapCursor(method, result.nextCursor);
  }
  return checked(result, spec.checkResult(result), `the ${method} handler returned an invalid result`);
}

/** `result` once `issues` (maybe a promise of them) came back empty; otherwise the programming error. */
function checked(
  result: Record<string, unknown>,
  issues: readonly SchemaIssue[] | undefined | Promise<readonly SchemaIssue[] | undefined>,
  what: string,
): Result | Promise<Result> {
  const settle = (found: readonly SchemaIssue[] | undefined): Result => {
    if (found !== undefined) throw new Error(`${what}: ${describeIssues(found, 'result')}`);
    return result as Result;
  };
  return issues instanceof Promise ? issues.then(settle) : settle(issues);
}

/** A result of a type an extension registered for this method (see {@link finishResult}). */
function finishExtensionResult(
  value: Record<string, unknown>,
  meta: Record<string, unknown>,
  ctx: FinishContext,
): Result | Promise<Result> {
  const { method } = ctx;
  const type = value.resultType;
  const rule = typeof type === 'string' ? ctx.resultTypes?.get(type) : undefined;
  if (rule === undefined) {
    throw new Error(`the ${method} handler returned an unsupported resultType ${JSON.stringify(type)}`);
  }
  if (!hasExtension(ctx.clientCapabilities, rule.extension)) {
    const missing = { extensions: { [rule.extension]: {} } };
    throw McpError.missingRequiredClientCapability(
      missing,
      `Missing required client capability: extensions["${rule.extension}"]`,
    );
  }
  // No cache hints are added; members the extension defines (the tasks extension's `ttlMs`) are its own.
  const result = copyMembers(value);
  result._meta = meta;
  const outcome = validate(rule.result, result);
  const issues =
    outcome instanceof Promise
      ? outcome.then((o) => (o.ok ? undefined : o.issues))
      : outcome.ok
        ? undefined
        : outcome.issues;
  return checked(result, issues, `the ${method} handler returned an invalid ${String(type)} result`);
}

function finishInputRequired(
  value: Record<string, unknown>,
  meta: Record<string, unknown>,
  ctx: FinishContext,
): Result | Promise<Result> {
  const { method } = ctx;
  if (!ctx.spec.inputRequired) {
    throw new Error(
      `the ${method} handler returned an InputRequiredResult; only tools/call, prompts/get, resources/read and custom methods with inputRequired may`,
    );
  }
  const { inputRequests, requestState } = value;
  const asked = isPlainObject(inputRequests) ? Object.keys(inputRequests).length : 0;
  const asks = asked > 0;
  if (asked > MAX_INPUT_REQUESTS) {
    throw new Error(
      `the ${method} handler asked ${asked} questions in one InputRequiredResult, over ${MAX_INPUT_REQUESTS}: their answers could not come back`,
    );
  }
  if (!asks && requestState === undefined) {
    throw new Error(
      `the ${method} handler returned an InputRequiredResult with neither inputRequests nor requestState`,
    );
  }
  // Cache hints never go out on an InputRequiredResult.
  const result = copyMembers(value);
  if (Object.hasOwn(result, 'ttlMs')) delete result.ttlMs;
  if (Object.hasOwn(result, 'cacheScope')) delete result.cacheScope;
  result.resultType = 'input_required';
  result._meta = meta;
  const issues = inputRequiredIssues(result, isPlainObject(value._meta));
  if (issues !== undefined) {
    throw new Error(
      `the ${method} handler returned an invalid InputRequiredResult: ${describeIssues(issues, 'result')}`,
    );
  }
  if (asks) {
    const missing = missingClientCapabilities(inputRequests as InputRequests, ctx.clientCapabilities);
    if (missing !== undefined) {
      throw McpError.missingRequiredClientCapability(
        missing,
        `Missing required client capability: ${describeCapabilities(missing)}`,
      );
    }
  }
  if (typeof requestState === 'string' && ctx.envelope !== undefined && ctx.binding !== undefined) {
    // Synchronously when the envelope seals synchronously (sealed() does): no extra turn per round.
    const frame = { round: ctx.round, carried: ctx.carried ?? NO_CARRIED };
    const token = ctx.envelope.seal(requestState, ctx.binding, frame);
    if (typeof token !== 'string') {
      return Promise.resolve(token).then((sealedState) => {
        result.requestState = sealedState;
        return result as Result;
      });
    }
    result.requestState = token;
  }
  return result as Result;
}

/**
 * The issues `InputRequiredResultSchema` finds in `result`, or `undefined`, checked member by member so that only
 * what the handler wrote goes through zod: `resultType` is ours, `_meta` is the server's own validated `info`
 * unless the handler wrote `_meta`, and the at-least-one rule was checked by the caller. The result is a loose
 * object, so other members are not checked, as with the schema.
 */
function inputRequiredIssues(
  result: Record<string, unknown>,
  handlerMeta: boolean,
): readonly SchemaIssue[] | undefined {
  const { inputRequests, requestState, _meta } = result;
  if (requestState !== undefined && typeof requestState !== 'string') {
    const message = `Invalid input: expected string, received ${typeof requestState}`;
    return [{ path: ['requestState'], message }];
  }
  if (handlerMeta) {
    const check = ResultMetaObjectSchema.safeParse(_meta);
    if (!check.success) return within('_meta', check.error.issues);
  }
  if (inputRequests !== undefined) {
    const check = safeParse(InputRequestsSchema, inputRequests);
    if (!check.success) return within('inputRequests', check.error.issues);
  }
  return undefined;
}

function within(member: string, issues: readonly SchemaIssue[]): SchemaIssue[] {
  return issues.map((issue) => ({ ...issue, path: [member, ...issue.path] }));
}

/**
 * A shallow copy of `value`'s own enumerable string-keyed members, as a spread makes it (an own `"__proto__"`
 * member stays a member; symbol members, which JSON never sends, are left out). For copies that then get new
 * members: on Node 20's V8, adding members to a spread copy is several times slower than to this one.
 */
export function copyMembers(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = value[key];
    if (key === '__proto__') {
      Object.defineProperty(out, key, {
        value: member,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[key] = member;
  }
  return out;
}
