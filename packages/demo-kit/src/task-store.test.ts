import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TaskRecord } from '@boomerang/tasks';
import { afterAll, describe, expect, it } from 'vitest';
import { openTaskStore } from './task-store.js';

const parent = mkdtempSync(join(tmpdir(), 'everything-task-store-test-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const record: TaskRecord = {
  taskId: 'kept',
  owner: '',
  status: 'working',
  createdAt: 1,
  lastUpdatedAt: 1,
  ttlMs: null,
  pollIntervalMs: 200,
  version: 1,
  leaseUntil: null,
  method: 'tools/call',
  params: { name: 'slow_compute', arguments: { seconds: 1 } },
  origin: { protocolVersion: '2026-07-28', clientCapabilities: {} },
  round: 0,
};

describe('openTaskStore', () => {
  it('keeps a given folder: a store opened on it again finds the tasks', async () => {
    const dataDir = join(parent, 'data');
    const first = openTaskStore(dataDir);
    expect(first).toMatchObject({ dataDir, temporary: false });
    await first.store.create(record);
    await first.close();
    const again = openTaskStore(dataDir);
    expect(await again.store.get('kept')).toEqual(record);
    await again.close();
  }, 120_000);
});
