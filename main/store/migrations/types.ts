import type Database from 'better-sqlite3';

export interface Migration {
  /** 1, 2, 3, ...: stored in PRAGMA user_version once applied. */
  version: number;
  name: string;
  /** SQL, or a function for data migrations. Runs inside the migration's transaction. */
  up: string | ((db: Database.Database) => void);
}
