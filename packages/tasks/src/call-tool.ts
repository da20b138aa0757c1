// The call path: a `tools/call` whose tool runs as a task is checked, stored (under the open-task limits) and
// answered with `CreateTaskResult`, and its first round starts in the background; any other call goes to the
// wrapped handler as usual.
import {
  argumentError,
  type CallToolRequestParams,
  ErrorCode,
  hasExtension,
  isInputRequired,
  McpError,
} from '@boomerang/protocol';
import type { ExtensionResult, RequestContext, TaskPolicy, TaskStart, TaskSupport } from '@boomerang/server';
import { missingExtension } from './access.js';
import { newTaskId, ownerOf } from './identity.js';
import { checkJsonSize, MAX_ORIGIN_BYTES } from './limits.js';
import { start } from './rounds.js';
import { type CreateTaskResult, TASKS_EXTENSION } from './schema.js';
import { type CallToolHandler, define, type TaskRuntime } from './state.js';
import { TaskLimitError, type TaskOrigin, type TaskRecord } from './store.js';
import { createTaskResult } from './wire.js';

/**
 * A {@link TaskPolicy}: its `validate` runs on the `tools/call` request before anything is stored, after the
 * runtime's size check and before `before`.
 */
export type TaskCallPolicy = TaskPolicy;

/** Per call: the tool's policy, `undefined` for a tool that never runs as a task. */
export type TaskPolicyLookup = (
  params: CallToolRequestParams,
  ctx: RequestContext,
) => TaskCallPolicy | TaskSupport | undefined;

/**
 * The code of a `tools/call` refused because its principal, or the server, already has as many open tasks as
 * allowed: `-32029` (`ErrorCode.RateLimited`), with `data: { retryAfterMs, limit, scope }`. It is the SDK's code
 * for "this caller asks more of the server than it allows right now" (HTTP 429, which RFC 6585 also gives to
 * quotas), and the right reading: the same call succeeds once some of the caller's tasks finish. Not `-32602`
 * (the params are valid), not `-32603` (nothing failed: it is a policy, and an internal error would hide it and
 * be logged as a fault).
 */
export const TASK_QUOTA_EXCEEDED = ErrorCode.RateLimited;

/**
 * Makes `handler` the runtime's handler and returns the `tools/call` handler that runs calls of task tools as
 * tasks (see `Tasks.wrapCallTool`). Throws `TypeError` for a non-function handler or policy, `Error` on a second
 * call.
 */
export function wrapCallTool(
  runtime: TaskRuntime,
  handler: CallToolHandler,
  policy: TaskPolicyLookup | Readonly<Record<string, TaskCallPolicy | TaskSupport>>,
): CallToolHandler {
  if (typeof handler !== 'function') throw argumentError('inner', 'a tools/call handler', handler);
  if (runtime.handler !== undefined) throw new Error('this tasks runtime already wraps a tools/call handler');
  const lookup = policyLookup(policy);
  runtime.handler = handler;
  const { store, limits, maxParamsBytes, pollIntervalMs } = runtime;
  return async (params, ctx) => {
    const found = lookup(params, ctx);
    const taskPolicy: TaskCallPolicy | undefined = typeof found === 'string' ? { support: found } : found;
    if (taskPolicy === undefined) return handler(params, ctx);
    const declared =
      hasExtension(ctx.clientCapabilities, TASKS_EXTENSION) && ctx.protocolVersion !== '2025-11-25';
    if (!declared) {
      if (taskPolicy.support === 'required') throw missingExtension();
      return handler(params, ctx);
    }
    // Nothing is stored until every check passed: the size of what would be stored, the policy's own
    // validation, its `before` step, the principal, and (with the insert, atomically) the open-task limits.
    const own = ownParams(params);
    checkJsonSize(own, maxParamsBytes, 'params');
    if (taskPolicy.validate !== undefined) {
      const answer = await taskPolicy.validate(params, ctx);
      if (answer !== undefined) return answer;
    }
    let begin: TaskStart = { inputResponses: ctx.inputResponses, requestState: ctx.requestState };
    if (taskPolicy.before !== undefined) {
      const prepared = await taskPolicy.before(params, ctx);
      if (isInputRequired(prepared)) return prepared;
      if (prepared !== undefined) begin = prepared;
    }
    const owner = ownerOf(ctx.auth);
    if (owner === undefined) {
      // The verifier returned an AuthInfo with no clientId, issuer, subject or token: fail closed.
      throw new McpError(
        ErrorCode.InternalError,
        'This task cannot be bound to its caller: the authentication names no client, issuer, subject or token',
      );
    }
    // The rest of what the record keeps is the caller's too: bounded like the params before anything is written.
    checkJsonSize(begin.inputResponses, runtime.maxInputBytes, 'inputResponses');
    if (typeof begin.requestState === 'string' && begin.requestState.length > maxParamsBytes) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid params: requestState is over this server's ${maxParamsBytes}-byte limit`,
      );
    }
    const origin = originOf(ctx);
    checkJsonSize(
      origin,
      MAX_ORIGIN_BYTES,
      'the client information (_meta clientInfo and clientCapabilities)',
    );
    const record = newRecord(runtime, own, origin, owner, begin);
    try {
      await store.create(record, limits);
    } catch (refused) {
      if (refused instanceof TaskLimitError) throw quotaExceeded(refused, pollIntervalMs);
      throw refused;
    }
    start(runtime, record);
    return createTaskResult(record) as CreateTaskResult & ExtensionResult;
  };
}

