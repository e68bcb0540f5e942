import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../main/app/createCore.js';
import { must, newCore, newDataDir, newReceiver, onCleanup, settled } from '../../helpers/harness.js';
import { lockHolderPid, lockIsFree } from '../../helpers/lockHolder.js';
import { never, status } from '../../helpers/receiver.js';

const child = fileURLToPath(new URL('../../fixtures/engineChild.ts', import.meta.url));

/** Starts the child engine and resolves with the first stdout line starting with `marker`. */
function startChild(args: string[], marker: string): { proc: ChildProcess; line: Promise<string> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  onCleanup(() => {
    if (proc.exitCode === null) proc.kill('SIGKILL');
  });
  let stderr = '';
  proc.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const line = new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const found = out.split('\n').find((l) => l.startsWith(marker));
      if (found) resolve(found);
    });
    proc.on('exit', (code) => reject(new Error(`child exited (${code}) before "${marker}": ${stderr}`)));
  });
  return { proc, line };
}

async function kill9(proc: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await exited;
}

describe('crash and resume (SIGKILL)', () => {
  it('killed while waiting for a retry: after restart the due retry runs and delivers', async () => {
    const rx = await newReceiver(status(500));
    const dataDir = newDataDir();
    const { proc, line } = startChild([dataDir, rx.url, '1', 'roundRecorded'], 'RETRYING');
    const id = Number((await line).split(' ')[1]);
    await kill9(proc);
    rx.respond = status(200);
    const core = newCore({ dataDir });
    expect(must(core.getMessage({ id })).message.status).toBe('retrying');
    must(await core.advanceClock({ ms: 60_000 }));
    const detail = must(core.getMessage({ id }));
    expect(detail.message.status).toBe('delivered');
    expect(detail.attempts.map((a) => a.outcome)).toEqual(['http_error', 'success']);
  });

  it('killed with an attempt in flight: the interrupted attempt resumes at once on restart', async () => {
    const rx = await newReceiver(never);
    const dataDir = newDataDir();
    const { proc, line } = startChild([dataDir, rx.url, '1', 'attemptStarted'], 'STARTED');
    const id = Number((await line).split(' ')[1]);
    await rx.waitFor(1);
    await kill9(proc);
    rx.respond = status(200);
    const core = newCore({ dataDir });
    const detail = await settled(core, id);
    expect(detail.message.status).toBe('delivered');
    expect(rx.captured).toHaveLength(2);
  });

  it('killed right after accepting a burst: nothing accepted is lost', async () => {
    const rx = await newReceiver(never);
    const dataDir = newDataDir();
    const { proc, line } = startChild([dataDir, rx.url, '200', 'accepted'], 'ACCEPTED');
    const ids = (await line).split(' ')[1]!.split(',').map(Number);
    await kill9(proc);
    rx.respond = status(200);
    const core = newCore({ dataDir });
    for (const id of ids) expect((await settled(core, id)).message.status).toBe('delivered');
    const delivered = new Set(rx.captured.filter((c) => c.body.length > 0).map((c) => (JSON.parse(c.body.toString()) as { userId: string }).userId));
    expect(delivered.size).toBe(200);
  });
});

describe('data dir', () => {
  it('one engine per data dir: a second one is refused, naming the holder pid', () => {
    const dataDir = newDataDir();
    newCore({ dataDir });
    expect(() => createCore({ dataDir })).toThrow(new RegExp(`in use by .*pid ${process.pid}|already open in this process \\(pid ${process.pid}\\)`));
  });

  it('a lock left by a killed process is taken over; the folder is mode 0700', async () => {
    const rx = await newReceiver(status(200));
    const dataDir = newDataDir();
    const { proc, line } = startChild([dataDir, rx.url, '1', 'accepted'], 'ACCEPTED');
    await line;
    expect(lockHolderPid(dataDir)).toBe(proc.pid);
    // While the child lives, it holds the lock.
    expect(() => createCore({ dataDir })).toThrow(`pid ${proc.pid}`);
    await kill9(proc);
    const core = newCore({ dataDir });
    expect(must(core.listDestinations()).items.map((d) => d.name)).toEqual(['crash']);
    await core.close();
    expect(lockIsFree(dataDir)).toBe(true);
    const { statSync } = await import('node:fs');
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  });
});
