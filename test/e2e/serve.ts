/**
 * A real `hookbench serve` for end-to-end runs: the CLI from source (tsx) on port 0 in a temp data dir,
 * found through its ready line; the built renderer (dist/renderer) is what it serves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Result } from '../../main/contract/result.js';

const STOP_GRACE_MS = 15_000;

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServerInfo {
  url: string;
  uiUrl: string;
  token: string;
  receiverUrl: string | null;
}

export interface RunningServe {
  info: ServerInfo;
  dataDir: string;
  /** A typed-API call, for setting up state the test is not about. */
  call<T = unknown>(command: string, input?: unknown): Promise<T>;
  stop(): Promise<void>;
}

/** Starts `hookbench serve` with `config` (sources, destinations, receivers) applied at start. */
export async function startServe(config: Record<string, unknown> = {}): Promise<RunningServe> {
  const dir = mkdtempSync(join(tmpdir(), 'hookbench-e2e-'));
  const configFile = join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify(config));
  const dataDir = join(dir, 'data');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'main', 'cli.ts'), 'serve', '--data-dir', dataDir, '--config', configFile, '--port', '0', '--receiver-port', '0', '--receiver-tls-port', '0'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_NO_WARNINGS: '1' } },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  try {
    await readyLine(child, () => stderr);
  } catch (e) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const info = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as ServerInfo;
  return {
    info,
    dataDir,
    async call<T>(command: string, input: unknown = {}): Promise<T> {
      const res = await fetch(`${info.url}/api/${command}`, { method: 'POST', headers: { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' }, body: JSON.stringify(input) });
      const result = (await res.json()) as Result<T>;
      if (!result.ok) throw new Error(`${command}: ${result.error.message}`);
      return result.value;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('close', resolve));
        child.kill('SIGTERM');
        // Close browser pages before: a browser's pre-opened connections hold the server's close.
        const late = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(late);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function readyLine(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
      const line = /^Hookbench ready: (\S+)$/m.exec(stdout);
      if (line) resolve(line[1]!);
    });
    child.once('close', (code) => reject(new Error(`hookbench serve exited (${code}) before it was ready:\n${stderr()}`)));
  });
}
