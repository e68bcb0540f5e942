import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fresh temp dir, removed by the returned cleanup. A core closed right after it started leaves its
 * background threads to end on their own (platform/workers.ts, stoppableOnceReady): one that opens the
 * database late makes its WAL files for a moment, so removal tries again when the folder was not empty.
 */
export function tempDir(prefix = 'hookbench-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }) };
}
