import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@boomerang/postgres', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual([
      'MIGRATIONS',
      'NOTIFY_INLINE_BYTES',
      'migrate',
      'postgresNotifications',
      'postgresTaskStore',
    ]);
  });
});