/** A new `working` task of `owner`, leased to this instance, with the creating request's answers as round 0's. */
function newRecord(
  runtime: TaskRuntime,
  own: Record<string, unknown>,
  origin: TaskOrigin,
  owner: string,
  begin: TaskStart,
): TaskRecord {
  const now = runtime.clock();
  const answers: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(begin.inputResponses ?? {})) define(answers, `0.${key}`, value);
  return {
    taskId: newTaskId(),
    owner,
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: runtime.ttlMs,
    pollIntervalMs: runtime.pollIntervalMs,
    version: 1,
    leaseUntil: now + runtime.leaseMs,
    method: 'tools/call',
    params: own,
    origin,
    round: 0,
    inputResponses: answers,
    requestState: begin.requestState,
  };
}

function originOf(ctx: RequestContext): TaskOrigin {
  const origin: { -readonly [K in keyof TaskOrigin]: TaskOrigin[K] } = {
    protocolVersion: ctx.protocolVersion,
    clientCapabilities: ctx.clientCapabilities,
  };
  if (ctx.clientInfo !== undefined) origin.clientInfo = ctx.clientInfo;
  if (ctx.auth !== undefined) {
    const { clientId, issuer, subject, scopes } = ctx.auth;
    origin.auth = JSON.parse(JSON.stringify({ clientId, issuer, subject, scopes }));
  }
  return origin;
}

/** What a task keeps of a `tools/call`'s params: all but `_meta`, `inputResponses`, `requestState` and `task`. */
function ownParams(params: CallToolRequestParams): Record<string, unknown> {
  const own: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (key === '_meta' || key === 'inputResponses' || key === 'requestState' || key === 'task') continue;
    define(own, key, value);
  }
  return own;
}

/** The `-32029` of a creation past an open-task limit (see {@link TASK_QUOTA_EXCEEDED}). */
function quotaExceeded(refused: TaskLimitError, retryAfterMs: number): McpError {
  const { scope, limit } = refused;
  const message =
    scope === 'owner'
      ? `Too many open tasks: this caller already has ${limit}, the most this server allows per principal; retry once one of them finishes, or cancel one`
      : `Too many open tasks: this server already holds ${limit}, the most it allows; retry later`;
  return new McpError(TASK_QUOTA_EXCEEDED, message, {
    retryAfterMs,
    limit,
    scope: scope === 'owner' ? 'principal' : 'server',
  });
}

function policyLookup(
  policy: TaskPolicyLookup | Readonly<Record<string, TaskCallPolicy | TaskSupport>>,
): TaskPolicyLookup {
  if (typeof policy === 'function') return policy;
  if (typeof policy !== 'object' || policy === null) {
    throw argumentError('policy', 'a function or an object of tool names → policies', policy);
  }
  return (params) => (Object.hasOwn(policy, params.name) ? policy[params.name] : undefined);
}
