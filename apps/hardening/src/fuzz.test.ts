// The fuzz targets at 2,000 cases each, so that every CI run exercises them (`pnpm fuzz` runs 10⁶).
import { describe, expect, it } from 'vitest';
import { runTarget, TARGETS } from './fuzz/index.js';

describe('fuzz targets (2,000 cases each)', () => {
  it.each(TARGETS.map((target) => [target.name, target] as const))('%s', async (_, target) => {
    const report = await runTarget(target, { cases: 2000 });
    expect(report.failure).toBeUndefined();
    expect(report.cases).toBe(2000);
  });
});
