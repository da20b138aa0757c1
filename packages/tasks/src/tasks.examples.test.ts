import { readFileSync } from 'node:fs';
import { Client } from '@boomerang/client';
import { connectInMemory } from '@boomerang/transport-memory';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { deployments, printing, printShop, reports, tasks, watched } from './tasks.examples.js';
import { listen, pollTask, resultOf, rpc } from './test-support/wire.js';

afterAll(async () => {
  await deployments.close();
  await printShop.close();
  await Promise.all([tasks.close(), watched.close(), printing.close()]);
});

describe('README examples', () => {
  it('README.md quotes every example region verbatim', () => {
    const source = readFileSync(new URL('./tasks.examples.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const regions = [...source.matchAll(/\/\/ #region (\w+)\n([\s\S]*?)\n+\/\/ #endregion \1/g)];
    expect(regions.map((m) => m[1])).toEqual(['lowlevel', 'notifications', 'mcpserver']);
    for (const [, , body] of regions) expect(readme).toContain(body?.trim());
  });

  it('lowlevel: the report runs as a task and completes', async () => {
    const created = resultOf(
      await rpc(reports, 'tools/call', { name: 'quarterly_report', arguments: { quarter: 'Q3' } }),
    );
    expect(created).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 2_000 });
    const done = await pollTask(reports, created.taskId as string);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ text: 'Report for Q3' }] } });
  });

  it('notifications: a stream agreed to the task hears it resume and complete', async () => {
    const created = resultOf(await rpc(deployments, 'tools/call', { name: 'deploy', arguments: {} }));
    const taskId = created.taskId as string;
    await pollTask(deployments, taskId, (t) => t.status === 'input_required');
    const stream = listen(deployments, { taskIds: [taskId] });
    expect(await stream.ack).toEqual({ taskIds: [taskId] });
    await rpc(deployments, 'tasks/update', {
      taskId,
      inputResponses: { '1.go': { action: 'accept', content: {} } },
    });
    await vi.waitFor(() => expect(stream.sent.at(-1)?.params?.status).toBe('completed'));
    expect(stream.sent.at(-1)?.params).toMatchObject({ taskId, result: { content: [{ text: 'Deployed' }] } });
  });

  it('mcpserver: a Client with tasks gets the run’s result, the proof confirmed mid-task by its callback', async () => {
    const asked: string[] = [];
    const client = new Client(
      { name: 'host', version: '1.0.0' },
      {
        tasks: true,
        elicitation: async (params, ctx) => {
          asked.push(`${ctx.taskId === undefined ? 'round' : 'task'}: ${params.message}`);
          return { action: 'accept', content: { confirm: true } };
        },
      },
    );
    await using _link = await connectInMemory(client, printShop);
    const statuses: string[] = [];
    const result = await client.callTool(
      'print_run',
      { copies: 30 },
      { onTask: (t) => void statuses.push(t.status) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'Printed 30 copies' }]);
    expect(statuses).toEqual(['working']);
    expect(asked).toEqual(['task: The proof is ready. Print 30 copies?']);

    const plain = new Client(
      { name: 'host', version: '1.0.0' },
      { elicitation: async () => ({ action: 'accept', content: { confirm: false } }) },
    );
    await using _plain = await connectInMemory(plain, printShop);
    expect((await plain.callTool('print_run', { copies: 5 })).content).toEqual([
      { type: 'text', text: 'Nothing printed' },
    ]);
  });
});
