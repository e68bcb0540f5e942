import type { Migration } from './types.js';

/** Never edit a migration that has shipped: add the next number instead. */
export const migration008: Migration = {
  version: 8,
  name: 'lean dedupe index: messageId alone',
  // The dedupe index on (message_id, source_id, received_at) cost nearly twice the bytes and ingestion
  // work of one on message_id alone. The dedupe query (store/messageStore.ts, seenMessageIds) still filters by source and
  // time, on the rows of the ids it finds: duplicates are rare, so those reads are too.
  up: `
    DROP INDEX messages_dedupe;
    CREATE INDEX messages_dedupe ON messages (message_id);
  `,
};
