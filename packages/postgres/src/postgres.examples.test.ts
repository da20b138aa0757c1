import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKey } from '@boomerang/seal';
import { TASKS_EXTENSION } from '@boomerang/tasks';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it, vi } from 'vitest';
import { fleetOfTwo, printShop } from './postgres.examples.js';

describe('README examples', () => {
  it('README.md quotes every example region verbatim', () => {
    const source = readFileSync(new URL('./postgres.examples.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const regions = [...source.matchAll(/\/\/ #region (\w+)\n([\s\S]*?)\n+\s*\/\/ #endregion \1/g)];
    expect(regions.map((m) => m[1])).toEqual(['pglite', 'notifications']);
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

  it('notifications: a tool registered on one instance is announced to the subscribers of the other', async () => {
    const db = new PGlite();
    const { first, second, sources } = fleetOfTwo(db, [generateKey()]);
    try {
      const heard: string[] = [];
      await (sources[1] as (typeof sources)[number]).subscribe({ toolsListChanged: true }, (n) =>
        heard.push(n.method),
      );
      first.tool('print_run', {}, () => ({ content: [] }));
      await vi.waitFor(() => expect(heard).toEqual(['notifications/tools/list_changed']), {
        timeout: 30_000,
      });
    } finally {
      await Promise.all([first.close(), second.close()]);
      await Promise.all(sources.map((source) => source.close()));
      await db.close();
    }
  }, 60_000);
});
