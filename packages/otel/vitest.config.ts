import { defineProject } from 'vitest/config';

// The shared settings without the `module` condition: @opentelemetry/api's `module` build imports its files
// without extensions, which node's ESM loader cannot resolve; its `default` (CommonJS) build is what node loads.
const conditions = ['@boomerang/source', 'import', 'node', 'default'];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@boomerang/source'] } },
  test: {
    name: 'otel',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
