// One tool call run as a task of io.modelcontextprotocol/tasks, through the client's own task support
// (`new Client(info, { tasks })`, `callTool`), printed step by step from what the client's transport carries, so
// the demo shows the extension's wire: `tools/call` answered with a task, `tasks/get` polled at the server's
// interval, each new question answered by the demo's callbacks through `tasks/update`, until the task ends.
import { Client, type InputCallbacks } from '@boomerang/client';
import { describeInputRequest, tapTransport } from '@boomerang/demo-kit';
import type { CallToolResult, JSONRPCMessage } from '@boomerang/protocol';
import { TASKS_EXTENSION } from '@boomerang/protocol/tasks';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';

/** Options of {@link runTaskCall}. */
export interface TaskCallOptions {
  /** The bookshop's endpoint. */
  readonly url: URL;
  /** Who answers the task's questions (only form and URL elicitations: all the print run asks). */
  readonly callbacks: InputCallbacks;
  /** Also print every JSON-RPC message in full. */
  readonly wire?: boolean | undefined;
}

/** The first and last characters of a 64-digit task id. */
const short = (taskId: string) => `${taskId.slice(0, 6)}…${taskId.slice(-4)}`;

/**
 * Calls `tool` with `args` through a `Client` that declares the tasks extension and polls (`tasks: { listen:
 * false }`, so every step is a request the demo can show), and prints: the created task (from the `onTask` hook),
 * every change of status (and status message) a `tasks/get` shows, each question as the callbacks are asked it
 * (the client asks a key once, however many polls show it) and the `tasks/update` that answers it. Resolves to the
 * task's `CallToolResult` (or to the result itself when the server answered without a task); rejects as
 * `callTool` does: the task's JSON-RPC error when it failed, a `task-cancelled` `ClientError` when it was
 * cancelled.
 */
export async function runTaskCall(
  tool: string,
  args: Record<string, unknown>,
  options: TaskCallOptions,
  out: (line: string) => void,
): Promise<CallToolResult> {
  const gets = new Set<unknown>();
  let shown = '';
  const step = (direction: 'in' | 'out', message: JSONRPCMessage) => {
    if (options.wire) out(`    ${direction === 'out' ? '>>' : '<<'} ${JSON.stringify(message)}`);
    if (direction === 'out' && 'method' in message && 'id' in message) {
      const params = message.params as { taskId?: string; inputResponses?: object } | undefined;
      if (message.method === 'tasks/get') gets.add(message.id);
      if (message.method === 'tasks/update') {
        const keys = Object.keys(params?.inputResponses ?? {}).join(', ');
        out(`→ tasks/update ${short(String(params?.taskId))} {${keys}}`);
      }
    }
    if (direction === 'in' && 'result' in message && gets.delete(message.id)) {
      const task = message.result as { taskId: string; status: string; statusMessage?: string };
      const line = `${task.status}${task.statusMessage === undefined ? '' : `: ${task.statusMessage}`}`;
      if (line !== shown) out(`← tasks/get ${short(task.taskId)}: ${line}`);
      shown = line;
    }
  };
  const elicitation = options.callbacks.elicitation;
  const client = new Client(
    { name: 'bookshop-demo-tasks', version: '1.0.0' },
    {
      tasks: { listen: false },
      ...(elicitation === undefined
        ? {}
        : {
            elicitation: (params, ctx) => {
              out(
                `    question ${ctx.key} = ${describeInputRequest({ method: 'elicitation/create', params })}`,
              );
              return elicitation(params, ctx);
            },
          }),
      protocol: '2026-07-28',
    },
  );
  await client.connect(tapTransport(new StreamableHttpClientTransport(options.url), step));
  try {
    out(`→ tools/call ${tool} ${JSON.stringify(args)}, declaring ${TASKS_EXTENSION}`);
    let created = false;
    const result = await client.callTool(tool, args, {
      onTask: (task) => {
        created = true;
        const every = task.pollIntervalMs ?? 1_000;
        out(`← task ${short(task.taskId)}: ${task.status}; polling tasks/get every ${every} ms`);
      },
    });
    if (!created) out(`← ${result.resultType}: the server answered without a task`);
    return result;
  } finally {
    await client.close();
  }
}
