import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@boomerang/client', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual([
      'Client',
      'ClientError',
      'ClientSession',
      'correlate',
      'createMemoryCacheStore',
      'isClientError',
    ]);
  });
});
