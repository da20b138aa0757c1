import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { deployments, reports, tasks, watched } from './tasks.examples.js';
import { listen, pollTask, resultOf, rpc } from './test-support/wire.js';

afterAll(async () => {
  await deployments.close();
  await Promise.all([tasks.close(), watched.close()]);
});

describe('README examples', () => {
  it('README.md quotes every example region verbatim', () => {
    const source = readFileSync(new URL('./tasks.examples.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const regions = [...source.matchAll(/\/\/ #region (\w+)\n([\s\S]*?)\n+\/\/ #endregion \1/g)];
    expect(regions.map((m) => m[1])).toEqual(['lowlevel', 'notifications']);
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
});
