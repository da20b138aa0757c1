// The former manual loop, kept only as a thin layer over the client's one call path until its last users (tests
// outside this package) move to `client.start()` / `client.resume()`. Not exported; to be deleted.
import type {
  CallToolResult,
  GetPromptResult,
  InputRequiredResult,
  InputResponses,
  ReadResourceResult,
} from '@boomerang/protocol';
import { type Call, promptCall, resourceCall, toolCall } from './calls.js';
import { type RoundInputs, roundInputs } from './mrtr-loop.js';
import type { CallOptions } from './options.js';

/** @deprecated Options of a `client.session` call; use `client.start()` / `client.resume()`. */
export interface SessionCallOptions extends CallOptions {
  /** `true`: send one request and return its result as is, `InputRequiredResult` included. */
  readonly allowInputRequired?: boolean | undefined;
  /** Answers to send with the first request. */
  readonly inputResponses?: InputResponses | undefined;
  /** The state to echo with the first request. */
  readonly requestState?: string | undefined;
}

/** How a session runs a call: one request (`once`), or the automatic loop from `inputs`. */
export type SessionRun = (
  call: Call<unknown>,
  inputs: RoundInputs,
  options: CallOptions | undefined,
  once: boolean,
) => Promise<unknown>;

/**
 * @deprecated The manual loop is `client.start()` and `client.resume()` (a continuation). With
 * `{ allowInputRequired: true }` each call is one request and returns the `InputRequiredResult` as is.
 */
export class ClientSession {
  readonly #run: SessionRun;

  /** Made by `Client`. */
  constructor(run: SessionRun) {
    this.#run = run;
  }

  /** @deprecated Use `client.start('tools/call', { name, arguments })` / `client.resume()`. */
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: SessionCallOptions,
  ): Promise<CallToolResult | InputRequiredResult> {
    return this.#send(toolCall(name, args), options) as Promise<CallToolResult | InputRequiredResult>;
  }

  /** @deprecated Use `client.start('prompts/get', { name, arguments })` / `client.resume()`. */
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: SessionCallOptions,
  ): Promise<GetPromptResult | InputRequiredResult> {
    return this.#send(promptCall(name, args), options) as Promise<GetPromptResult | InputRequiredResult>;
  }

  /** @deprecated Use `client.start('resources/read', { uri })` / `client.resume()`. */
  readResource(uri: string, options?: SessionCallOptions): Promise<ReadResourceResult | InputRequiredResult> {
    return this.#send(resourceCall(uri), options) as Promise<ReadResourceResult | InputRequiredResult>;
  }

  #send(call: Call<unknown>, options: SessionCallOptions = {}): Promise<unknown> {
    const inputs = roundInputs(options.inputResponses, options.requestState);
    return this.#run(call, inputs, options, options.allowInputRequired === true);
  }
}
