import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';

describe('README examples', () => {
  it('README.md quotes every example region verbatim', () => {
    const source = readFileSync(new URL('./protocol.examples.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const regions = [...source.matchAll(/\/\/ #region (\w+)\n([\s\S]*?)\n+\/\/ #endregion \1/g)];
    expect(regions.map((m) => m[1])).toEqual(['wire', 'round']);
    for (const [, , body] of regions) expect(readme).toContain(body?.trim());
  });

  it('runs: asks, then greets, and answers bad JSON with -32700', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await import('./protocol.examples.js');
      expect(log.mock.calls[0]).toEqual([true]);
      expect(log.mock.calls[1]).toEqual([
        {
          jsonrpc: '2.0',
          id: 2,
          result: { resultType: 'complete', content: [{ type: 'text', text: 'Hello, Ada!' }] },
        },
      ]);
      expect(log.mock.calls[2]?.[0]).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    } finally {
      log.mockRestore();
    }
  });
});
