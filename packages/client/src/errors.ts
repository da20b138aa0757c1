import type { InputRequiredResult, RequestId } from '@boomerang/protocol';
import type { Continuation } from './continuation.js';

/**
 * The request a call started with, as errors and callbacks name it: the method plus the tool or prompt name, or
 * the resource URI; any other method (an extension's, a vendor's) alone.
 */
export type OriginatingRequest =
  | { readonly method: 'tools/call'; readonly name: string; readonly uri?: undefined }
  | { readonly method: 'prompts/get'; readonly name: string; readonly uri?: undefined }
  | { readonly method: 'resources/read'; readonly uri: string; readonly name?: undefined }
  | { readonly method: string; readonly name?: undefined; readonly uri?: undefined };

/** `tools/call "provision"`, `resources/read "file:///a"`, or the bare method: how messages name a request. */
export function describeRequest(request: OriginatingRequest): string {
  if (request.name !== undefined) return `${request.method} "${request.name}"`;
  if (request.uri !== undefined) return `${request.method} "${request.uri}"`;
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
 * | `invalid-result` | the answer is no valid result for the method: unknown `resultType`, `input_required` where the method cannot ask, an `InputRequiredResult` with neither field, a shape its schema rejects, a tool's `structuredContent` its `outputSchema` rejects (or missing), a list that hands back a cursor it already gave | `result` (as received); `cause`: the issues |
 * | `unsupported-input-request` | the server asked for something this client did not declare or cannot answer | `key`, `inputMethod` |
 * | `callback-failed` | a callback threw or returned an invalid answer | `key`, `inputMethod`; `cause` |
 * | `rounds-exceeded` | more `input_required` results than `inputRequiredMaxRounds` | `result` (the last `InputRequiredResult`, not answered), `maxRounds`; `continuation` to go on by hand when it asks something |
 * | `pages-exceeded` | iterating a list (`client.tools()`, …) met more pages than `maxPages` | `maxPages` |
 * | `invalid-continuation` | `resume()` got something that is not a continuation this client can resume (another version, a missing, mistyped or unknown member, params that carry round inputs) | |
 * | `invalid-input-responses` | `resume()` got answers under keys the continuation did not ask, or an answer that is not the kind its question asks | `keys` |
 * | `state-rejected` | the server refused a resumed flow's `requestState` (a `-32602` naming it): tampered with, expired, sealed under another key, or bound to other arguments or another user | `cause`: the server's `McpError` |
 */
export type ClientErrorReason =
  | 'not-connected'
  | 'closed'
  | 'timeout'
  | 'invalid-result'
  | 'unsupported-input-request'
  | 'callback-failed'
  | 'rounds-exceeded'
  | 'pages-exceeded'
  | 'invalid-continuation'
  | 'invalid-input-responses'
  | 'state-rejected';

/** The members a {@link ClientError} may carry besides its reason; which ones depends on the reason. */
export interface ClientErrorDetails {
  /** The call: its method and, for tools, prompts and resources, the name or URI. */
  readonly request: OriginatingRequest;
  /** `closed`: the JSON-RPC id of the request that was cut off, when it had been sent. */
  readonly requestId?: RequestId | undefined;
  /** `timeout`: the limit that elapsed, in milliseconds. */
  readonly timeoutMs?: number | undefined;
  /** `rounds-exceeded`: the cap that was reached. */
  readonly maxRounds?: number | undefined;
  /** `pages-exceeded`: the cap that was reached. */
  readonly maxPages?: number | undefined;
  /**
   * `invalid-result`: the result as received (after normalising a missing `resultType`); `rounds-exceeded`: the
   * last `InputRequiredResult` (plain JSON, not answered).
   */
  readonly result?: unknown;
  /** `unsupported-input-request`, `callback-failed`: the `inputRequests` key of the request. */
  readonly key?: string | undefined;
  /** `unsupported-input-request`, `callback-failed`: its method (`elicitation/create`, …). */
  readonly inputMethod?: string | undefined;
  /** `invalid-input-responses`: the keys at fault. */
  readonly keys?: readonly string[] | undefined;
  /** `rounds-exceeded`: the flow as a continuation, when the last result asks something (resume it by hand). */
  readonly continuation?: Continuation | undefined;
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
  readonly request: OriginatingRequest;
  /** See {@link ClientErrorDetails.requestId}. */
  readonly requestId: RequestId | undefined;
  /** See {@link ClientErrorDetails.timeoutMs}. */
  readonly timeoutMs: number | undefined;
  /** See {@link ClientErrorDetails.maxRounds}. */
  readonly maxRounds: number | undefined;
  /** See {@link ClientErrorDetails.maxPages}. */
  readonly maxPages: number | undefined;
  /** See {@link ClientErrorDetails.result}. */
  readonly result: unknown;
  /** See {@link ClientErrorDetails.key}. */
  readonly key: string | undefined;
  /** See {@link ClientErrorDetails.inputMethod}. */
  readonly inputMethod: string | undefined;
  /** See {@link ClientErrorDetails.keys}. */
  readonly keys: readonly string[] | undefined;
  /** See {@link ClientErrorDetails.continuation}. */
  readonly continuation: Continuation | undefined;

  /** Made by the client (the factories below); `details` carries the members of `reason`. */
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
    this.maxPages = details.maxPages;
    this.result = details.result;
    this.key = details.key;
    this.inputMethod = details.inputMethod;
    this.keys = details.keys;
    this.continuation = details.continuation;
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
export function timedOut(request: OriginatingRequest, timeoutMs: number): ClientError {
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

/**
 * `invalid-result` for a tool's `structuredContent`: missing though the tool has an `outputSchema`, or rejected by
 * it (`cause`: the issues), or the schema itself unusable.
 */
export function invalidStructuredContent(
  request: OriginatingRequest,
  problem: string,
  result: unknown,
  cause?: unknown,
): ClientError {
  return new ClientError(
    'invalid-result',
    `Invalid result for ${describeRequest(request)}: ${problem}`,
    { request, result },
    cause === undefined ? undefined : { cause },
  );
}

/** `pages-exceeded`: a list iteration met more pages than its cap. */
export function pagesExceeded(method: string, maxPages: number): ClientError {
  return new ClientError(
    'pages-exceeded',
    `${method} returned more than ${maxPages} pages; raise maxPages (per call, or listMaxPages in the Client ` +
      'options), or read the pages yourself with the cursor of each (client.listTools({ cursor }), …)',
    { request: { method }, maxPages },
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
  continuation?: Continuation,
): ClientError {
  return new ClientError(
    'rounds-exceeded',
    `${describeRequest(request)} returned input_required more than ${maxRounds} times; raise ` +
      'inputRequiredMaxRounds in the Client options, or drive the rounds yourself with client.start() and ' +
      'client.resume().',
    { request, maxRounds, result, continuation },
  );
}

/** `invalid-continuation`: `resume()` was given something it cannot resume (`problem` says why). */
export function invalidContinuation(value: unknown, problem: string): ClientError {
  const method =
    typeof (value as { method?: unknown } | null)?.method === 'string'
      ? (value as { method: string }).method
      : 'resume';
  return new ClientError(
    'invalid-continuation',
    `Cannot resume: not a continuation this client can resume (${problem})`,
    {
      request: { method },
    },
  );
}

/** `invalid-input-responses`: the answers given to `resume()` do not fit the continuation's questions. */
export function invalidInputResponses(
  request: OriginatingRequest,
  problem: string,
  keys: readonly string[],
): ClientError {
  return new ClientError('invalid-input-responses', `Cannot resume ${describeRequest(request)}: ${problem}`, {
    request,
    keys,
  });
}

/** `state-rejected`: the server refused the state of a resumed flow (`cause`: its `McpError`). */
export function stateRejected(request: OriginatingRequest, cause: unknown): ClientError {
  return new ClientError(
    'state-rejected',
    `The server refused the state of ${describeRequest(request)} (tampered with, expired, or bound to other ` +
      'arguments, another key or another user): start the flow again',
    { request },
    { cause },
  );
}
