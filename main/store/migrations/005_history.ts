import type { Migration } from './types.js';

/** Never edit a migration that has shipped: add the next number instead. */
export const migration005: Migration = {
  version: 5,
  name: 'history: status and time indexes; a search index and filter facets kept off the hot path',
  // Without these, a rare filter value scans the whole table. Each index on the messages or deliveries
  // table is paid on the hot path, so only two are: `status` (it changes, so it cannot wait) and
  // `received_at` (always appended at the end, so cheap). The immutable filters (type, source, user, event,
  // destinations) and the bodies' trigram search would cost ingestion far more; they go into the history_*
  // tables and message_search instead, which the
  // history indexer (main/history/historyIndexer.ts) fills when the core is not busy, up to
  // history_state.covered. Queries read those up to that watermark and scan the rest
  // (main/store/messageQueries.ts).
  up: `
    CREATE INDEX messages_status ON messages (status);
    CREATE INDEX messages_received ON messages (received_at);
    -- The overview's failures of the last hour; a delivery enters it only when it fails.
    CREATE INDEX deliveries_failed ON deliveries (updated_at) WHERE status = 'failed';

    -- covered: every message with id <= covered is in history_facets, history_late and message_search.
    -- max_received: the latest received_at among those messages.
    CREATE TABLE history_state (
      id           INTEGER PRIMARY KEY CHECK (id = 1),
      covered      INTEGER NOT NULL,
      max_received INTEGER
    );
    INSERT INTO history_state (id, covered, max_received) VALUES (1, 0, NULL);
    -- One key per filter value: 'type:track', 'source:<id>', 'user:<id>', 'event:<name>', 'dest:<id>'.
    CREATE TABLE history_keys (
      key   INTEGER PRIMARY KEY,
      facet TEXT NOT NULL UNIQUE
    );
    -- The messages of each filter value, in id order: a page is a range read backwards.
    CREATE TABLE history_facets (
      key INTEGER NOT NULL,
      id  INTEGER NOT NULL,
      PRIMARY KEY (key, id)
    ) WITHOUT ROWID;
    -- Messages received earlier than one before them (the clock was put back). Every other covered
    -- message's received_at grows with its id, so a time range is an id range, plus these.
    CREATE TABLE history_late (id INTEGER PRIMARY KEY);
    -- Substrings of the delivered bodies: trigrams, case-folded. Contentless (the body is in
    -- message_payloads) and without positions (detail=none: a query is an AND of trigrams, a superset that
    -- LIKE then checks), which halves its size and cost.
    CREATE VIRTUAL TABLE message_search USING fts5(body, content='', contentless_delete=1, tokenize='trigram', detail=none);

    -- A deleted message leaves the history tables. Its deliveries are still there before the delete.
    CREATE TRIGGER history_forget BEFORE DELETE ON messages
    WHEN old.id <= (SELECT covered FROM history_state)
    BEGIN
      DELETE FROM history_facets WHERE id = old.id AND key IN (
        SELECT key FROM history_keys
        WHERE facet IN ('type:' || old.type, 'source:' || old.source_id, 'user:' || old.user_id, 'event:' || old.event)
        UNION
        SELECT k.key FROM deliveries d JOIN history_keys k ON k.facet = 'dest:' || d.destination_id WHERE d.message_id = old.id
      );
      DELETE FROM history_late WHERE id = old.id;
      DELETE FROM message_search WHERE rowid = old.id;
    END;
    -- Ids below the watermark can be given again once the newest messages are gone: lower it.
    CREATE TRIGGER history_forget_newest AFTER DELETE ON messages
    WHEN old.id <= (SELECT covered FROM history_state)
    BEGIN
      UPDATE history_state SET covered = (SELECT coalesce(max(id), 0) FROM messages)
      WHERE covered > (SELECT coalesce(max(id), 0) FROM messages);
    END;
  `,
};
