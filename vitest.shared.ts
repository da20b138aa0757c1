import { defineConfig } from 'vitest/config';

/** Tests read workspace packages from source through this export condition; `exports` itself points at dist. */
const conditions = ['@boomerang/source', 'import', 'module', 'node', 'default'];

/** The vitest settings every package shares; each package's `vitest.config.ts` extends it. */
export const sharedConfig = defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@boomerang/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
