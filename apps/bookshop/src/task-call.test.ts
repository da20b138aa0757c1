import { createTasks, memoryTaskStore } from '@boomerang/tasks';
import { listen } from '@boomerang/transport-http/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookshopServer } from './bookshop.js';
import { scriptedCallbacks } from './callbacks.js';
import { runTaskCall } from './task-call.js';

const tasks = createTasks({ store: memoryTaskStore(), pollIntervalMs: 20 });
let endpoint: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  endpoint = await listen(createBookshopServer({ tasks, printBatchMs: 1, logger: {} }), {
    port: 0,
    host: '127.0.0.1',
  });
});
afterAll(async () => {
  await endpoint.close();
  await tasks.close();
});

async function call(tool: string, args: Record<string, unknown>, refuse?: 'decline') {
  const lines: string[] = [];
  const out = (line: string) => lines.push(line);
  const callbacks = scriptedCallbacks({ cwd: '/tmp/shop', refuse }, out);
  const result = await runTaskCall(tool, args, { url: endpoint.url, callbacks }, out);
  return { lines, result };
}

describe('runTaskCall', () => {
  it('follows a task to its result, answering each question once', async () => {
    const { lines, result } = await call('print_run', { title: 'Solaris', copies: 3 });
    expect(result.content).toEqual([{ type: 'text', text: 'Printed 3 copies of "Solaris" on matte paper.' }]);
    expect(lines.filter((l) => l.startsWith('→ tasks/update'))).toHaveLength(1);
  });

  it('returns a declined question as the tool decided (an isError result), and a plain result as is', async () => {
    const declined = await call('print_run', { title: 'Dune', copies: 3 }, 'decline');
    expect(declined.result).toMatchObject({
      isError: true,
      content: [{ text: "Resolver for 'proof' could not resolve: elicitation was declined" }],
    });
    const plain = await call('check_stock', { title: 'Dune' });
    expect(plain.lines).toContain('← complete: the server answered without a task');
    expect(plain.result.content).toEqual([
      { type: 'text', text: '"Dune" by Frank Herbert: 3 in stock, EUR 12.50.' },
    ]);
  });
});
