/**
 * The WAL starts over under sustained writes (store/walCheckpoint.ts, docs/architecture.md "Checkpoints"):
 * the background thread's checkpoints catch up, says so, and the main thread copies what it committed meanwhile, so
 * that its next write begins the WAL again instead of growing the file.
 */
import Database from 'better-sqlite3';
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { internalsOf } from '../../../main/app/createCore.js';
import { closeEngineWorker, isType, startEngineWorker } from '../../../main/platform/workers.js';
import { Store } from '../../../main/store/store.js';
import { CAUGHT_UP, catchUp, type CheckpointResult } from '../../../main/store/walCheckpoint.js';
import { newCore, newDataDir, onCleanup } from '../../helpers/harness.js';
import type { BackgroundWorkerData } from '../../../main/app/backgroundThread.js';
import { CHECK, CHECK_SHARE, RELAXED_INTERVAL_MS, startCheckpoints } from '../../../main/app/checkpoints.js';

/** The WAL header's checkpoint sequence number: SQLite adds one each time the WAL starts over. */
function walSequence(dbFile: string): number {
  const fd = openSync(`${dbFile}-wal`, 'r');
  try {
    const header = Buffer.alloc(16);
    readSync(fd, header, 0, 16, 0);
    return header.readUInt32BE(12);
  } finally {
    closeSync(fd);
  }
}

function openStore(): { store: Store; dbFile: string } {
  const dbFile = join(newDataDir(), 'hookbench.db');
  const store = new Store(dbFile);
  onCleanup(() => store.close());
  return { store, dbFile };
}

let n = 0;
const write = (store: Store): void => {
  store.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(`k${n++}`, 'x'.repeat(2000));
};

