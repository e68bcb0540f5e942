import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileReadError, readBoundedFile, readBoundedText } from '../../../main/platform/boundedFile.js';
import { tempDir } from '../../helpers/tempDir.js';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
function dir(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}
const fifo = (path: string): string => {
  execFileSync('mkfifo', [path]);
  return path;
};

describe('reading a file a caller names (readBoundedFile)', () => {
  it('returns a regular file whole, and through a symbolic link', () => {
    const d = dir();
    writeFileSync(join(d, 'ca.pem'), 'pem text');
    symlinkSync(join(d, 'ca.pem'), join(d, 'link.pem'));
    expect(readBoundedText(join(d, 'ca.pem'), 100)).toBe('pem text');
    expect(readBoundedText(join(d, 'link.pem'), 100)).toBe('pem text');
    expect(readBoundedFile(join(d, 'ca.pem'), 8)).toEqual(Buffer.from('pem text'));
  });

  it('refuses a file over the limit, naming its size and the limit', () => {
    const d = dir();
    writeFileSync(join(d, 'big.pem'), Buffer.alloc(2049, 'a'));
    expect(() => readBoundedFile(join(d, 'big.pem'), 2048)).toThrow(`${join(d, 'big.pem')} is 2,049 bytes, over the limit of 2,048 bytes`);
  });

  it('refuses a FIFO at once, without waiting for a writer, also behind a symbolic link', () => {
    const d = dir();
    const pipe = fifo(join(d, 'pipe'));
    symlinkSync(pipe, join(d, 'key.pem'));
    expect(() => readBoundedFile(pipe, 100)).toThrow(`${pipe} is a FIFO (named pipe), not a regular file`);
    expect(() => readBoundedFile(join(d, 'key.pem'), 100)).toThrow(/key\.pem is a FIFO \(named pipe\), not a regular file$/);
  });

  it('refuses a device file and a directory, and says when a file does not exist', () => {
    const d = dir();
    mkdirSync(join(d, 'sub'));
    expect(() => readBoundedFile('/dev/zero', 1 << 20)).toThrow('/dev/zero is a character device, not a regular file');
    expect(() => readBoundedFile(join(d, 'sub'), 100)).toThrow(/sub is a directory, not a regular file$/);
    const missing = (() => {
      try {
        readBoundedFile(join(d, 'nope.pem'), 100);
      } catch (e) {
        return e;
      }
    })();
    expect(missing).toBeInstanceOf(FileReadError);
    expect(missing).toMatchObject({ why: 'does not exist', message: `${join(d, 'nope.pem')} does not exist` });
  });
});
