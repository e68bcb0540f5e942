/**
 * The serve the fuzz and fault suites run against (in-process, port 0, temp data dir): one source, one mock
 * receiver endpoint whose secret differs from the destination's (so that every delivery runs the signature
 * diagnosis over the fuzzed body), and one enabled destination to it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServe, type RunningServe } from '../../main/cli/commands/serve.js';

export const FUZZ_WRITE_KEY = 'wk_fuzz_0123456789';
export const FUZZ_SOURCE = 'fuzzed';

export function fuzzConfig(): unknown {
  return {
    sources: [{ name: FUZZ_SOURCE, kind: 'server', writeKey: FUZZ_WRITE_KEY }],
    receivers: [{ name: 'sink', secret: 'receiver-secret', script: 200 }],
    destinations: [{ name: 'fuzz', enabled: true, sources: [FUZZ_SOURCE], sharedSecret: 'destination-secret', url: 'receiver:sink', retry: { schedule: [50], jitter: 0 } }],
  };
}

export async function startFuzzServe(dir: string): Promise<{ running: RunningServe; dataDir: string }> {
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify(fuzzConfig()));
  const dataDir = join(dir, 'data');
  const running = await startServe({ config, data: dataDir, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, { stdout: () => undefined, stderr: () => undefined });
  return { running, dataDir };
}
