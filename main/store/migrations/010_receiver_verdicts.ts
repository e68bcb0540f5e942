import type { Migration } from './types.js';

/** Never edit a migration that has shipped: add the next number instead. */
export const migration010: Migration = {
  version: 10,
  name: 'the attempt a capture is of; the due time that fell past a delivery\'s retry window',
  // A capture of the mock receiver names the attempt that sent it (the engine told the receiver what it was
  // about to send, in-process), so the receiver's verdict shows on that attempt and its message. A delivery
  // that failed with "retry window exhausted" keeps the window's end (next_attempt_at keeps the due time
  // that fell past it), so the UI and the CLI can say why no further attempt came. Both columns are NULL in
  // rows of earlier versions: those captures link to nothing, those failures say only the reason.
  up: `
    ALTER TABLE captures ADD COLUMN attempt_message INTEGER;
    ALTER TABLE captures ADD COLUMN attempt_delivery INTEGER;
    ALTER TABLE captures ADD COLUMN attempt_number INTEGER;
    ALTER TABLE captures ADD COLUMN attempt_webhook INTEGER;
    CREATE INDEX captures_attempt ON captures (attempt_message) WHERE attempt_message IS NOT NULL;
    ALTER TABLE deliveries ADD COLUMN window_ends_at INTEGER;
  `,
};
