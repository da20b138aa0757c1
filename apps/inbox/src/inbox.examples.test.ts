import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CountingServer, startCountingServer } from './counting-server.js';
import { approvals, extraResumer } from './inbox.examples.js';

let counting: CountingServer;
const dir = mkdtempSync(join(tmpdir(), 'inbox-examples-'));
beforeAll(async () => {
  counting = await startCountingServer();
});
afterAll(async () => {
  await counting?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('README examples', () => {
  it('README.md quotes every example region verbatim', () => {
    const source = readFileSync(new URL('./inbox.examples.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const regions = [...source.matchAll(/\/\/ #region (\w+)\n([\s\S]*?)\n+\s*\/\/ #endregion \1/g)];
    expect(regions.map((m) => m[1])).toEqual(['embed', 'resumer']);
    for (const [, , body] of regions)
      expect(readme).toContain((body as string).replace(/^ {2}/gm, '').trim());
  });

  it('embed parks the job for alice; an extra resumer on the same store finishes it once answered', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const inbox = await approvals(counting.url.href, join(dir, 'flows'));
    try {
      expect(log).toHaveBeenCalledWith(
        expect.stringMatching(/^Questions for alice: http:\/\/127\.0\.0\.1:\d+\/sign-in\?token=/),
      );
      const [flow] = inbox.started;
      expect(flow).toMatchObject({ status: 'pending', answerers: ['alice'], server: 'deploy' });
      // The inbox's own resumer would do; stop it, so the extra one (same store) is the one that resumes.
      await Promise.all(inbox.resumers.map((r) => r.stop()));
      const resumer = extraResumer(inbox.database.db, counting.url.href);
      const key = Object.keys(flow?.continuation?.inputRequests ?? {})[0] as string;
      await inbox.store.answer(
        flow?.id as string,
        1,
        { [key]: { action: 'accept', content: { ok: true } } },
        'alice',
      );
      resumer.wake();
      await vi.waitFor(
        async () => expect((await inbox.store.get(flow?.id as string))?.status).toBe('completed'),
        {
          timeout: 20_000,
        },
      );
      await resumer.stop();
      expect(counting.runs.get(7)).toBe(1);
    } finally {
      log.mockRestore();
      await inbox.close();
    }
  });
});
