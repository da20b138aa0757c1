import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TASKS_EXTENSION } from '@boomerang/tasks';
import { describe, expect, it } from 'vitest';
import { printShop } from './postgres.examples.js';

describe('README examples', () => {
  it('README.md quotes every example region verbatim', () => {
    const source = readFileSync(new URL('./postgres.examples.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const regions = [...source.matchAll(/\/\/ #region (\w+)\n([\s\S]*?)\n+\s*\/\/ #endregion \1/g)];
    expect(regions.map((m) => m[1])).toEqual(['pglite']);
    for (const [, , body] of regions) {
      const dedented = (body as string).replace(/^ {2}/gm, '').trim();
      expect(readme).toContain(dedented);
    }
  });

  it('pglite: a task is stored on disk and completes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'boomerang-example-'));
    const { db, tasks, mcp } = printShop(dir);
    try {
      const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
      };
      const created = (await mcp.handle({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'print_run', _meta: meta },
      })) as unknown as { result: { taskId: string } };
      await tasks.idle();
      const got = (await mcp.handle({
        jsonrpc: '2.0',
        id: 2,
        method: 'tasks/get',
        params: { taskId: created.result.taskId, _meta: meta },
      })) as unknown as { result: Record<string, unknown> };
      expect(got.result).toMatchObject({ status: 'completed', result: { content: [{ text: 'Printed' }] } });
    } finally {
      await tasks.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
