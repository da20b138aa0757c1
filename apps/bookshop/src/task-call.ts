// One tool call run as a task of io.modelcontextprotocol/tasks, spoken step by step over the client transport so
// the demo shows the extension's wire: `tools/call` answered with a task, `tasks/get` polled at the server's
// interval, each new question answered by the demo's callbacks through `tasks/update`, until the task ends.
import type { InputCallbacks } from '@boomerang/client';
import { describeInputRequest, tapTransport } from '@boomerang/demo-kit';
import {
  type CallToolResult,
  type ElicitRequestParams,
  type JsonRpcErrorObject,
  McpError,
} from '@boomerang/protocol';
import { TASKS_EXTENSION } from '@boomerang/tasks';
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

type Task = Record<string, unknown> & {
  taskId: string;
  status: string;
  statusMessage?: string;
  pollIntervalMs?: number;
};

/** The first and last characters of a 64-digit task id. */
const short = (taskId: string) => `${taskId.slice(0, 6)}…${taskId.slice(-4)}`;

/**
 * Calls `tool` with `args`, declaring the tasks extension, and follows the task to its end: prints the created
 * task, every change of status (and status message), each question and the update that answers it (a key is
 * answered once, however many polls show it). Resolves to the task's `CallToolResult` (or to the result itself
 * when the server answered without a task); rejects with the task's JSON-RPC error when it failed, and with an
 * `Error` when it was cancelled.
 */
export async function runTaskCall(
  tool: string,
  args: Record<string, unknown>,
  options: TaskCallOptions,
  out: (line: string) => void,
): Promise<CallToolResult> {
  const transport = tapTransport(new StreamableHttpClientTransport(options.url), (direction, message) => {
    if (options.wire) out(`    ${direction === 'out' ? '>>' : '<<'} ${JSON.stringify(message)}`);
  });
  const capabilities = { elicitation: { form: {}, url: {} }, extensions: { [TASKS_EXTENSION]: {} } };
  let nextId = 1;
  const request = async (method: string, params: Record<string, unknown>) => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': capabilities,
    };
    const response = await transport.request({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: { _meta: meta, ...params },
    });
    if ('error' in response) throw McpError.fromJSON(response.error as JsonRpcErrorObject);
    return response.result as Record<string, unknown>;
  };

  try {
    out(`→ tools/call ${tool} ${JSON.stringify(args)}, declaring ${TASKS_EXTENSION}`);
    const created = await request('tools/call', { name: tool, arguments: args });
    if (created.resultType !== 'task') {
      out(`← ${String(created.resultType)}: the server answered without a task`);
      return created as CallToolResult;
    }
    const { taskId, pollIntervalMs = 1_000 } = created as Task;
    out(`← task ${short(taskId)}: ${String(created.status)}; polling tasks/get every ${pollIntervalMs} ms`);
    const answered = new Set<string>();
    let shown = '';
    for (let round = 1; ; ) {
      await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
      const task = (await request('tasks/get', { taskId })) as Task;
      const line = `${task.status}${task.statusMessage === undefined ? '' : `: ${task.statusMessage}`}`;
      if (line !== shown) out(`← tasks/get ${short(taskId)}: ${line}`);
      shown = line;
      if (task.status === 'completed') return task.result as CallToolResult;
      if (task.status === 'failed') {
        const error = task.error as { code: number; message: string; data?: unknown };
        throw new McpError(error.code, error.message, error.data);
      }
      if (task.status === 'cancelled') throw new Error(`task ${short(taskId)} was cancelled`);
      if (task.status !== 'input_required') continue;
      const fresh = Object.entries(
        task.inputRequests as Record<string, { method: string; params: unknown }>,
      ).filter(([key]) => !answered.has(key));
      if (fresh.length === 0) continue;
      const inputResponses: Record<string, unknown> = {};
      for (const [key, asked] of fresh) {
        out(`    question ${key} = ${describeInputRequest(asked)}`);
        const elicitation = options.callbacks.elicitation;
        if (asked.method !== 'elicitation/create' || elicitation === undefined) {
          throw new Error(`the demo cannot answer ${asked.method}`);
        }
        const signal = new AbortController().signal;
        const ctx = { method: 'tools/call' as const, name: tool, signal, key, round };
        inputResponses[key] = await elicitation(asked.params as ElicitRequestParams, ctx);
        answered.add(key);
      }
      out(`→ tasks/update ${short(taskId)} {${Object.keys(inputResponses).join(', ')}}`);
      await request('tasks/update', { taskId, inputResponses });
      round++;
    }
  } finally {
    await transport.close();
  }
}
