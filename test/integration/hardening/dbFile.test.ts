/**
 * Deleting the database file while serve ran lost everything silently (the open handle
 * kept writing to a deleted file: 200s for what no restart would find). Now a file gone or replaced under
 * the open handle is detected (docs/behaviour.md §10) and writes are refused with 503, naming the file;
 * reads still answer from the open handle, and serve logs it once.
 */
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { startServe, type RunningServe } from '../../../main/cli/commands/serve.js';
import { closeEngineWorker, startEngineWorker } from '../../../main/platform/workers.js';
import { newDataDir, onCleanup } from '../../helpers/harness.js';
import type { BackgroundWorkerData } from '../../../main/app/backgroundThread.js';

const WRITE_KEY = 'wk_backend';
const basic = `Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}`;

async function serve(): Promise<{ running: RunningServe; stderr: string[]; dbFile: string }> {
  const dir = newDataDir();
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ sources: [{ name: 'backend', kind: 'server', writeKey: WRITE_KEY }] }));
  const stderr: string[] = [];
  const running = await startServe(
    { config, data: join(dir, 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 },
    { stdout: () => undefined, stderr: (s) => stderr.push(s) },
  );
  onCleanup(() => running.stop());
  return { running, stderr, dbFile: join(dir, 'data', 'hookbench.db') };
}

async function track(running: RunningServe, event: string) {
  const res = await request(`${running.info.url}/v1/track`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: basic }, body: JSON.stringify({ userId: 'u1', event }) });
  return { status: res.statusCode, body: (await res.body.json()) as { success?: boolean; error?: { code: string; message: string } } };
}

async function api(running: RunningServe, command: string, input: unknown) {
  const res = await request(`${running.info.url}/api/${command}`, { method: 'POST', headers: { authorization: `Bearer ${running.info.token}` }, body: JSON.stringify(input) });
  return { status: res.statusCode, body: (await res.body.json()) as { ok: boolean; value?: { items?: unknown[] }; error?: { code: string; message: string } } };
}

describe('the database file changes under a running serve', () => {
  it('deleted: ingestion and typed-API writes answer 503 naming the file; reads still answer; serve logs it once', async () => {
    const { running, stderr, dbFile } = await serve();
    expect((await track(running, 'Before')).status).toBe(200);

    for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbFile}${suffix}`, { force: true });

    const refused = await track(running, 'After');
    expect(refused.status).toBe(503);
    expect(refused.body.error!.code).toBe('unavailable');
    expect(refused.body.error!.message).toContain(dbFile);
    expect(refused.body.error!.message).toContain('deleted');

    const write = await api(running, 'sendMessage', { type: 'track', call: { userId: 'u1', event: 'Api' } });
    expect(write.status).toBe(503);
    expect(write.body.error).toMatchObject({ code: 'unavailable' });
    expect(write.body.error!.message).toContain(dbFile);

    const read = await api(running, 'listMessages', {});
    expect(read.status).toBe(200);
    expect(read.body.value!.items).toHaveLength(1);

    expect((await track(running, 'Again')).status).toBe(503);
    const logged = stderr.filter((line) => line.includes(dbFile) && line.includes('deleted'));
    expect(logged).toHaveLength(1);
  });

  it('replaced by another file: 503 naming the file', async () => {
    const { running, dbFile } = await serve();
    expect((await track(running, 'Before')).status).toBe(200);
    copyFileSync(dbFile, `${dbFile}.copy`);
    renameSync(`${dbFile}.copy`, dbFile); // another inode at the same path

    const refused = await track(running, 'After');
    expect(refused.status).toBe(503);
    expect(refused.body.error!.message).toContain(dbFile);
    expect(refused.body.error!.message).toContain('replaced');
  });

  it('the background thread, started after the file was deleted, does not make it again (that would read as a replacement)', async () => {
    // On a busy machine the thread can start after the first requests; the deletion must still read as one.
    const dbFile = join(newDataDir(), 'hookbench.db');
    const index = { signals: new SharedArrayBuffer(3 * 8), writing: new Int32Array(new SharedArrayBuffer(4)), options: { intervalMs: 10 } };
    const worker = startEngineWorker('app/backgroundWorker', { workerData: { file: dbFile, checkpoints: { intervalMs: 10 }, index } satisfies BackgroundWorkerData });
    await new Promise<void>((resolve) => worker.on('message', (m: { type?: string }) => m.type === 'ready' && resolve()));
    await closeEngineWorker(worker, 'close');
    expect(existsSync(dbFile)).toBe(false);
  });
});
