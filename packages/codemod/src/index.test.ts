import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@boomerang/codemod', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual(['migrate', 'migrateText', 'report', 'runCli']);
  });
});
