/**
 * Checkpoints that keep the WAL file from growing while writes never stop (docs/architecture.md,
 * "Checkpoints").
 *
 * SQLite starts the WAL over from its beginning only when a write transaction begins while every frame in it
 * has been copied into the database. The background thread copies what is there, but under sustained
 * ingestion the main thread has committed again by the time it finishes, so that moment never came: the WAL
 * grew to `wal_autocheckpoint`'s 20,000 pages (~80 MB), and every commit wrote into new parts of the file,
 * which the kernel must first allocate and zero. So the two threads finish each round together:
 *
 * 1. the background thread repeats PASSIVE checkpoints until one finds few frames the one before it did not
 *    (each pass copies only what was committed during the previous one, so this converges within a few),
 *    then says so (CAUGHT_UP);
 * 2. the main thread, between two of its transactions, copies the few frames it committed since
 *    (`Store.finishCheckpoint`, short because the frames are few); its next write then starts the WAL over.
 *
 * The background thread alone (passing until one pass found no new frame) seldom got there under load, so
 * the main thread's small share is what keeps the WAL, and ingestion with it, from growing.
 */

/** What `PRAGMA wal_checkpoint` answers: busy (1 when it could not run), frames in the WAL, frames copied. */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/** What the background thread posts when it has caught up: every frame copied but the few of its last pass (catchUp). */
export const CAUGHT_UP = { type: 'caughtUp' } as const;

/**
 * Runs `checkpoint` (a PASSIVE one) until a pass finds at most `fewFrames` frames more than the pass before
 * it, every one of them copied: the number of frames in the WAL then. Null when it did not get there in
 * `maxPasses` (the writer kept committing fast), when a checkpoint was busy or a reader held frames back, or
 * when the WAL is empty (nothing to start over). Under full load a pass rarely finds no new frame at all; the
 * few it finds are what the main thread copies, a short pause between two of its transactions.
 */
export function catchUp(checkpoint: () => CheckpointResult, maxPasses = 4, fewFrames = 256): number | null {
  let previous = -1;
  for (let pass = 0; pass < maxPasses; pass++) {
    const { busy, log, checkpointed } = checkpoint();
    if (busy !== 0 || log <= 0 || checkpointed !== log) return null;
    if (previous >= 0 && log - previous <= fewFrames) return log;
    previous = log;
  }
  return null;
}
