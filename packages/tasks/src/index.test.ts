import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import * as testing from './testing.js';

describe('@boomerang/tasks', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual([
      'INTERRUPTED',
      'TASKS_EXTENSION',
      'TASK_QUOTA_EXCEEDED',
      'TASK_STATUSES',
      'TaskLimitError',
      'createTasks',
      'expiresAt',
      'isTerminal',
      'memoryTaskStore',
    ]);
    expect(Object.keys(testing).sort()).toEqual(['sampleRecord', 'taskStoreChecks']);
  });
});
