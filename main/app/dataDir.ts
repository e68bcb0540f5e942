import { chmodSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { HookbenchError } from '../contract/result.js';

export const APP_NAME = 'Hookbench';

/**
 * docs/behaviour.md §10: `--data-dir DIR`, else `$HOOKBENCH_DATA`, else the per-user app-data folder named Hookbench
 * (the same folder Electron uses as userData for that product name).
 */
export function resolveDataDir(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (explicit) return explicit;
  if (env['HOOKBENCH_DATA']) return env['HOOKBENCH_DATA'];
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_NAME);
  if (platform === 'win32') return join(env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), APP_NAME);
  return join(env['XDG_CONFIG_HOME'] || join(home, '.config'), APP_NAME);
}

/** Creates the folder with mode 0700 (it holds secrets) and tightens an existing one. */
export function ensureDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (process.platform !== 'win32') chmodSync(dir, 0o700);
  } catch (e) {
    throw unusableDataDir(dir, e);
  }
}

/**
 * One line for a data dir the file system refuses (read-only, another user's, not a folder): what and why,
 * and the way out. Docs: docs/behaviour.md §10.
 */
export function unusableDataDir(dir: string, e: unknown): HookbenchError {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  const why = code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'permission denied' : code === 'ENOTDIR' || code === 'EEXIST' ? 'not a folder' : code === 'ENOSPC' ? 'the disk is full' : (e as Error).message;
  return new HookbenchError({
    code: 'unavailable',
    message: `data dir ${dir} cannot be used (${why}${code ? `, ${code}` : ''}): it must be a folder this user can write to; fix its permissions or choose another with --data-dir`,
  });
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One engine process per data dir. A lock left by a process that no longer runs (a crash) is taken over.
 */
export function lockDataDir(dir: string): DataDirLock {
  const file = join(dir, 'hookbench.lock');
  for (let tries = 0; tries < 2; tries++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      let released = false;
      return {
        file,
        release() {
          if (released) return;
          released = true;
          try {
            if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw unusableDataDir(dir, e);
      const holder = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
      if (Number.isFinite(holder) && holder !== process.pid && isAlive(holder)) {
        throw new HookbenchError({
          code: 'data_dir_locked',
          message: `data dir ${dir} is in use by another Hookbench process (pid ${holder}); stop it or choose another data dir`,
          value: holder,
        });
      }
      if (holder === process.pid) {
        throw new HookbenchError({ code: 'data_dir_locked', message: `data dir ${dir} is already open in this process (pid ${holder})`, value: holder });
      }
      try {
        unlinkSync(file); // stale: its process is gone
      } catch (unlinkError) {
        throw unusableDataDir(dir, unlinkError);
      }
    }
  }
  throw new HookbenchError({ code: 'data_dir_locked', message: `could not lock data dir ${dir}` });
}
