import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@boomerang/transport-http', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual(['hello']);
  });
});
