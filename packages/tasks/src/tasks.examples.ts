// Examples quoted into README.md (tasks.examples.test.ts checks them, and that the README quotes them verbatim).
import { Server } from '@boomerang/server';
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

export { tasks };
