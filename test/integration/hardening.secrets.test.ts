/**
 * Issue 13, defect 7: secrets at rest and in answers (docs/behaviour.md §9). The database files are 0600 like
 * the rest of the data dir, and write keys and credentials stay out of what is stored or shown in clear.
 */
import { chmodSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { must, newCore, newDataDir, sendTrack } from '../helpers/harness.js';

const modeOf = (file: string) => statSync(file).mode & 0o777;
const DB_FILES = ['hookbench.db', 'hookbench.db-wal', 'hookbench.db-shm'];

describe.skipIf(process.platform === 'win32')('the database files are 0600 (docs/behaviour.md §9 Files)', () => {
  it('hookbench.db, -wal and -shm end 0600 after writes, whatever the umask', async () => {
    const dataDir = newDataDir();
    const previous = process.umask(0o022);
    try {
      const core = newCore({ dataDir });
      must(core.createDestination({ name: 'd', url: 'http://127.0.0.1:9/hook' }));
      sendTrack(core, 'd');
      await core.idle();
      for (const name of DB_FILES) {
        expect(existsSync(join(dataDir, name)), name).toBe(true);
        expect(modeOf(join(dataDir, name)).toString(8), name).toBe('600');
      }
    } finally {
      process.umask(previous);
    }
  });

  it('an existing data dir whose database files are 0644 is tightened at start', async () => {
    const dataDir = newDataDir();
    const first = newCore({ dataDir });
    must(first.createDestination({ name: 'd', url: 'http://127.0.0.1:9/hook' }));
    await first.close();
    for (const name of DB_FILES) if (existsSync(join(dataDir, name))) chmodSync(join(dataDir, name), 0o644);
    const core = newCore({ dataDir });
    sendTrack(core, 'd');
    await core.idle();
    for (const name of DB_FILES) {
      expect(existsSync(join(dataDir, name)), name).toBe(true);
      expect(modeOf(join(dataDir, name)).toString(8), name).toBe('600');
    }
  });
});
