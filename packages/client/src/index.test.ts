import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@boomerang/client', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual([
      'CONTINUATION_VERSION',
      'Client',
      'ClientError',
      'MAX_CALL_CARRIED',
      'SkillVerificationError',
      'SkillsClient',
      'correlate',
      'createMemoryCacheStore',
      'isClientError',
    ]);
  });
});
