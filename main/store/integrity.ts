/**
 * Whether the database can still keep what it is given (docs/behaviour.md, "Data"). Two things break that
 * silently and are checked here:
 *
 * - The file is deleted or replaced while Hookbench runs. SQLite keeps writing through its open handle, to a
 *   file no restart will find: every 200 after that would be a lie. The path's device and inode are compared
 *   with those the database was opened with: one stat() call (~1 µs measured here), made once per ingestion
 *   commit and per typed-API write, and every second by `watch` when idle; never once per message.
 * - The file is damaged (see checkDatabase, and corruption errors met while running).
 *
 * Once a problem is found it stays: writes are refused (`unavailable`, HTTP 503) with a message that names
 * the file and the way out, and listeners (serve's log) hear it once.
 */
import { statSync } from 'node:fs';
import type { ApiError } from '../contract/result.js';

interface Identity {
  dev: number;
  ino: number;
}

function identityOf(file: string): Identity | 'gone' | null {
  try {
    const st = statSync(file, { throwIfNoEntry: false });
    return st ? { dev: st.dev, ino: st.ino } : 'gone';
  } catch {
    return null; // not readable (e.g. permissions): cannot tell
  }
}

export class DbHealth {
  private readonly identity: Identity | null;
  private failure: ApiError | null = null;
  private readonly listeners = new Set<(error: ApiError) => void>();

  constructor(readonly file: string) {
    const id = identityOf(file);
    this.identity = typeof id === 'object' ? id : null;
  }

  /** The problem in force, if any. No system call: safe on every request. */
  get problem(): ApiError | null {
    return this.failure;
  }

  /** Checks that the file at the path is still the one open (one stat call); returns the problem, if any. */
  verify(): ApiError | null {
    if (this.failure || !this.identity) return this.failure;
    const now = identityOf(this.file);
    if (now === 'gone') {
      this.fail({
        code: 'unavailable',
        message: `database file ${this.file} was deleted while Hookbench was running: nothing more can be stored, so writes are refused. Stop Hookbench and start it again to begin a new database (or restore the file first).`,
      });
    } else if (now && (now.dev !== this.identity.dev || now.ino !== this.identity.ino)) {
      this.fail({
        code: 'unavailable',
        message: `database file ${this.file} was replaced by another file while Hookbench was running: writes are refused so that nothing goes to the old one. Restart Hookbench to open the file that is there now.`,
      });
    }
    return this.failure;
  }

  /** Records a problem (the first one stands) and tells the listeners. */
  fail(error: ApiError): void {
    if (this.failure) return;
    this.failure = error;
    for (const listener of this.listeners) {
      try {
        listener(error);
      } catch (e) {
        console.error('hookbench: a database health listener failed', e);
      }
    }
  }

  /** Hears the first problem (at once if there already is one); returns the unsubscribe function. */
  onFailure(listener: (error: ApiError) => void): () => void {
    if (this.failure) {
      listener(this.failure);
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Verifies every `intervalMs` (an unref'd timer), so that a problem is noticed while idle too. */
  watch(intervalMs = 1000): () => void {
    const timer = setInterval(() => {
      if (this.verify()) clearInterval(timer);
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}

/** SQLite result codes that mean the file is damaged (extended codes start with these). */
export function isCorruptionError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/** The refusal for a damaged database: names the file and the way out. */
export function corruptionError(file: string, detail: string): ApiError {
  return {
    code: 'unavailable',
    message: `database file ${file} is damaged (${detail}): Hookbench will not write to it. Stop Hookbench, move the file aside (with its -wal and -shm files) and start again for a fresh database; \`hookbench doctor --data-dir DIR\` checks it fully and explains how to recover what it holds.`,
  };
}
