// Examples quoted into README.md (tasks.examples.test.ts checks them, and that the README quotes them verbatim).
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { elicitRequest, inputRequired } from '@boomerang/protocol';
import { createNotificationHub, Server } from '@boomerang/server';
import { z } from 'zod';
import { createTasks, memoryTaskStore } from './index.js';

// #region lowlevel
const tasks = createTasks({ store: memoryTaskStore(), ttlMs: 60 * 60_000, pollIntervalMs: 2_000 });

export const reports = new Server(
  { name: 'reports', version: '1.0.0' },
  {
    extensions: [tasks.extension],
    onListTools: () => ({ tools: [{ name: 'quarterly_report', inputSchema: { type: 'object' } }] }),
    // `quarterly_report` runs as a task whenever the request declares io.modelcontextprotocol/tasks.
    onCallTool: tasks.wrapCallTool(
      async (params, ctx) => {
        await ctx.sendProgress(1, 2, 'Crunching numbers'); // becomes the task's statusMessage
        return { content: [{ type: 'text', text: `Report for ${String(params.arguments?.quarter)}` }] };
      },
      { quarterly_report: 'optional' },
    ),
  },
);
// #endregion lowlevel

// #region notifications
const watched = createTasks({ store: memoryTaskStore() });

export const deployments = new Server(
  { name: 'deployments', version: '1.0.0' },
  {
    // Enables subscriptions/listen; the tasks runtime publishes notifications/tasks into the same source.
    notifications: createNotificationHub(),
    extensions: [watched.extension],
    onCallTool: watched.wrapCallTool(
      (_params, ctx) =>
        ctx.inputResponses?.go === undefined
          ? inputRequired({
              inputRequests: {
                go: elicitRequest({
                  message: 'Deploy now?',
                  requestedSchema: { type: 'object', properties: {} },
                }),
              },
            })
          : { content: [{ type: 'text', text: 'Deployed' }] },
      { deploy: 'required' },
    ),
  },
);
// #endregion notifications

// #region mcpserver
const printing = createTasks({ store: memoryTaskStore(), pollIntervalMs: 500 });
export const printShop = new McpServer({ name: 'print-shop', version: '1.0.0' }, { tasks: printing });

const proof = resolver({ args: ['copies'] }, ({ copies }: { copies: number }) =>
  elicit(`The proof is ready. Print ${copies} copies?`, z.object({ confirm: z.boolean() })),
);

// A task when the request declares the extension (the proof is then asked mid-task, through tasks/get and
// tasks/update); for a client without it, the same question is an ordinary input_required round.
printShop.tool(
  'print_run',
  { input: z.object({ copies: z.number().int().positive() }), task: 'optional', resolve: { proof } },
  async ({ copies }, { proof: answer }, ctx) => {
    if (!answer.confirm) return { content: [{ type: 'text', text: 'Nothing printed' }] };
    for (let done = 10; done < copies; done += 10) {
      await ctx.sendProgress(done, copies, `Printed ${done} of ${copies}`); // the task's statusMessage
    }
    return { content: [{ type: 'text', text: `Printed ${copies} copies` }] };
  },
);

// #endregion mcpserver

export { printing, tasks, watched };
