import type {
  CallToolResult,
  GetPromptResult,
  InputRequiredMethod,
  InputRequiredResult,
  ReadResourceResult,
} from '@boomerang/protocol';
import type { OriginatingRequest } from './errors.js';
import type { InputRequiredCallOptions } from './options.js';
import type { ResultByMethod } from './results.js';

/** Options of a {@link ClientSession} call: those of the automatic methods, plus the opt-in to single rounds. */
export interface SessionCallOptions extends InputRequiredCallOptions {
  /**
   * `true`: send one request and return its result as is, `InputRequiredResult` included (the manual loop).
   * Absent or `false`: run the automatic loop, exactly like the method of the same name on `Client`.
   */
  readonly allowInputRequired?: boolean | undefined;
}

/** What a {@link ClientSession} asks of its client. */
export interface SessionBackend {
  /** Sends one request of an MRTR method and resolves to its validated result, `input_required` included. */
  once<M extends InputRequiredMethod>(
    request: Extract<OriginatingRequest, { readonly method: M }>,
    args: Record<string, unknown> | undefined,
    options: InputRequiredCallOptions | undefined,
  ): Promise<ResultByMethod[M] | InputRequiredResult>;
  /** Runs the automatic loop for an MRTR method. */
  loop<M extends InputRequiredMethod>(
    request: Extract<OriginatingRequest, { readonly method: M }>,
    args: Record<string, unknown> | undefined,
    options: InputRequiredCallOptions | undefined,
  ): Promise<ResultByMethod[M]>;
}

/**
 * The manual MRTR loop, as `client.session`. With `{ allowInputRequired: true }` each call is one request, and an
 * `input_required` answer comes back as the `InputRequiredResult`: plain JSON, so it can be stored
 * (`JSON.stringify`) and the next round sent later, from another process, with
 * `{ allowInputRequired: true, inputResponses, requestState }`. Narrow the union with `isInputRequired` from
 * `@boomerang/protocol`. Answers and state go only where you pass them; echo `requestState` exactly and send
 * `inputResponses` under the keys of `inputRequests`. The round cap does not apply: you drive the rounds.
 */
export class ClientSession {
  readonly #backend: SessionBackend;

  /** Made by `Client`; use `client.session`. */
  constructor(backend: SessionBackend) {
    this.#backend = backend;
  }

  /** `tools/call` once: the `CallToolResult`, or the `InputRequiredResult` to answer and send back. */
  callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    options: SessionCallOptions & { readonly allowInputRequired: true },
  ): Promise<CallToolResult | InputRequiredResult>;
  /** `tools/call` with the automatic loop, as `client.callTool`. */
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: SessionCallOptions & { readonly allowInputRequired?: false },
  ): Promise<CallToolResult>;
  /** `tools/call`, one round or the whole loop depending on `allowInputRequired`. */
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: SessionCallOptions,
  ): Promise<CallToolResult | InputRequiredResult>;
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: SessionCallOptions,
  ): Promise<CallToolResult | InputRequiredResult> {
    return this.#run<'tools/call'>({ method: 'tools/call', name }, args, options);
  }

  /** `prompts/get` once: the `GetPromptResult`, or the `InputRequiredResult` to answer and send back. */
  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    options: SessionCallOptions & { readonly allowInputRequired: true },
  ): Promise<GetPromptResult | InputRequiredResult>;
  /** `prompts/get` with the automatic loop, as `client.getPrompt`. */
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: SessionCallOptions & { readonly allowInputRequired?: false },
  ): Promise<GetPromptResult>;
  /** `prompts/get`, one round or the whole loop depending on `allowInputRequired`. */
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: SessionCallOptions,
  ): Promise<GetPromptResult | InputRequiredResult>;
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: SessionCallOptions,
  ): Promise<GetPromptResult | InputRequiredResult> {
    return this.#run<'prompts/get'>({ method: 'prompts/get', name }, args, options);
  }

  /** `resources/read` once: the `ReadResourceResult`, or the `InputRequiredResult` to answer and send back. */
  readResource(
    uri: string,
    options: SessionCallOptions & { readonly allowInputRequired: true },
  ): Promise<ReadResourceResult | InputRequiredResult>;
  /** `resources/read` with the automatic loop, as `client.readResource`. */
  readResource(
    uri: string,
    options?: SessionCallOptions & { readonly allowInputRequired?: false },
  ): Promise<ReadResourceResult>;
  /** `resources/read`, one round or the whole loop depending on `allowInputRequired`. */
  readResource(uri: string, options?: SessionCallOptions): Promise<ReadResourceResult | InputRequiredResult>;
  readResource(uri: string, options?: SessionCallOptions): Promise<ReadResourceResult | InputRequiredResult> {
    return this.#run<'resources/read'>({ method: 'resources/read', uri }, undefined, options);
  }

  #run<M extends InputRequiredMethod>(
    request: Extract<OriginatingRequest, { readonly method: M }>,
    args: Record<string, unknown> | undefined,
    options: SessionCallOptions | undefined,
  ): Promise<ResultByMethod[M] | InputRequiredResult> {
    return options?.allowInputRequired === true
      ? this.#backend.once(request, args, options)
      : this.#backend.loop(request, args, options);
  }
}
