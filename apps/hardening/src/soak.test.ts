// A soak of a few seconds, so that every CI run exercises the program `pnpm soak` runs for ten minutes.
import { describe, expect, it } from 'vitest';
import { runSoak } from './soak-main.js';

describe('runSoak', () => {
  it('completes two-round flows with aborts mixed in, keeps a listen stream fed, reports, and fails nothing', async () => {
    const lines: string[] = [];
    const summary = await runSoak({ flows: 4, durationMs: 2000, reportEveryMs: 700, abortEvery: 3 }, (line) =>
      lines.push(line),
    );
    expect(summary.failures).toEqual([]);
    expect(summary.failed).toBe(0);
    expect(summary.completed).toBeGreaterThan(0);
    expect(summary.aborted + summary.completed).toBeGreaterThan(summary.completed);
    expect(summary.notifications).toBeGreaterThan(0);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines[0]).toMatch(
      /^\[0:01\] flows [\d,]+ completed, 0 failed, [\d,]+ aborted \| p99 [\d.]+ ms \| rss [\d.]+ MiB, (?:live )?heap [\d.]+\/[\d.]+ MiB, external [\d.]+ MiB \| listen: [\d,]+ notifications$/,
    );
  });
});
