import type { InputRequiredResult, McpError, RequestId } from '@boomerang/protocol';
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
 * | `timeout` | the call's `timeoutMs` (or the client's `requestTimeoutMs`) elapsed, or (a call without either) one request got no response within `responseTimeoutMs`, or `connect()` took longer than `connectTimeoutMs` (`method: 'connect'`); the request in flight was cancelled | `timeoutMs` |
 * | `invalid-result` | the answer is no valid result for the method: unknown `resultType`, `input_required` where the method cannot ask, an `InputRequiredResult` with neither field, a shape its schema rejects, a tool's `structuredContent` its `outputSchema` rejects (or missing), a list that hands back a cursor it already gave | `result` (as received); `cause`: the issues |
 * | `unsupported-input-request` | the server asked for something this client did not declare or cannot answer | `key`, `inputMethod` |
 * | `callback-failed` | a callback threw or returned an invalid answer | `key`, `inputMethod`; `cause` |
 * | `too-many-input-requests` | an `input_required` result, or a task's `tasks/get` reading, asks more than `maxInputRequests` questions at once (refused before any is validated or answered) | `result` (as received), `maxInputRequests` |
 * | `rounds-exceeded` | more `input_required` results than `inputRequiredMaxRounds` | `result` (the last `InputRequiredResult`, not answered), `maxRounds`; `continuation` to go on by hand when it asks something |
 * | `pages-exceeded` | iterating a list (`client.tools()`, …) met more pages than `maxPages` | `maxPages` |
 * | `invalid-continuation` | `resume()` got something that is not a continuation this client can resume (another version, a missing, mistyped or unknown member, params that carry round inputs) | |
 * | `invalid-input-responses` | `resume()` got answers under keys the continuation did not ask, or an answer that is not the kind its question asks | `keys` |
 * | `state-rejected` | the server refused a resumed flow's `requestState` (a `-32602` naming it): tampered with, expired, sealed under another key, or bound to other arguments or another user | `cause`: the server's `McpError` |
 * | `task-cancelled` | the task the call waits for ended `cancelled` (by another client, or by the server) instead of completing | `taskId` |
 *
 * An error met while the client follows a task (the tasks extension: an `invalid-result` of `tasks/get`, a
 * `callback-failed` of one of the task's questions, `task-cancelled`) also carries the task's `taskId`, so a host
 * can go on with `client.tasks` (`result(taskId)` waits for it again). A callback whose answer the server refused
 * with `-32602` while the task kept asking is `callback-failed` with the server's `McpError` as `cause`; an
 * `onTask` hook that threw is `callback-failed` without `key`.
 */
export type ClientErrorReason =
  | 'not-connected'
  | 'closed'
  | 'timeout'
  | 'invalid-result'
  | 'unsupported-input-request'
  | 'callback-failed'
  | 'too-many-input-requests'
  | 'rounds-exceeded'
  | 'pages-exceeded'
  | 'invalid-continuation'
  | 'invalid-input-responses'
  | 'state-rejected'
  | 'task-cancelled';

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
  /** `too-many-input-requests`: the cap that was passed. */
  readonly maxInputRequests?: number | undefined;
  /** `pages-exceeded`: the cap that was reached. */
  readonly maxPages?: number | undefined;
  /**
   * `invalid-result`: the result as received (after normalising a missing `resultType`); `rounds-exceeded`: the
   * last `InputRequiredResult` (plain JSON, not answered); `too-many-input-requests`: the result as received.
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
  /** The task the call was following (tasks extension), for errors met while following one. */
  readonly taskId?: string | undefined;
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
  /** See {@link ClientErrorDetails.maxInputRequests}. */
  readonly maxInputRequests: number | undefined;
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
  /** See {@link ClientErrorDetails.taskId}. */
  readonly taskId: string | undefined;

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
    this.maxInputRequests = details.maxInputRequests;
    this.maxPages = details.maxPages;
    this.result = details.result;
    this.key = details.key;
    this.inputMethod = details.inputMethod;
    this.keys = details.keys;
    this.continuation = details.continuation;
    this.taskId = details.taskId;
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

/**
 * `timeout` for one request of a call without a time limit: no response within `responseTimeoutMs` (callback
 * time not counted).
 */
export function responseTimedOut(request: OriginatingRequest, timeoutMs: number): ClientError {
  return new ClientError(
    'timeout',
    `${describeRequest(request)} got no response within ${timeoutMs} ms (responseTimeoutMs): the server went ` +
      'silent or never ended its answer. For a longer operation raise responseTimeoutMs in the Client options, or ' +
      'give the call a timeoutMs.',
    { request, timeoutMs },
  );
}

/** `timeout` of `connect()`: the server did not answer within `connectTimeoutMs`. */
export function connectTimedOut(timeoutMs: number): ClientError {
  return new ClientError(
    'timeout',
    `connect() got no answer within ${timeoutMs} ms (connectTimeoutMs): check the URL and that the server is ` +
      'up. An interactive OAuth sign-in runs inside connect(): raise connectTimeoutMs to give it the time it needs.',
    { request: { method: 'connect' }, timeoutMs },
  );
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
 * `too-many-input-requests`: one `input_required` result asks `count` (more than `maxInputRequests`) questions.
 */
export function tooManyInputRequests(
  request: OriginatingRequest,
  maxInputRequests: number,
  count: number,
  result: unknown,
): ClientError {
  return new ClientError(
    'too-many-input-requests',
    `${describeRequest(request)} returned input_required with ${count} input requests in one round, more than ` +
      `maxInputRequests (${maxInputRequests}); none was answered. Raise maxInputRequests in the Client options if ` +
      'the server is trusted to ask that many at once.',
    { request, maxInputRequests, result },
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
    ((typeof value === 'object' && value !== null) || typeof value === 'function') &&
    'method' in value &&
    typeof value.method === 'string'
      ? value.method
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

/** `task-cancelled`: the task `taskId` that `request` waits for ended `cancelled`. */
export function taskCancelled(
  request: OriginatingRequest,
  taskId: string,
  statusMessage: string | undefined,
): ClientError {
  const why = statusMessage === undefined ? '' : ` (${statusMessage})`;
  return new ClientError(
    'task-cancelled',
    `Task ${taskId} of ${describeRequest(request)} was cancelled before it completed${why}`,
    { request, taskId },
  );
}

/** `callback-failed`: the `onTask` hook threw for the task `taskId` (`cause`); the task was cancelled. */
export function taskHookFailed(request: OriginatingRequest, taskId: string, cause: unknown): ClientError {
  return new ClientError(
    'callback-failed',
    `The onTask hook threw for task ${taskId} of ${describeRequest(request)}; the task was cancelled`,
    { request, taskId },
    { cause },
  );
}

/**
 * `callback-failed`: the server refused, with `-32602` (`cause`), the callbacks' answers to the questions `keys`
 * of task `taskId`, which it still asks.
 */
export function answersRefused(
  request: OriginatingRequest,
  taskId: string,
  keys: readonly string[],
  inputMethod: string | undefined,
  cause: McpError,
): ClientError {
  return new ClientError(
    'callback-failed',
    `The server refused the answers to ${keys.map((k) => `"${k}"`).join(', ')} of task ${taskId} of ` +
      `${describeRequest(request)}: ${cause.message}`,
    { request, taskId, keys, key: keys[0], inputMethod },
    { cause },
  );
}

/**
 * `error` marked as met while following the task `taskId`: a `ClientError` without a `taskId` is made again with
 * it (same reason, message and members); anything else (the server's `McpError`s, abort reasons) is returned as is.
 */
export function inTask(error: unknown, taskId: string): unknown {
  if (!(error instanceof ClientError) || error.taskId !== undefined) return error;
  const details: ClientErrorDetails = {
    request: error.request,
    requestId: error.requestId,
    timeoutMs: error.timeoutMs,
    maxRounds: error.maxRounds,
    maxInputRequests: error.maxInputRequests,
    maxPages: error.maxPages,
    result: error.result,
    key: error.key,
    inputMethod: error.inputMethod,
    keys: error.keys,
    continuation: error.continuation,
    taskId,
  };
  const options = error.cause === undefined ? undefined : { cause: error.cause };
  const marked = new ClientError(error.reason, `${error.message} (task ${taskId})`, details, options);
  return marked;
}
