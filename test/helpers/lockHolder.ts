/**
 * The data dir's lock (main/app/dataDir.ts) from outside: a process that holds it the way an engine does, the
 * pid it names, and whether it is free.
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCK_FILE, lockDataDir } from '../../main/app/dataDir.js';
import { HookbenchError } from '../../main/contract/result.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A process that takes the data dir's lock as an engine does (`hookbench send --data-dir`, say) and keeps it until killed. */
export async function holdLock(dataDir: string): Promise<ChildProcess> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(join(dataDir, LOCK_FILE))}, { timeout: 0 });
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL)');
    db.exec('BEGIN IMMEDIATE');
    db.prepare('DELETE FROM holder').run();
    db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
    db.exec('COMMIT; BEGIN IMMEDIATE');
    process.stdout.write('HELD\\n');
    setInterval(() => {}, 1 << 30);
  `;
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(() => [null])])) as [Buffer | null];
  if (!chunk || !String(chunk).includes('HELD')) throw new Error('the lock holder did not take the lock');
  return child;
}

/** The pid the lock file names (its holder, or its last one). */
export function lockHolderPid(dataDir: string): number | null {
  const db = new Database(join(dataDir, LOCK_FILE), { readonly: true, timeout: 0 });
  try {
    return (db.prepare('SELECT pid FROM holder').pluck().get() as number | undefined) ?? null;
  } finally {
    db.close();
  }
}

/** Whether this process could take the data dir now (it lets it go again at once). */
export function lockIsFree(dataDir: string): boolean {
  try {
    lockDataDir(dataDir).release();
    return true;
  } catch (e) {
    if (e instanceof HookbenchError && e.error.code === 'data_dir_locked') return false;
    throw e;
  }
}
