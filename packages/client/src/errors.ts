import type { InputRequiredResult, RequestId } from '@boomerang/protocol';

/**
 * The request a call started with, as errors and callbacks name it: the method plus the tool or prompt name, or
 * the resource URI.
 */
export type OriginatingRequest =
  | { readonly method: 'tools/call'; readonly name: string }
  | { readonly method: 'prompts/get'; readonly name: string }
  | { readonly method: 'resources/read'; readonly uri: string };

/** A call as {@link ClientError} names it: an {@link OriginatingRequest}, or any other method alone. */
export type CallDescription = OriginatingRequest | { readonly method: string };

/** `tools/call "provision"`, `resources/read "file:///a"`, or the bare method: how messages name a request. */
export function describeRequest(request: CallDescription): string {
  if ('name' in request) return `${request.method} "${request.name}"`;
  if ('uri' in request) return `${request.method} "${request.uri}"`;
  return request.method;
}

/**
 * Why a {@link ClientError} was thrown. Every reason is a local condition of this client; what the server
 * answered with a JSON-RPC error is an `McpError` (from `@boomerang/protocol`) instead.
 *
 * | reason | when | members |
 * | --- | --- | --- |
 * | `not-connected` | a call before `connect()` (or after `close()`) | |
 * | `closed` | the connection ended before the response (the transport closed, its stream failed, `close()`) | `requestId` when it was sent; `cause`: the transport's error |
 * | `timeout` | the call's `timeoutMs` (or the client's `requestTimeoutMs`) elapsed; the request in flight was cancelled | `timeoutMs` |
 * | `invalid-result` | the answer is no valid result for the method: unknown `resultType`, `input_required` where the method cannot ask, an `InputRequiredResult` with neither field, or a shape its schema rejects | `result` (as received); `cause`: the issues |
 * | `unsupported-input-request` | the server asked for something this client did not declare or cannot answer | `key`, `inputMethod` |
 * | `callback-failed` | a callback threw or returned an invalid answer | `key`, `inputMethod`; `cause` |
 * | `rounds-exceeded` | more `input_required` results than `inputRequiredMaxRounds` | `result` (the last `InputRequiredResult`, not answered), `maxRounds` |
 */
export type ClientErrorReason =
  | 'not-connected'
  | 'closed'
  | 'timeout'
  | 'invalid-result'
  | 'unsupported-input-request'
  | 'callback-failed'
  | 'rounds-exceeded';

/** The members a {@link ClientError} may carry besides its reason; which ones depends on the reason. */
export interface ClientErrorDetails {
  /** The call: its method and, for tools, prompts and resources, the name or URI. */
  readonly request: CallDescription;
  /** `closed`: the JSON-RPC id of the request that was cut off, when it had been sent. */
  readonly requestId?: RequestId | undefined;
  /** `timeout`: the limit that elapsed, in milliseconds. */
  readonly timeoutMs?: number | undefined;
  /** `rounds-exceeded`: the cap that was reached. */
  readonly maxRounds?: number | undefined;
  /**
   * `invalid-result`: the result as received (after normalising a missing `resultType`); `rounds-exceeded`: the
   * last `InputRequiredResult` (plain JSON, not answered).
   */
  readonly result?: unknown;
  /** `unsupported-input-request`, `callback-failed`: the `inputRequests` key of the request. */
  readonly key?: string | undefined;
  /** `unsupported-input-request`, `callback-failed`: its method (`elicitation/create`, …). */
  readonly inputMethod?: string | undefined;
}

/**
 * The one error class of `@boomerang/client`: a local condition of the client, never sent to the server, told
 * apart by {@link ClientError.reason} (see {@link ClientErrorReason} for each reason and its members). Causes are ES
 * `cause`s, and only present when there is one. The server's JSON-RPC errors stay `McpError`.
 */
