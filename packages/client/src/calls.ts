// What each call sends and how it reads the answer. Every method of the client, built-in or not, is one `Call`
// run by the same loop. The params objects are built fresh per request, as literals where the method is known (on
// Node 20's V8, adding members to a spread copy costs several times more, and the MRTR methods run every round).
import {
  argumentError,
  type CallToolResult,
  type GetPromptResult,
  type InputRequiredMethod,
  type InputRequiredResult,
  isStandardSchemaV1,
  type ReadResourceResult,
  type StandardSchemaV1,
} from '@boomerang/protocol';
import type { OriginatingRequest } from './errors.js';
import type { RoundInputs } from './mrtr-loop.js';
import { type ClientMethod, parseResult, type ResultByMethod, readResult } from './results.js';

/** One call: what each of its requests carries, and how its answer is read. */
export interface Call<R> {
  readonly method: string;
  /** How errors and callbacks name the call. */
  readonly origin: OriginatingRequest;
  /** The original params, as a continuation keeps them (no `_meta`, no round inputs). */
  readonly params: Readonly<Record<string, unknown>>;
  /** The params of one request, a fresh object of that request's own: the original params and the round's inputs. */
  paramsOf(inputs: RoundInputs): Record<string, unknown>;
  /** Reads a raw result: the complete result, or an `InputRequiredResult` where the method may ask. */
  read(raw: unknown): R | InputRequiredResult | Promise<R | InputRequiredResult>;
  /**
   * What the complete result must also pass, once read (a tool's `outputSchema`): rejects with the `ClientError`
   * saying why. `undefined` (or absent) when there is nothing more to check.
   */
  finish?(result: R): Promise<void> | undefined;
}

/**
 * Checks a complete `tools/call` result beyond its schema: the tool's `outputSchema` from the last `tools/list`
 * (option `validateToolOutput`; see output-schemas.ts).
 */
export type ToolResultCheck = (name: string, result: CallToolResult) => Promise<void>;

/** The params of the spec's three MRTR methods, as `start()` takes them and a continuation keeps them. */
export interface InputRequiredParams {
  'tools/call': { readonly name: string; readonly arguments?: Record<string, unknown> | undefined };
  'prompts/get': { readonly name: string; readonly arguments?: Record<string, string> | undefined };
  'resources/read': { readonly uri: string };
}

/** `tools/call`: `{ name, arguments? }`; its complete result then passes `check`, when given. */
export function toolCall(
  name: string,
  args: Record<string, unknown> | undefined,
  check?: ToolResultCheck,
): Call<CallToolResult> {
  return check === undefined
    ? new NamedCall('tools/call', name, args)
    : new CheckedToolCall(name, args, check);
}

/** `prompts/get`: `{ name, arguments? }` (prompt arguments are strings on the wire). */
export function promptCall(name: string, args: Record<string, string> | undefined): Call<GetPromptResult> {
  return new NamedCall('prompts/get', name, args);
}

/** A call of a tool or a prompt: `{ name, arguments? }`. Classes, not closures: one of these is made per call. */
class NamedCall<M extends 'tools/call' | 'prompts/get'> implements Call<ResultByMethod[M]> {
  readonly method: M;
  readonly origin: OriginatingRequest;
  readonly params: Readonly<Record<string, unknown>>;
  readonly #name: string;
  readonly #args: Record<string, unknown> | undefined;

  constructor(method: M, name: string, args: Record<string, unknown> | undefined) {
    this.method = method;
    this.origin = { method, name } as OriginatingRequest;
    this.params = args === undefined ? { name } : { name, arguments: args };
    this.#name = name;
    this.#args = args;
  }

  paramsOf(inputs: RoundInputs): Record<string, unknown> {
    const name = this.#name;
    const args = this.#args;
    return withInputs(args === undefined ? { name } : { name, arguments: args }, inputs);
  }

  read(
    raw: unknown,
  ): ResultByMethod[M] | InputRequiredResult | Promise<ResultByMethod[M] | InputRequiredResult> {
    return parseResult(this.method, raw) as
      | ResultByMethod[M]
      | InputRequiredResult
      | Promise<ResultByMethod[M] | InputRequiredResult>;
  }
}

/** A tool call whose complete result also passes a {@link ToolResultCheck}. */
class CheckedToolCall extends NamedCall<'tools/call'> {
  readonly #tool: string;
  readonly #check: ToolResultCheck;

  constructor(name: string, args: Record<string, unknown> | undefined, check: ToolResultCheck) {
    super('tools/call', name, args);
    this.#tool = name;
    this.#check = check;
  }

