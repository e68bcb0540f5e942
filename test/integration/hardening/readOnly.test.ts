/**
 * A read-only data dir gave a stack trace on stop and an unclear error on
 * start. `hookbench serve` runs as a real process here, without root's power over file modes when the tests run
 * as root.
 */
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { onCleanup } from '../../helpers/harness.js';

const cli = fileURLToPath(new URL('../../../main/cli.ts', import.meta.url));
const isRoot = process.getuid?.() === 0;
/**
 * Root ignores file modes through two capabilities. Run as root, serve runs without them (setpriv, util-linux),
 * so a read-only folder is read-only to it; it stays root, so it can read the checkout wherever it is cloned (a
 * switch to another user could not enter a checkout under /root or in a private temporary folder).
 */
const [command, prefix] = isRoot ? ['setpriv', ['--bounding-set', '-dac_override,-dac_read_search', process.execPath]] : [process.execPath, []];

function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hookbench-ro-'));
  onCleanup(() => {
    chmodTree(dir);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

function chmodTree(dir: string): void {
  try {
    chmodSync(dir, 0o777);
  } catch {
    // gone already
  }
}

interface Run {
  /** Resolves when stdout has shown the ready line. */
  ready: Promise<void>;
  exit: Promise<{ code: number | null; stdout: string; stderr: string }>;
  stop(): void;
}

function serve(dataDir: string): Run {
  const proc = spawn(command, [...prefix, '--import', 'tsx', cli, 'serve', '--data', dataDir, '--port', '0', '--receiver-port', '0', '--receiver-tls-port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HOME: dataDir },
  });
  onCleanup(() => {
    if (proc.exitCode === null) proc.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => proc.on('exit', (code) => resolve({ code, stdout, stderr })));
  const ready = new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (stdout.includes('Hookbench ready:')) resolve();
    });
    void exit.then(({ code }) => reject(new Error(`serve exited (${code}) before it was ready: ${stderr}`)));
  });
  ready.catch(() => undefined);
  return { ready, exit, stop: () => proc.kill('SIGTERM') };
}

const noStackTrace = (text: string) => expect(text).not.toMatch(/\n\s+at /);

/** serve refused to start: exit 1 and one line, no stack trace, naming `path` and saying `why`. */
async function refusedInOneLine(run: Run, path: string, why: RegExp): Promise<void> {
  const { code, stderr } = await run.exit;
  expect(code).toBe(1);
  noStackTrace(stderr);
  expect(stderr.trim().split('\n')).toHaveLength(1);
  expect(stderr).toContain(path);
  expect(stderr).toMatch(why);
}

describe('a read-only data dir', () => {
  it('made read-only while serve runs: stop says so in one line (no stack trace) and exits 0', async () => {
    const dataDir = join(workDir(), 'data');
    const run = serve(dataDir);
    await run.ready;
    chmodSync(dataDir, 0o555);
    run.stop();
    const { code, stderr } = await run.exit;
    noStackTrace(stderr);
    expect(stderr).toMatch(/could not remove .*server\.json/);
    expect(code).toBe(0);
  });

  it('a data dir that cannot be created: one line naming it, exit 1', async () => {
    const parent = join(workDir(), 'locked');
    mkdirSync(parent, { mode: 0o555 });
    chmodSync(parent, 0o555);
    const dataDir = join(parent, 'data');
    await refusedInOneLine(serve(dataDir), dataDir, /writ/);
  });

  it('a read-only database file: one line naming it, exit 1', async () => {
    const dataDir = join(workDir(), 'data');
    const first = serve(dataDir);
    await first.ready;
    first.stop();
    expect((await first.exit).code).toBe(0);
    const file = join(dataDir, 'hookbench.db');
    chmodSync(file, 0o444);
    await refusedInOneLine(serve(dataDir), file, /read-only|writ/);
  });

  // Only root can give a folder to another user.
  it.skipIf(!isRoot)('a data dir owned by another user and not writable: one line naming it, exit 1', async () => {
    const dataDir = join(workDir(), 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    chownSync(dataDir, 65534, 65534); // nobody
    chmodSync(dataDir, 0o755);
    await refusedInOneLine(serve(dataDir), dataDir, /writ/);
  });
});
