import type { InputRequiredMethod, InputRequiredResult, RequestId } from '@boomerang/protocol';

/**
 * The request a call started with, as errors and callbacks name it: the method plus the tool or prompt name, or
 * the resource URI.
 */
export type OriginatingRequest =
  | { readonly method: 'tools/call'; readonly name: string }
  | { readonly method: 'prompts/get'; readonly name: string }
  | { readonly method: 'resources/read'; readonly uri: string };

/** `tools/call "provision"`, `resources/read "file:///a"`, or the bare method: how messages name a request. */
export function describeRequest(request: OriginatingRequest | { readonly method: string }): string {
  if ('name' in request) return `${request.method} "${request.name}"`;
  if ('uri' in request) return `${request.method} "${request.uri}"`;
  return request.method;
}

const SESSION_METHOD: Record<InputRequiredMethod, string> = {
  'tools/call': 'callTool',
  'prompts/get': 'getPrompt',
  'resources/read': 'readResource',
};

/**
 * The server kept answering `input_required` past the client's round cap (`inputRequiredMaxRounds`, default 10:
 * ten `input_required` results are followed, the eleventh is this error, so a call sends at most eleven requests).
 * A local error, never sent to the server. `result` is the last `InputRequiredResult`, plain JSON: a host can keep
 * going by hand from it with `client.session`.
 */
export class InputRequiredRoundsExceededError extends Error {
  override readonly name = 'InputRequiredRoundsExceededError';
  /** The cap that was reached. */
  readonly maxRounds: number;
  /** The call that ran out of rounds. */
  readonly request: OriginatingRequest;
  /** The `input_required` result that went over the cap (not answered). */
  readonly result: InputRequiredResult;

  constructor(request: OriginatingRequest, maxRounds: number, result: InputRequiredResult) {
    super(
      `${describeRequest(request)} returned input_required more than ${maxRounds} times; raise ` +
        `inputRequiredMaxRounds in the Client options, or drive the loop by hand with ` +
        `client.session.${SESSION_METHOD[request.method]}(..., { allowInputRequired: true }).`,
    );
    this.maxRounds = maxRounds;
    this.request = request;
    this.result = result;
  }
}

/**
 * A call did not finish within its time limit (`timeoutMs` of the call, else `requestTimeoutMs` of the Client).
 * The limit bounds the whole call, every MRTR round and callback included. The request in flight was cancelled
 * (`notifications/cancelled`) and the callbacks' `signal` aborted.
 */
export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError';
  /** The method of the call (for MRTR calls, the originating method). */
  readonly method: string;
  /** The limit that elapsed, in milliseconds. */
  readonly timeoutMs: number;

  constructor(request: OriginatingRequest | { readonly method: string }, timeoutMs: number) {
    super(`${describeRequest(request)} timed out after ${timeoutMs} ms`);
    this.method = request.method;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The connection ended (the transport closed, its stream failed, or `client.close()` was called) while a request
 * waited for its response, or a request was made after it ended. Every request in flight fails at once with
 * this error; `cause` carries the transport's error when there was one.
 */
export class ConnectionClosedError extends Error {
  override readonly name = 'ConnectionClosedError';
  /** The method of the request that was cut off. */
  readonly method: string;
  /** Its JSON-RPC id, when it had been sent. */
  readonly requestId: RequestId | undefined;

  constructor(method: string, requestId: RequestId | undefined, options?: { cause?: unknown }) {
    super(
      requestId === undefined
        ? `Cannot send ${method}: the connection is closed`
        : `The connection closed before ${method} (request id ${String(requestId)}) got a response`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.method = method;
    this.requestId = requestId;
  }
}

/** A request was made before `client.connect(transport)` (or after `client.close()`). */
export class NotConnectedError extends Error {
  override readonly name = 'NotConnectedError';

  constructor(method: string) {
    super(`Cannot send ${method}: the client is not connected; call client.connect(transport) first`);
  }
}

/**
 * The server's answer was not a valid result for the method: an unknown `resultType`, `input_required` on a
 * method other than `tools/call`, `prompts/get` and `resources/read`, or a shape its schema rejects (then
 * `cause` holds the validation error). The spec says such a response MUST be treated as invalid.
 */
export class InvalidResultError extends Error {
  override readonly name = 'InvalidResultError';
  /** The method whose result was invalid. */
  readonly method: string;
  /** The result as received (after normalising a missing `resultType` to `"complete"`). */
  readonly result: unknown;

  constructor(method: string, problem: string, result: unknown, options?: { cause?: unknown }) {
    super(
      `Invalid result for ${method}: ${problem}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.method = method;
    this.result = result;
  }
}

/**
 * The server asked for input this client cannot give: a method with no callback registered (no `elicitation`,
 * `sampling` or `roots` option), an elicitation mode left out of `elicitationModes`, sampling with tools without
 * `samplingTools: true`, or an unknown input-request method. Nothing is retried: the call fails with this error.
 */
export class UnsupportedInputRequestError extends Error {
  override readonly name = 'UnsupportedInputRequestError';
  /** The `inputRequests` key of the request. */
  readonly key: string;
  /** Its method (`elicitation/create`, `sampling/createMessage`, `roots/list`, or whatever the server sent). */
  readonly inputMethod: string;
  /** The call the request arrived on. */
  readonly request: OriginatingRequest;

  constructor(request: OriginatingRequest, key: string, inputMethod: string, problem: string) {
    super(`${describeRequest(request)} asked for ${inputMethod} (input request "${key}"), but ${problem}`);
    this.key = key;
    this.inputMethod = inputMethod;
    this.request = request;
  }
}

/**
 * A callback (`elicitation`, `sampling` or `roots`) threw, or returned a value that is not a valid answer
 * (an `ElicitResult`, `CreateMessageResult` or `ListRootsResult`). The call fails; `cause` is what the callback
 * threw, or the validation error. Sibling callbacks of the same round see their `signal` abort.
 */
export class InputRequestCallbackError extends Error {
  override readonly name = 'InputRequestCallbackError';
  /** The `inputRequests` key being answered. */
  readonly key: string;
  /** Its method. */
  readonly inputMethod: string;
  /** The call the request arrived on. */
  readonly request: OriginatingRequest;

  constructor(
    request: OriginatingRequest,
    key: string,
    inputMethod: string,
    problem: string,
    options: { cause: unknown },
  ) {
    super(`${problem} for ${inputMethod} (input request "${key}" of ${describeRequest(request)})`, options);
    this.key = key;
    this.inputMethod = inputMethod;
    this.request = request;
  }
}
