// Who may see a task: a request that declared the extension, from the principal that created it, while it lives.
// Unknown, foreign and (for a stream) expired tasks are answered alike, so a task id tells nothing to others.
import { ErrorCode, hasExtension, McpError } from '@boomerang/protocol';
import type { RequestContext } from '@boomerang/server';
import { ownerOf } from './identity.js';
import { isWellFormedTaskId, TASKS_EXTENSION } from './schema.js';
import type { TaskRuntime } from './state.js';
import { expiresAt, type TaskRecord } from './store.js';

const NOT_FOUND = 'Failed to retrieve task: Task not found';

/** Throws `-32021` naming the extension when the request did not declare it. */
export function requireExtension(ctx: RequestContext): void {
  if (!hasExtension(ctx.clientCapabilities, TASKS_EXTENSION)) throw missingExtension();
}

/** The `-32021` of a request that needs the extension and did not declare it. */
export function missingExtension(): McpError {
  return McpError.missingRequiredClientCapability(
    { extensions: { [TASKS_EXTENSION]: {} } },
    `Missing required client capability: extensions["${TASKS_EXTENSION}"]`,
  );
}

/** The task `taskId` as its owner may see it; `-32602` for an unknown, foreign or expired one. */
export async function load(runtime: TaskRuntime, taskId: string, ctx: RequestContext): Promise<TaskRecord> {
  requireExtension(ctx);
  const record = await runtime.store.get(taskId);
  if (record === undefined || record.owner !== ownerOf(ctx.auth)) {
    throw new McpError(ErrorCode.InvalidParams, NOT_FOUND);
  }
  if (expired(runtime, record)) {
    throw new McpError(ErrorCode.InvalidParams, 'Failed to retrieve task: Task has expired');
  }
  return record;
}

/** True when the request's principal owns the live (unexpired) task `taskId` (what a stream may hear about). */
export async function visible(runtime: TaskRuntime, taskId: string, ctx: RequestContext): Promise<boolean> {
  if (!isWellFormedTaskId(taskId)) return false;
  const record = await runtime.store.get(taskId);
  return record !== undefined && record.owner === ownerOf(ctx.auth) && !expired(runtime, record);
}

function expired(runtime: TaskRuntime, record: TaskRecord): boolean {
  const until = expiresAt(record);
  return until !== null && until <= runtime.clock();
}
