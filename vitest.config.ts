import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    pool: 'forks',
    // Vitest would take one worker on a 2-core machine (cores - 1); most files wait on sockets and timers,
    // so two at once use the second core. Tests wait on state, never on time, so sharing a core is safe.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default', ['./test/helpers/closingLineReporter.ts', { saveTo: 'test-results/unit-counts.json' }]],
  },
});
