import { defineConfig } from 'vitest/config';

/** End-to-end: a real `hookbench serve` and Debian's Chromium (`npm run test:e2e`, part of `npm test`). */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    globalSetup: ['test/e2e/globalSetup.ts'],
    pool: 'forks',
    // Two shared cores: one browser at a time.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/helpers/closingLineReporter.ts'],
  },
});
