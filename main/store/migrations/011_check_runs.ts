import type { Migration } from './types.js';

/** Never edit a migration that has shipped: add the next number instead. */
export const migration011: Migration = {
  version: 11,
  name: 'check runs: the battery and scenarios run against a user\'s receiver, kept with the history',
  // One row per run; its checks (verdicts, details, evidence) are one JSON array, written as each check
  // finishes, since a run is read and compared whole and never queried by check. The URL index serves
  // "the previous run of this URL" (what a run is compared with) and listCheckRuns({url}).
  up: `
    CREATE TABLE check_runs (
      id INTEGER PRIMARY KEY,
      url TEXT NOT NULL,
      status TEXT NOT NULL,
      error TEXT,
      started_at INTEGER NOT NULL,
      finished_at INTEGER,
      total INTEGER NOT NULL,
      previous_run_id INTEGER,
      options TEXT NOT NULL,
      checks TEXT NOT NULL DEFAULT '[]'
    );
    CREATE INDEX check_runs_url ON check_runs (url, id);
  `,
};
