import type { Migration } from './types.js';

/** Never edit a migration that has shipped: add the next number instead. */
export const migration003: Migration = {
  version: 3,
  name: 'mock receiver: endpoints with response scripts, captured requests',
  up: `
    CREATE TABLE receivers (
      name       TEXT PRIMARY KEY,         -- the URL path segment: <receiverUrl>/r/<name>
      secret     TEXT,                     -- null: no signature check
      script     TEXT NOT NULL,            -- JSON ResponseScript (normalised)
      answered   INTEGER NOT NULL DEFAULT 0, -- requests answered under the current script (sequence position)
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );

    CREATE TABLE captures (
      id                 INTEGER PRIMARY KEY,
      receiver           TEXT,             -- no FK: captures outlive a deleted endpoint
      matched            INTEGER NOT NULL, -- 0: no endpoint matched, answered 404
      listener           TEXT NOT NULL CHECK (listener IN ('http', 'https')),
      method             TEXT NOT NULL,
      path               TEXT NOT NULL,
      raw_headers        TEXT NOT NULL,    -- JSON [[name, value], ...] as received
      body               BLOB NOT NULL,    -- the exact bytes (the first 1 MiB)
      body_size          INTEGER NOT NULL,
      body_truncated     INTEGER NOT NULL,
      arrived_at         INTEGER NOT NULL, -- engine time
      remote_address     TEXT,
      step               TEXT NOT NULL,    -- JSON CaptureStep: which script step answered
      signature_verdict  TEXT CHECK (signature_verdict IN ('valid', 'invalid', 'missing')),
      signature          TEXT,             -- JSON SignatureCheck; null when the endpoint has no secret
      message_id         TEXT              -- messageId of the JSON body: links to messages.message_id
    );
    CREATE INDEX captures_receiver ON captures (receiver, id);
    CREATE INDEX captures_message ON captures (message_id);
  `,
};
