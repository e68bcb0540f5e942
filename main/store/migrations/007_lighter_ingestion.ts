import type { Migration } from './types.js';

/** Never edit a migration that has shipped: add the next number instead. */
export const migration007: Migration = {
  version: 7,
  name: 'lighter ingestion: who saw a user is read from the history index',
  // messages_user was a large share of each ingested message's SQLite work, because user ids arrive in no
  // order and every insert dirtied a different page. Its one reader, "which sources saw this user" for a deletion request, reads
  // the history index's user facets and the messages past its watermark instead
  // (store/messageQueries.ts, sourcesThatSaw).
  up: `
    DROP INDEX messages_user;
  `,
};