  finish(result: CallToolResult): Promise<void> {
    return this.#check(this.#tool, result);
  }
}

/** `resources/read`: `{ uri }`. */
export function resourceCall(uri: string): Call<ReadResourceResult> {
  return new ResourceCall(uri);
}

class ResourceCall implements Call<ReadResourceResult> {
  readonly method = 'resources/read';
  readonly origin: OriginatingRequest;
  readonly params: Readonly<Record<string, unknown>>;
  readonly #uri: string;

  constructor(uri: string) {
    this.origin = { method: 'resources/read', uri };
    this.params = { uri };
    this.#uri = uri;
  }

  paramsOf(inputs: RoundInputs): Record<string, unknown> {
    return withInputs({ uri: this.#uri }, inputs);
  }

  read(
    raw: unknown,
  ): ReadResourceResult | InputRequiredResult | Promise<ReadResourceResult | InputRequiredResult> {
    return parseResult('resources/read', raw);
  }
}

/**
 * A spec method that never asks (lists, `server/discover`, `completion/complete`): `params` without its
 * `undefined` members, so that every transport sends the same JSON.
 */
export function specCall<M extends Exclude<ClientMethod, InputRequiredMethod>>(
  method: M,
  params: object,
): Call<ResultByMethod[M]> {
  const defined = withoutUndefined(params);
  return {
    method,
    origin: { method },
    params: defined,
    paramsOf: () => withoutUndefined(defined),
    read: (raw) => parseResult(method, raw) as ResultByMethod[M] | Promise<ResultByMethod[M]>,
  };
}

/** Any method, its complete result validated by `schema` (`client.request()`). */
export function schemaCall<S extends StandardSchemaV1>(
  method: string,
  params: Readonly<Record<string, unknown>>,
  schema: S,
): Call<StandardSchemaV1.InferOutput<S>> {
  if (!isStandardSchemaV1(schema)) {
    throw argumentError('result', `a Standard Schema for the result of ${method}`, schema);
  }
  return {
    method,
    origin: originOf(method, params),
    params,
    paramsOf: (inputs) => withInputs({ ...params }, inputs),
    read: (raw) => readResult(method, raw, schema),
  };
}

/**
 * The call of `method(params)`: validated by `schema` when given, else by the protocol schema of a spec MRTR
 * method. Throws `TypeError` for a method outside the spec without a schema (nothing says what its result is).
 */
export function callOf<R>(
  method: string,
  params: Readonly<Record<string, unknown>>,
  schema: StandardSchemaV1 | undefined,
  check?: ToolResultCheck,
): Call<R> {
  if (schema !== undefined) return schemaCall(method, params, schema) as Call<R>;
  switch (method) {
    case 'tools/call':
      return toolCall(
        params.name as string,
        params.arguments as Record<string, unknown> | undefined,
        check,
      ) as Call<R>;
    case 'prompts/get':
      return promptCall(
        params.name as string,
        params.arguments as Record<string, string> | undefined,
      ) as Call<R>;
    case 'resources/read':
      return resourceCall(params.uri as string) as Call<R>;
    default:
      throw argumentError('result', `a Standard Schema for the result of ${method}`, schema);
  }
}

/** How errors and callbacks name a call of `method(params)`. */
function originOf(method: string, params: Readonly<Record<string, unknown>>): OriginatingRequest {
  if ((method === 'tools/call' || method === 'prompts/get') && typeof params.name === 'string') {
    return { method, name: params.name };
  }
  if (method === 'resources/read' && typeof params.uri === 'string') return { method, uri: params.uri };
  return { method };
}

/** `params` (a fresh object) with this round's inputs added. */
function withInputs(params: Record<string, unknown>, inputs: RoundInputs): Record<string, unknown> {
  if (inputs.inputResponses !== undefined) params.inputResponses = inputs.inputResponses;
  if (inputs.requestState !== undefined) params.requestState = inputs.requestState;
  return params;
}

/** A copy of `params` without its `undefined` members. */
function withoutUndefined(params: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));
}

/**
 * `call`, counting its requests in `counter.requests`: `readResource` caches a result only when its first request
 * answered it (a result reached through rounds depends on the answers).
 */
export function countingCall<R>(call: Call<R>, counter: { requests: number }): Call<R> {
  return {
    method: call.method,
    origin: call.origin,
    params: call.params,
    paramsOf: (inputs) => {
      counter.requests++;
      return call.paramsOf(inputs);
    },
    read: (raw) => call.read(raw),
  };
}
