/** A real `hookbench serve` (port 0, temp data dir) with one source, and the Basic auth its write key gives. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServe, type RunningServe } from '../../main/cli/commands/serve.js';
import { newDataDir, onCleanup } from './harness.js';

export const WRITE_KEY = 'wk_backend';
export const basicAuth = `Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}`;
const silentIO = { stdout: () => undefined, stderr: () => undefined };

export async function serveWithSource(): Promise<RunningServe> {
  const dir = newDataDir();
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ sources: [{ name: 'backend', kind: 'server', writeKey: WRITE_KEY }] }));
  const running = await startServe({ config, data: join(dir, 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, silentIO);
  onCleanup(() => running.stop());
  return running;
}
