/**
 * Files a caller names (a destination's caFile, serve's config file, the receiver's TLS key and certificate) are
 * read only when they are regular files within their size limit: a FIFO, a device or a directory is refused in one
 * line that names the path and what it is, and never freezes or grows the process.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServe } from '../../../main/cli/commands/serve.js';
import { TLS_DIR } from '../../../main/receiver/tlsMaterial.js';
import { newCore, newDataDir, onCleanup } from '../../helpers/harness.js';

const silentIO = { stdout: () => undefined, stderr: () => undefined };
const serveOptions = (dataDir: string, config?: string) => ({ ...(config ? { config } : {}), data: dataDir, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 });

async function serve(dataDir: string, config?: string) {
  const running = await startServe(serveOptions(dataDir, config), silentIO);
  onCleanup(() => running.stop());
  return running;
}

describe('files named by a caller are bounded reads', () => {
  it("createDestination refuses a caFile that is a FIFO or a device, naming the field and what the file is", () => {
    const core = newCore();
    const dir = newDataDir();
    const pipe = join(dir, 'ca.pem');
    execFileSync('mkfifo', [pipe]);
    expect(core.createDestination({ name: 'd', url: 'https://127.0.0.1:9/hook', caFile: pipe })).toMatchObject({
      ok: false,
      error: { code: 'invalid_config', field: 'caFile', message: `caFile: ${pipe} is a FIFO (named pipe), not a regular file` },
    });
    expect(core.createDestination({ name: 'd', url: 'https://127.0.0.1:9/hook', caFile: '/dev/zero' })).toMatchObject({
      ok: false,
      error: { field: 'caFile', message: 'caFile: /dev/zero is a character device, not a regular file' },
    });
    const big = join(dir, 'big.pem');
    writeFileSync(big, Buffer.alloc(4 * 1024 * 1024 + 1, 'a'));
    expect(core.createDestination({ name: 'd', url: 'https://127.0.0.1:9/hook', caFile: big })).toMatchObject({
      ok: false,
      error: { field: 'caFile', message: `caFile: ${big} is 4,194,305 bytes, over the limit of 4,194,304 bytes` },
    });
  });

  it('serve --config refuses a FIFO (also behind a symbolic link) without waiting for a writer', async () => {
    const dir = newDataDir();
    const pipe = join(dir, 'pipe');
    execFileSync('mkfifo', [pipe]);
    symlinkSync(pipe, join(dir, 'hookbench.config.json'));
    await expect(serve(join(dir, 'data'), join(dir, 'hookbench.config.json'))).rejects.toThrow(`config ${join(dir, 'hookbench.config.json')} is a FIFO (named pipe), not a regular file`);
  });

  it('serve refuses receiver TLS material that is a directory in one line, and leaves no private key behind', async () => {
    const dataDir = newDataDir();
    const tls = join(dataDir, TLS_DIR);
    mkdirSync(join(tls, 'key.pem'), { recursive: true });
    await expect(serve(dataDir)).rejects.toThrow(`the receiver's TLS material cannot be used: ${join(tls, 'key.pem')} is a directory, not a regular file. Remove it and start again: a new certificate pair is made.`);
    expect(readdirSync(tls)).toEqual(['key.pem']);
  });

  it('a certificate path that is a directory while the key is missing: refused, no temporary key left behind', async () => {
    const dataDir = newDataDir();
    const tls = join(dataDir, TLS_DIR);
    mkdirSync(join(tls, 'cert.pem'), { recursive: true });
    await expect(serve(dataDir)).rejects.toThrow(`${join(tls, 'cert.pem')} is a directory, not a regular file`);
    expect(readdirSync(tls).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(existsSync(join(tls, 'key.pem'))).toBe(false);
  });
});
