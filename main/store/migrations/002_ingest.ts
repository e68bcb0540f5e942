import type { Migration } from './types.js';

/** Never edit a migration that has shipped: add the next number instead. */
export const migration002: Migration = {
  version: 2,
  name: 'ingestion: refusal log, source usage, user traits, deletion requests, audiences and computed traits',
  up: `
    -- Refused ingest requests are not messages; each is kept here with its reason (docs/behaviour.md §2, §6).
    CREATE TABLE ingest_log (
      id           INTEGER PRIMARY KEY,
      received_at  INTEGER NOT NULL,
      source_id    TEXT,                  -- null when the write key was missing or unknown
      route        TEXT NOT NULL,
      client_ip    TEXT,
      http_status  INTEGER NOT NULL,
      code         TEXT NOT NULL,
      message      TEXT NOT NULL,
      field        TEXT,
      item_index   INTEGER,
      body_bytes   INTEGER,
      body_preview BLOB                   -- the first 4 KiB of the (decoded) body
    );
    CREATE INDEX ingest_log_received ON ingest_log (received_at);

    CREATE TABLE source_usage (
      source_id TEXT PRIMARY KEY REFERENCES sources(id) ON DELETE CASCADE,
      received  INTEGER NOT NULL DEFAULT 0,  -- calls received
      accepted  INTEGER NOT NULL DEFAULT 0,  -- calls stored as messages (delivered or filtered)
      refused   INTEGER NOT NULL DEFAULT 0,  -- calls in refused requests
      filtered  INTEGER NOT NULL DEFAULT 0   -- accepted calls routed nowhere
    );

    -- Which sources have seen a user, for deletion requests.
    CREATE INDEX messages_user ON messages (user_id, source_id);

    -- Traits stored from identify calls, per source: what audience rules and computed traits read.
    CREATE TABLE user_traits (
      source_id  TEXT NOT NULL,
      user_id    TEXT NOT NULL,
      traits     TEXT NOT NULL,            -- JSON, merged from every identify
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (source_id, user_id)
    );

    CREATE TABLE deletion_requests (
      id          INTEGER PRIMARY KEY,
      user_id     TEXT NOT NULL,
      created_at  INTEGER NOT NULL,
      source_ids  TEXT NOT NULL,           -- JSON: the affected sources
      message_ids TEXT NOT NULL            -- JSON: the delete messages it created
    );

    CREATE TABLE audiences (
      id         TEXT PRIMARY KEY,
      source_id  TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
      kind       TEXT NOT NULL CHECK (kind IN ('audience', 'computed_trait')),
      name       TEXT NOT NULL,
      trait_key  TEXT NOT NULL,            -- snake_case(name)
      definition TEXT NOT NULL,            -- JSON: members and/or rule, or the computed value
      created_at INTEGER NOT NULL,
      synced_at  INTEGER,
      UNIQUE (source_id, kind, name)
    );

    -- The value each user had at the last sync (membership true/false, or the computed trait's value).
    CREATE TABLE audience_state (
      audience_id TEXT NOT NULL REFERENCES audiences(id) ON DELETE CASCADE,
      user_id     TEXT NOT NULL,
      value       TEXT NOT NULL,           -- JSON
      PRIMARY KEY (audience_id, user_id)
    );
  `,
};
