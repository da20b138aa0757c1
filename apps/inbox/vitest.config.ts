import { defineProject } from 'vitest/config';

// As vitest.shared.ts, but without the `import` condition among the ones vitest hands Node (`--conditions`):
// with it, `pg` (CommonJS) would `require` pg-pool's ESM wrapper. Node adds `import` / `require` itself. Longer
// timeouts: these tests start PGlite, PostgreSQL, MCP servers and a browser.
const conditions = ['@boomerang/source', 'node', 'default'];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@boomerang/source'] } },
  test: {
    name: 'inbox',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
