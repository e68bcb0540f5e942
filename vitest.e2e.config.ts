import { defineConfig } from 'vitest/config';

/** End-to-end: a real `hookbench serve` and Debian's Chromium (`npm run test:e2e`, part of `npm test`). */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    globalSetup: ['test/e2e/globalSetup.ts'],
    pool: 'forks',
    // Two files at once (each its own serve and browser): most of an end-to-end test waits on one of them.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', ['./test/helpers/closingLineReporter.ts', { addFrom: 'test-results/unit-counts.json', label: 'e2e' }]],
  },
});
