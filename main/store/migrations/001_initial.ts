import type { Migration } from './types.js';

/** Never edit a migration that has shipped: add the next number instead. */
export const migration001: Migration = {
  version: 1,
  name: 'initial schema: settings, sources, destinations, messages, deliveries, attempts',
  up: `
    CREATE TABLE settings (
      key   TEXT PRIMARY KEY,
      value TEXT NOT NULL
    );

    CREATE TABLE sources (
      id         TEXT PRIMARY KEY,
      name       TEXT NOT NULL UNIQUE,
      kind       TEXT NOT NULL CHECK (kind IN ('web', 'mobile', 'server')),
      write_key  TEXT NOT NULL UNIQUE,
      created_at INTEGER NOT NULL
    );

    CREATE TABLE destinations (
      id         TEXT PRIMARY KEY,
      name       TEXT NOT NULL UNIQUE,
      enabled    INTEGER NOT NULL,
      config     TEXT NOT NULL,          -- JSON: webhooks, sharedSecret, caFile, timeoutMs, retry, filters
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );

    CREATE TABLE destination_sources (
      destination_id TEXT NOT NULL REFERENCES destinations(id) ON DELETE CASCADE,
      source_id      TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
      PRIMARY KEY (destination_id, source_id)
    );

    CREATE TABLE messages (
      id            INTEGER PRIMARY KEY,
      message_id    TEXT NOT NULL,
      source_id     TEXT,
      type          TEXT NOT NULL,
      user_id       TEXT,
      anonymous_id  TEXT,
      event         TEXT,
      received_at   INTEGER NOT NULL,
      status        TEXT NOT NULL,
      status_reason TEXT,
      replay_of     INTEGER
    );
    -- Immutable and large, apart from the hot, small message row whose status changes on every round.
    CREATE TABLE message_payloads (
      message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
      body       BLOB NOT NULL,            -- the exact bytes sent and signed
      call       TEXT NOT NULL             -- the call as received (JSON)
    );
    CREATE INDEX messages_dedupe ON messages (message_id, source_id, received_at);

    CREATE TABLE deliveries (
      id               INTEGER PRIMARY KEY,
      message_id       INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
      destination_id   TEXT NOT NULL,       -- no FK: a deleted destination's history stays
      destination_name TEXT NOT NULL,
      status           TEXT NOT NULL,
      reason           TEXT,
      attempts         INTEGER NOT NULL DEFAULT 0,
      first_attempt_at INTEGER,
      next_attempt_at  INTEGER,
      pending_urls     TEXT,                -- JSON array; null = every webhook of the destination
      updated_at       INTEGER NOT NULL
    );
    CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status IN ('queued', 'retrying');
    CREATE INDEX deliveries_message ON deliveries (message_id);
    CREATE INDEX deliveries_destination ON deliveries (destination_id);

    CREATE TABLE attempts (
      id                 INTEGER PRIMARY KEY,
      delivery_id        INTEGER NOT NULL REFERENCES deliveries(id) ON DELETE CASCADE,
      message_id         INTEGER NOT NULL,
      attempt_number     INTEGER NOT NULL,
      webhook_index      INTEGER NOT NULL,
      url                TEXT NOT NULL,
      outcome            TEXT NOT NULL,
      retryable          INTEGER NOT NULL,
      status_code        INTEGER,
      error              TEXT,
      started_at         INTEGER NOT NULL,
      finished_at        INTEGER NOT NULL,
      duration_ms        REAL NOT NULL,
      request_headers    TEXT NOT NULL,     -- JSON; the body sent is messages.body, byte for byte
      signature          TEXT,
      response_headers   TEXT,
      response_body      BLOB,
      response_truncated INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX attempts_delivery ON attempts (delivery_id);
    CREATE INDEX attempts_message ON attempts (message_id);
  `,
};