export class ClientError extends Error {
  override readonly name = 'ClientError';
  /** Why the call failed; the other members depend on it. */
  readonly reason: ClientErrorReason;
  /** The method of the call (for an MRTR flow, the originating method). */
  readonly method: string;
  /** The call, as messages name it. */
  readonly request: CallDescription;
  /** See {@link ClientErrorDetails.requestId}. */
  readonly requestId: RequestId | undefined;
  /** See {@link ClientErrorDetails.timeoutMs}. */
  readonly timeoutMs: number | undefined;
  /** See {@link ClientErrorDetails.maxRounds}. */
  readonly maxRounds: number | undefined;
  /** See {@link ClientErrorDetails.result}. */
  readonly result: unknown;
  /** See {@link ClientErrorDetails.key}. */
  readonly key: string | undefined;
  /** See {@link ClientErrorDetails.inputMethod}. */
  readonly inputMethod: string | undefined;

  constructor(
    reason: ClientErrorReason,
    message: string,
    details: ClientErrorDetails,
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.request = details.request;
    this.method = details.request.method;
    this.requestId = details.requestId;
    this.timeoutMs = details.timeoutMs;
    this.maxRounds = details.maxRounds;
    this.result = details.result;
    this.key = details.key;
    this.inputMethod = details.inputMethod;
  }
}

/** True when `error` is a {@link ClientError} with `reason` (any reason when omitted). */
export function isClientError(error: unknown, reason?: ClientErrorReason): error is ClientError {
  return error instanceof ClientError && (reason === undefined || error.reason === reason);
}

/** `not-connected`: a call before `connect()` or after `close()`. */
export function notConnected(method: string): ClientError {
  return new ClientError(
    'not-connected',
    `Cannot send ${method}: the client is not connected; call client.connect(transport) first`,
    { request: { method } },
  );
}

/** `closed`: the connection ended before `method` (request `requestId`, when sent) got its response. */
export function connectionClosed(
  method: string,
  requestId: RequestId | undefined,
  cause?: unknown,
): ClientError {
  return new ClientError(
    'closed',
    requestId === undefined
      ? `Cannot send ${method}: the connection is closed`
      : `The connection closed before ${method} (request id ${String(requestId)}) got a response`,
    { request: { method }, requestId },
    cause === undefined ? undefined : { cause },
  );
}

/** `timeout`: the call's time limit elapsed. */
export function timedOut(request: CallDescription, timeoutMs: number): ClientError {
  return new ClientError('timeout', `${describeRequest(request)} timed out after ${timeoutMs} ms`, {
    request,
    timeoutMs,
  });
}

/** `invalid-result`: the server's answer to `method` is not a valid result (see {@link ClientErrorReason}). */
export function invalidResult(
  method: string,
  problem: string,
  result: unknown,
  cause?: unknown,
): ClientError {
  return new ClientError(
    'invalid-result',
    `Invalid result for ${method}: ${problem}`,
    { request: { method }, result },
    cause === undefined ? undefined : { cause },
  );
}

/** `unsupported-input-request`: the server asked for input this client cannot give. */
export function unsupportedInputRequest(
  request: OriginatingRequest,
  key: string,
  inputMethod: string,
  problem: string,
): ClientError {
  return new ClientError(
    'unsupported-input-request',
    `${describeRequest(request)} asked for ${inputMethod} (input request "${key}"), but ${problem}`,
    { request, key, inputMethod },
  );
}

/** `callback-failed`: a callback threw (`cause`), or its answer failed validation (`cause`: the issues). */
export function callbackFailed(
  request: OriginatingRequest,
  key: string,
  inputMethod: string,
  problem: string,
  cause: unknown,
): ClientError {
  return new ClientError(
    'callback-failed',
    `${problem} for ${inputMethod} (input request "${key}" of ${describeRequest(request)})`,
    { request, key, inputMethod },
    { cause },
  );
}

/**
 * `rounds-exceeded`: the server kept answering `input_required` past the cap (ten `input_required` results are
 * followed, the eleventh is this error, so a call sends at most eleven requests).
 */
export function roundsExceeded(
  request: OriginatingRequest,
  maxRounds: number,
  result: InputRequiredResult,
): ClientError {
  return new ClientError(
    'rounds-exceeded',
    `${describeRequest(request)} returned input_required more than ${maxRounds} times; raise ` +
      'inputRequiredMaxRounds in the Client options, or drive the rounds yourself with client.start() and ' +
      'client.resume().',
    { request, maxRounds, result },
  );
}