describe('the WAL starts over while writes go on', () => {
  it('a checkpoint that finished while a write was open leaves the WAL growing; finishCheckpoint lets the next write start it over', () => {
    const { store, dbFile } = openStore();
    const checkpointThread = new Database(dbFile);
    onCleanup(() => {
      checkpointThread.close();
    });
    write(store);
    const start = walSequence(dbFile);

    // The background thread copies everything while the main thread is inside a transaction that then commits:
    // as under sustained ingestion, there is always a commit the checkpoint did not see.
    store.db.exec('BEGIN');
    store.db.prepare('SELECT count(*) FROM settings').get();
    const copied = checkpointThread.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[];
    expect(copied[0]!.checkpointed).toBe(copied[0]!.log);
    write(store);
    store.db.exec('COMMIT');
    write(store);
    write(store);
    expect(walSequence(dbFile)).toBe(start); // still growing

    store.finishCheckpoint();
    write(store);
    expect(walSequence(dbFile)).toBe(start + 1); // started over
  });

  it('finishCheckpoint does nothing inside a transaction, nor once writes are refused', () => {
    const { store, dbFile } = openStore();
    write(store);
    const checkpointThread = new Database(dbFile);
    onCleanup(() => {
      checkpointThread.close();
    });
    store.db.exec('BEGIN');
    store.db.prepare('SELECT count(*) FROM settings').get();
    checkpointThread.pragma('wal_checkpoint(PASSIVE)');
    write(store);
    store.finishCheckpoint(); // inside the transaction: must not checkpoint (nor throw)
    store.db.exec('COMMIT');
    const start = walSequence(dbFile);
    store.health.fail({ code: 'unavailable', message: 'test: writes refused' });
    store.finishCheckpoint();
    write(store);
    expect(walSequence(dbFile)).toBe(start);
  });

  it('catchUp repeats until a pass finds few new frames, and gives up when the writer keeps committing, a pass is busy or a reader holds frames back', () => {
    const passes = (results: CheckpointResult[]) => {
      let i = 0;
      const calls = { count: 0 };
      return { calls, checkpoint: () => (calls.count++, results[Math.min(i++, results.length - 1)]!) };
    };
    const all = (log: number): CheckpointResult => ({ busy: 0, log, checkpointed: log });
    const settled = passes([all(4000), all(5000), all(5100)]);
    expect(catchUp(settled.checkpoint, 4, 256)).toBe(5100);
    expect(settled.calls.count).toBe(3);
    const idle = passes([all(700), all(700)]);
    expect(catchUp(idle.checkpoint, 4, 256)).toBe(700);
    const endless = passes([1, 2, 3, 4, 5].map((k) => all(k * 1000)));
    expect(catchUp(endless.checkpoint, 4, 256)).toBeNull();
    expect(endless.calls.count).toBe(4);
    expect(catchUp(passes([all(10), { busy: 1, log: -1, checkpointed: -1 }]).checkpoint)).toBeNull();
    expect(catchUp(passes([all(0)]).checkpoint)).toBeNull(); // an empty WAL
    expect(catchUp(passes([{ busy: 0, log: 50, checkpointed: 20 }, { busy: 0, log: 50, checkpointed: 20 }]).checkpoint)).toBeNull();
  });

  it('the background thread says when its checkpoints have caught up, once for the same WAL', async () => {
    const { store, dbFile } = openStore();
    write(store);
    const worker = startEngineWorker('app/backgroundWorker', { workerData: { file: dbFile, checkpoints: { intervalMs: 5 }, index: null } satisfies BackgroundWorkerData });
    const caughtUp: number[] = [];
    const ready = new Promise<void>((resolve) =>
      worker.on('message', (m: { type?: string }) => {
        if (m.type === 'ready') resolve();
        if (isType(m, CAUGHT_UP.type)) caughtUp.push(Date.now());
      }),
    );
    onCleanup(() => closeEngineWorker(worker, 'close'));
    await ready;
    await vi.waitFor(() => expect(caughtUp.length).toBe(1), { timeout: 20_000, interval: 5 });
    write(store);
    await vi.waitFor(() => expect(caughtUp.length).toBe(2), { timeout: 20_000, interval: 5 });
  });

  it('while the history index catches up on the same thread, a checkpoint pass runs at most once a second and a check of the whole file waits', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'performance'] });
    onCleanup(() => void vi.useRealTimers());
    const { store, dbFile } = openStore();
    const posted: unknown[] = [];
    let relaxed = true;
    const checkpoints = startCheckpoints(dbFile, { intervalMs: 200 }, (m) => posted.push(m), { relaxed: () => relaxed });
    onCleanup(() => checkpoints.close());
    const caughtUp = (): number => posted.filter((m) => isType(m, CAUGHT_UP.type)).length;
    write(store);
    vi.advanceTimersByTime(200);
    expect(caughtUp()).toBe(1);
    write(store);
    vi.advanceTimersByTime(RELAXED_INTERVAL_MS - 200);
    expect(caughtUp()).toBe(1);
    vi.advanceTimersByTime(200);
    expect(caughtUp()).toBe(2);
    const reports = (): unknown[] => posted.filter((m) => isType(m, 'integrity'));
    checkpoints.onMessage(CHECK);
    expect(reports()).toEqual([]);
    // The index caught up: every interval again, and the check runs when asked.
    relaxed = false;
    write(store);
    vi.advanceTimersByTime(200);
    expect(caughtUp()).toBe(3);
    checkpoints.onMessage(CHECK);
    expect(reports()).toEqual([{ type: 'integrity', problems: [] }]);
  });

  it('a check of the whole file asked too soon after the last is put off: checks take at most their share of the time (CHECK_SHARE)', () => {
    const { store, dbFile } = openStore();
    write(store);
    let t = 0;
    const reports: unknown[] = [];
    // Each check "takes" 1 s of the injected clock: the clock moves on when its report is posted.
    const checkpoints = startCheckpoints(dbFile, { intervalMs: 3_600_000 }, (m) => {
      if (!isType(m, 'integrity')) return;
      reports.push(m);
      t += 1000;
    }, { now: () => t });
    onCleanup(() => checkpoints.close());
    checkpoints.onMessage(CHECK);
    expect(reports).toHaveLength(1);
    const wait = 1000 * (1 / CHECK_SHARE - 1);
    t += wait - 1;
    checkpoints.onMessage(CHECK);
    expect(reports).toHaveLength(1);
    t += 1;
    checkpoints.onMessage(CHECK);
    expect(reports).toEqual([
      { type: 'integrity', problems: [] },
      { type: 'integrity', problems: [] },
    ]);
  });

  it('a core finishes the background thread\'s checkpoint rounds', async () => {
    const core = newCore();
    const store = internalsOf(core).store;
    const finish = vi.spyOn(store, 'finishCheckpoint');
    write(store);
    await vi.waitFor(() => expect(finish).toHaveBeenCalled(), { timeout: 20_000, interval: 5 });
  });
});
