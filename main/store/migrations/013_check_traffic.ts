import type { Migration } from './types.js';

/** Never edit a migration that has shipped: add the next number instead. */
export const migration013: Migration = {
  version: 13,
  name: "check traffic: the messages a check run sends through the engine are the check's, not the user's",
  // `origin` is null for the user's messages and 'check' for a check run's: lists, counters and
  // troubleshooting leave those out. Adding a nullable column rewrites nothing. The partial index holds only
  // the check's rows, so the counters subtract them without reading the user's million.
  // Messages an earlier version sent through the check's own destinations are the check's too.
  up: `
    ALTER TABLE messages ADD COLUMN origin TEXT;
    CREATE INDEX messages_origin ON messages (status) WHERE origin IS NOT NULL;
    UPDATE messages SET origin = 'check' WHERE id IN (
      SELECT message_id FROM deliveries
      WHERE destination_name IN ('hookbench check', 'hookbench check (another secret)', 'hookbench check (unsigned)')
    );
  `,
};
