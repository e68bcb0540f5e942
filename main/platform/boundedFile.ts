/**
 * Reading a file whose path a user or a caller names (a destination's caFile, a config file, the receiver's TLS
 * key and certificate): only a regular file, and only up to a size, so that a device file cannot grow the
 * process without end and a FIFO cannot freeze it waiting for a writer.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export const FILE_LIMITS = {
  /** A PEM bundle of CA certificates (the whole Mozilla bundle is about 0.2 MiB). */
  caFile: 4 * 1024 * 1024,
  /** A config file given to serve (--config) or the desktop app. */
  config: 4 * 1024 * 1024,
  /** The receiver's TLS key or certificate. */
  tlsMaterial: 1024 * 1024,
} as const;

/** Why a named file cannot be read, in words for one line (e.g. `is a FIFO, not a regular file`). */
export class FileReadError extends Error {
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(`${path} ${why}`);
  }
}

function kind(stats: import('node:fs').Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

const ERRNO_WORDS: Record<string, string> = { ENOENT: 'does not exist', EACCES: 'cannot be read (permission denied)', EISDIR: 'is a directory, not a regular file', ELOOP: 'is a symbolic link loop', ENOTDIR: 'has a path part that is not a directory' };

/**
 * The file's bytes, or a FileReadError saying what was wrong: missing, not a regular file (checked on the open
 * descriptor, after symbolic links), or over `maxBytes` (which it names with the file's size). Opening does not
 * wait for a FIFO's writer (O_NONBLOCK), and a file that grows while it is read is refused.
 */
export function readBoundedFile(path: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    throw new FileReadError(path, ERRNO_WORDS[code] ?? `cannot be opened (${code || String(e)})`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new FileReadError(path, `is ${kind(stats)}, not a regular file`);
    if (stats.size > maxBytes) throw new FileReadError(path, `is ${stats.size.toLocaleString('en-US')} bytes, over the limit of ${maxBytes.toLocaleString('en-US')} bytes`);
    // One byte more than its size: reading it means the file grew after fstat.
    const buffer = Buffer.alloc(stats.size + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > stats.size) throw new FileReadError(path, 'grew while it was read; try again once it is written');
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/** readBoundedFile as UTF-8 text. */
export function readBoundedText(path: string, maxBytes: number): string {
  return readBoundedFile(path, maxBytes).toString('utf8');
}
