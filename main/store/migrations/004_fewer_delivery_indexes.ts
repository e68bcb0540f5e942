import type { Migration } from './types.js';

/** Never edit a migration that has shipped: add the next number instead. */
export const migration004: Migration = {
  version: 4,
  name: 'two indexes fewer on the delivery path: attempts by delivery, deliveries by destination',
  // Every delivery paid an entry in each on the engine's hot path, for readers that hardly exist: attempts of one delivery (no caller;
  // attempts are read by message) and the deliveries a deleted destination cancels, a rare action that now
  // scans the deliveries table.
  up: `
    DROP INDEX attempts_delivery;
    DROP INDEX deliveries_destination;
  `,
};
