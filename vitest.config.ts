import { defineConfig } from 'vitest/config';

// One run over every package and app; each project carries its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
