import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { reports, tasks } from './tasks.examples.js';
import { pollTask, resultOf, rpc } from './test-support/wire.js';

afterAll(() => tasks.close());

describe('README examples', () => {
  it('README.md quotes every example region verbatim', () => {
    const source = readFileSync(new URL('./tasks.examples.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const regions = [...source.matchAll(/\/\/ #region (\w+)\n([\s\S]*?)\n+\/\/ #endregion \1/g)];
    expect(regions.map((m) => m[1])).toEqual(['lowlevel']);
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
});
