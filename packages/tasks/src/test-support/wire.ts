// Test helpers: raw JSON-RPC requests against a MessageHandler (the wire is the contract).
import type { AuthInfo, MessageHandler } from '@boomerang/protocol';
import { errorOf, resultOf } from '@boomerang/testing';
import { TASKS_EXTENSION } from '../schema.js';

export { errorOf, resultOf };

/** Client capabilities that declare the tasks extension and form elicitation. */
export const WITH_TASKS = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };

let nextId = 1;

/** Sends one request with full `_meta` and returns the raw response. */
export function rpc(
  server: MessageHandler,
  method: string,
  params: Record<string, unknown> = {},
  options: { caps?: Record<string, unknown>; auth?: AuthInfo } = {},
) {
  const message = {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': options.caps ?? WITH_TASKS,
      },
      ...params,
    },
  };
  return server.handle(message, options.auth === undefined ? {} : { auth: options.auth });
}

/** Polls `tasks/get` until `until(task)` holds (default: a terminal status); fails after `timeoutMs`. */
export async function pollTask(
  server: MessageHandler,
  taskId: string,
  until: (task: Record<string, unknown>) => boolean = (t) =>
    t.status === 'completed' || t.status === 'failed' || t.status === 'cancelled',
  options: { auth?: AuthInfo; timeoutMs?: number } = {},
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + (options.timeoutMs ?? 5_000);
  for (;;) {
    const task = resultOf(await rpc(server, 'tasks/get', { taskId }, options));
    if (until(task)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${String(task.status)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
