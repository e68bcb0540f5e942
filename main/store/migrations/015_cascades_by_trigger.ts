import type { Migration } from './types.js';

/** Never edit a migration that has shipped: add the next number instead. */
export const migration015: Migration = {
  version: 15,
  name: 'cascades by trigger, through the indexes that exist; foreign keys declared, not enforced',
  // The engine's connection no longer enforces foreign keys (store/openDb.ts). Enforced, they cost every
  // message, payload, delivery and attempt row a lookup of its parent, and ON DELETE CASCADE from a delivery
  // read the whole attempts table (attempts has no index by delivery since migration 004), for every delivery
  // retention removed. These triggers do what the cascades did, and a delivery's attempts are found through
  // attempts_message. The REFERENCES clauses stay: PRAGMA foreign_key_check and a
  // salvage (store/salvage.ts, which enforces them on its own connection) still read them.
  up: `
    CREATE TRIGGER messages_cascade AFTER DELETE ON messages
    BEGIN
      DELETE FROM message_payloads WHERE message_id = old.id;
      DELETE FROM deliveries WHERE message_id = old.id;
    END;
    CREATE TRIGGER deliveries_cascade AFTER DELETE ON deliveries
    BEGIN
      DELETE FROM attempts WHERE message_id = old.message_id AND delivery_id = old.id;
    END;
    CREATE TRIGGER destinations_cascade AFTER DELETE ON destinations
    BEGIN
      DELETE FROM destination_sources WHERE destination_id = old.id;
    END;
    CREATE TRIGGER sources_cascade AFTER DELETE ON sources
    BEGIN
      DELETE FROM destination_sources WHERE source_id = old.id;
      DELETE FROM source_usage WHERE source_id = old.id;
      DELETE FROM audiences WHERE source_id = old.id;
    END;
    CREATE TRIGGER audiences_cascade AFTER DELETE ON audiences
    BEGIN
      DELETE FROM audience_state WHERE audience_id = old.id;
    END;
  `,
};
