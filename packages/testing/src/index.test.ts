import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@boomerang/testing', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual(['errorOf', 'resultOf', 'transportSuite']);
  });
});
