/**
 * Reading a file whose path a user or a caller names (a destination's caFile, a config file, the receiver's TLS
 * key and certificate, check's --scenarios and --ca-file, import's export file (bounded by IMPORT_LIMITS: what
 * one export writes), send's --data @file): only a regular file, only up to a size, and as text only when it is
 * UTF-8, so that a device file cannot grow the process without end, a FIFO cannot freeze it waiting for a
 * writer, and a bad byte is never replaced.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { decodeUtf8 } from '../domain/utf8.js';

export const FILE_LIMITS = {
  /** A PEM bundle of CA certificates (the whole Mozilla bundle is about 0.2 MiB). */
  caFile: 4 * 1024 * 1024,
  /** A config file given to serve (--config) or the desktop app. */
  config: 4 * 1024 * 1024,
  /** The receiver's TLS key or certificate. */
  tlsMaterial: 1024 * 1024,
  /** check --scenarios: at most 200 scenarios, each a call of at most 32 KiB. */
  scenarios: 8 * 1024 * 1024,
  /** send --data and verify --body, from a file or stdin: a call is at most 32 KiB, pretty-printed it is a few times that. */
  data: 1024 * 1024,
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

/** What a path is when it is not a regular file, in words (`a FIFO (named pipe)`). */
export function kind(stats: import('node:fs').Stats): string {
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

/** readBoundedFile as text, refused (FileReadError) when it is not UTF-8. */
export function readBoundedText(path: string, maxBytes: number): string {
  const decoded = decodeUtf8(readBoundedFile(path, maxBytes));
  if (!decoded.ok) throw new FileReadError(path, `is not UTF-8: ${decoded.message}`);
  return decoded.text;
}

/**
 * A relative path as the absolute one it names, and how it was resolved (for errors: `ca.pem` alone does not
 * say where it was looked for).
 */
export function absolutePath(path: string, base: string = process.cwd()): { path: string; shown: string } {
  if (isAbsolute(path)) return { path, shown: path };
  const absolute = resolve(base, path);
  return { path: absolute, shown: `${absolute} (${JSON.stringify(path)} resolved against ${base})` };
}

/**
 * Why a caFile (a destination's, or check's --ca-file) cannot be used, or null: the same bounded read the
 * connection pools make, then at least one PEM certificate. A relative path is named with the absolute one
 * looked at.
 */
export function caFileProblem(path: string): string | null {
  const { path: absolute, shown } = absolutePath(path);
  let text: string;
  try {
    text = readBoundedText(absolute, FILE_LIMITS.caFile);
  } catch (e) {
    return e instanceof FileReadError ? `${shown} ${e.why}` : `cannot read ${shown} (${String(e)})`;
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) return `${shown} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`;
  return null;
}
