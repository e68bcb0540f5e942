/**
 * One engine per data dir, held by a lock the operating system releases when its process ends: a crash leaves
 * nothing to clean up, a pid reused by an unrelated process holds nothing, and a lock file deleted under a
 * running engine neither lets a second one in beside a serve nor goes unnoticed.
 */
import Database from 'better-sqlite3';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../main/app/createCore.js';
import { LOCK_FILE, lockDataDir, SERVER_INFO_FILE } from '../../../main/app/dataDir.js';
import { newCore, newDataDir, onCleanup } from '../../helpers/harness.js';
import { holdLock, lockHolderPid, lockIsFree } from '../../helpers/lockHolder.js';

/** Waits for a child to end, killed. */
async function kill9(proc: import('node:child_process').ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await exited;
}

describe('the data dir lock', () => {
  it('is refused while another process holds it, naming that pid, and free the moment that process is killed', async () => {
    const dataDir = newDataDir();
    const holder = await holdLock(dataDir);
    onCleanup(() => kill9(holder));
    expect(() => createCore({ dataDir })).toThrow(`data dir ${dataDir} is in use by another Hookbench process (pid ${holder.pid}); stop it or choose another data dir`);
    await kill9(holder);
    const core = newCore({ dataDir });
    expect(lockHolderPid(dataDir)).toBe(process.pid);
    await core.close();
    expect(lockIsFree(dataDir)).toBe(true);
  });

  it('a lock file naming a pid that now belongs to an unrelated process (after a reboot; pid 1 in a container) holds nothing', () => {
    const dataDir = newDataDir();
    const stale = new Database(join(dataDir, LOCK_FILE));
    stale.exec('CREATE TABLE holder (pid INTEGER NOT NULL); INSERT INTO holder (pid) VALUES (1)');
    stale.close();
    const core = newCore({ dataDir });
    expect(lockHolderPid(dataDir)).toBe(process.pid);
    expect(core.health.verify()).toBeNull();
  });

  it('a lock file of an older version (a pid in text) is refused while that pid runs, and taken over once it does not', async () => {
    const dataDir = newDataDir();
    const older = await holdLock(newDataDir());
    onCleanup(() => kill9(older));
    writeFileSync(join(dataDir, LOCK_FILE), `${older.pid}\n`);
    expect(() => lockDataDir(dataDir)).toThrow(`in use by another Hookbench process (pid ${older.pid}) (an older Hookbench, by its lock file)`);
    await kill9(older);
    lockDataDir(dataDir).release();
    expect(lockHolderPid(dataDir)).toBe(process.pid);
  });

  it("deleted under a running serve: a second engine is refused, naming the serve's pid", async () => {
    const dataDir = newDataDir();
    const holder = await holdLock(dataDir);
    onCleanup(() => kill9(holder));
    // The serve's server.json names it; its lock file is deleted by hand.
    writeFileSync(join(dataDir, SERVER_INFO_FILE), JSON.stringify({ pid: holder.pid, url: 'http://127.0.0.1:1' }));
    rmSync(join(dataDir, LOCK_FILE));
    expect(() => createCore({ dataDir })).toThrow(`in use by another Hookbench process (pid ${holder.pid}) (its hookbench.lock was deleted)`);
  });

  it('deleted under a running engine and taken by another: the first stops writing, saying two engines share the database', async () => {
    const dataDir = newDataDir();
    const core = newCore({ dataDir, autoStart: false });
    rmSync(join(dataDir, LOCK_FILE));
    const other = await holdLock(dataDir);
    onCleanup(() => kill9(other));
    expect(core.health.verify()).toMatchObject({ code: 'unavailable', message: expect.stringContaining(`another Hookbench process (pid ${other.pid}) now holds data dir ${dataDir}`) as string });
    // The problem stands: serve refuses writes (503) and says it once in its log, as for a database file deleted under it.
    expect(core.health.problem?.message).toContain('two engines share its database');
  });

  it('deleted under a running engine with nobody else: it takes the new file and goes on', () => {
    const dataDir = newDataDir();
    const core = newCore({ dataDir, autoStart: false });
    rmSync(join(dataDir, LOCK_FILE));
    expect(core.health.verify()).toBeNull();
    expect(lockHolderPid(dataDir)).toBe(process.pid);
    expect(lockIsFree(dataDir)).toBe(false);
  });
});
