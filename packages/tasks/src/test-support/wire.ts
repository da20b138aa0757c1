// Test helpers: raw JSON-RPC requests against a MessageHandler (the wire is the contract).
import type { AuthInfo } from '@boomerang/protocol';
import type { MessageHandler } from '@boomerang/protocol/transport';
import { errorOf, resultOf } from '@boomerang/testing';
import { TASKS_EXTENSION } from '../schema.js';

export { errorOf, resultOf };

/** Client capabilities that declare the tasks extension and form elicitation. */
export const WITH_TASKS = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };

let nextId = 1;

/** One request with a fresh id and full `_meta` (`caps` default: {@link WITH_TASKS}). */
function message(method: string, params: Record<string, unknown>, caps?: Record<string, unknown>) {
  return {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': caps ?? WITH_TASKS,
      },
      ...params,
    },
  };
}

/** Sends one request with full `_meta` and returns the raw response. */
export function rpc(
  server: MessageHandler,
  method: string,
  params: Record<string, unknown> = {},
  options: { caps?: Record<string, unknown>; auth?: AuthInfo } = {},
) {
  return server.handle(
    message(method, params, options.caps),
    options.auth === undefined ? {} : { auth: options.auth },
  );
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

/**
 * Opens `subscriptions/listen` for `notifications` through `handle()`, recording what the stream carries;
 * `acked` resolves to the agreed filter. `cancel()` ends it (no response).
 */
export function listen(
  server: MessageHandler,
  notifications: Record<string, unknown>,
  options: { caps?: Record<string, unknown>; auth?: AuthInfo } = {},
) {
  const sent: { method: string; params?: Record<string, unknown> }[] = [];
  const controller = new AbortController();
  let acked = (_filter: Record<string, unknown>) => {};
  const ack = new Promise<Record<string, unknown>>((resolve) => {
    acked = resolve;
  });
  const response = server.handle(message('subscriptions/listen', { notifications }, options.caps), {
    ...(options.auth === undefined ? {} : { auth: options.auth }),
    signal: controller.signal,
    notify: (notification) => {
      const n = notification as { method: string; params?: Record<string, unknown> };
      if (n.method === 'notifications/subscriptions/acknowledged') {
        acked(n.params?.notifications as Record<string, unknown>);
      } else sent.push(n);
    },
  });
  return { sent, ack, response, cancel: () => controller.abort() };
}
