/**
 * Writing a file whose path a user names (export --out, check --junit): the whole text or nothing, and only
 * ever as a regular file. A device, a FIFO, a socket, a directory or a symbolic link at that path is refused
 * (checked with lstat before writing and again right before the rename), so a temporary file is never renamed
 * over /dev/full or a link, and opening never waits for a FIFO's reader.
 */
import { accessSync, closeSync, constants, fsyncSync, lstatSync, openSync, renameSync, rmSync, statSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { kind } from './boundedFile.js';

/** Why a named file cannot be written, in words for one line (`is a character device, not a regular file`). */
export class FileWriteError extends Error {
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(`${path} ${why}`);
  }
}

function kindOf(stats: Stats): string | null {
  if (stats.isFile()) return null;
  // lstat: a link is named as one, never followed to what it points at.
  return stats.isSymbolicLink() ? 'a symbolic link' : kind(stats);
}

/** The path's own lstat, or null when nothing is there. */
function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new FileWriteError(path, `cannot be checked (${words(e)})`);
  }
}

/**
 * Whether `path` may be written: nothing there (false), or a regular file (true: it exists). Anything else
 * is a FileWriteError naming what it is.
 */
export function checkOutputPath(path: string): { exists: boolean } {
  const stats = lstatOrNull(path);
  if (stats === null) return { exists: false };
  const kind = kindOf(stats);
  if (kind !== null) throw new FileWriteError(path, `is ${kind}, not a regular file; only a regular file is written (a new one, or one replaced whole)`);
  return { exists: true };
}

const ERRNO_WORDS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EACCES: 'permission denied',
  EROFS: 'read-only file system',
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of its path is not a folder',
  EIO: 'input/output error',
};

const words = (e: unknown): string => {
  const code = (e as NodeJS.ErrnoException).code;
  return code ? `${code}: ${ERRNO_WORDS[code] ?? (e as Error).message}` : String(e);
};

/**
 * Before the work whose result goes to `path` (check --junit, export --out): what checkOutputPath refuses, and a
 * folder that is missing, not a folder or not writable, so that a mistyped path is said before the work, not after it.
 */
export function checkOutputTarget(path: string): { exists: boolean } {
  const target = checkOutputPath(path);
  const folder = dirname(path);
  try {
    if (!statSync(folder).isDirectory()) throw Object.assign(new Error(`${folder} is not a folder`), { code: 'ENOTDIR' });
    accessSync(folder, constants.W_OK);
  } catch (e) {
    throw new FileWriteError(path, `cannot be written (${words(e)})`);
  }
  return target;
}

/**
 * Writes `text` to `path` whole or not at all: a temporary file beside it, synced, then renamed over it.
 * `path` must be nothing yet or a regular file (checkOutputPath); a failure leaves no temporary file.
 */
export function writeOutputFile(path: string, text: string | Uint8Array, mode: number): void {
  checkOutputPath(path);
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  let fd: number;
  try {
    fd = openSync(tmp, 'wx', mode);
  } catch (e) {
    throw new FileWriteError(path, `cannot be written (${words(e)})`);
  }
  try {
    try {
      const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
      for (let written = 0; written < bytes.byteLength; ) written += writeSync(fd, bytes, written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // Again right before the rename: something else may have been put there while the text was written.
    checkOutputPath(path);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    if (e instanceof FileWriteError) throw e;
    throw new FileWriteError(path, `cannot be written (${words(e)})`);
  }
}
