import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default', ['./test/helpers/closingLineReporter.ts', { saveTo: 'test-results/unit-counts.json' }]],
  },
});
