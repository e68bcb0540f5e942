import type { Migration } from './types.js';

/** Never edit a migration that has shipped: add the next number instead. */
export const migration009: Migration = {
  version: 9,
  name: 'failed deliveries by message: "any delivery failed" read in message order',
  // Partial like deliveries_failed (005): a delivery enters it only when it fails for good and leaves it on
  // a retry, so deliveries that succeed pay nothing. It leads listMessages' `delivery: failed` filter
  // newest message first, so a rare failure among a million messages is a range read, not a scan.
  up: `
    CREATE INDEX deliveries_failed_message ON deliveries (message_id) WHERE status = 'failed';
  `,
};
