import type { Migration } from './types.js';

/** Never edit a migration that has shipped: add the next number instead. */
export const migration006: Migration = {
  version: 6,
  name: 'ingest log: the limit a refused request exceeded',
  up: `
    -- The bound a refusal names (bytes, nesting levels), so the ingest log can show it beside the field.
    -- Rows logged before this migration have none.
    ALTER TABLE ingest_log ADD COLUMN limit_value INTEGER;
  `,
};
