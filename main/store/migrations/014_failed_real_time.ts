import type { Migration } from './types.js';

/** Never edit a migration that has shipped: add the next number instead. */
export const migration014: Migration = {
  version: 14,
  name: 'failures on the real clock: when a delivery failed, in real time, whatever the engine clock said',
  // Time travel moves the engine clock, not the hour a user lives: "failed in the last hour" counts by the real
  // time a delivery failed, so a jump's failures count as just now and Reset offset changes nothing. Partial,
  // like deliveries_failed: only failed deliveries are in it. Failures stored before this version keep their
  // engine time as their real time (the best there is: most ran without an offset).
  up: `
    ALTER TABLE deliveries ADD COLUMN failed_real_at INTEGER;
    UPDATE deliveries SET failed_real_at = updated_at WHERE status = 'failed';
    CREATE INDEX deliveries_failed_real ON deliveries (failed_real_at) WHERE status = 'failed';
  `,
};
