import { describe, it } from 'vitest';
import { memoryTaskStore } from './memory-store.js';
import { taskStoreChecks } from './testing.js';

describe('memoryTaskStore: the TaskStore contract', () => {
  for (const check of taskStoreChecks()) it(check.name, () => check.run(memoryTaskStore()));
});
