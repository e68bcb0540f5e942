/**
 * The disk fills up under a running serve. How it is injected, honestly: SQLite's
 * `PRAGMA max_page_count` set to the database's current size on serve's own connection (a test hook,
 * internalsOf), so that every write that needs a new page fails with SQLITE_FULL, exactly as on a full disk;
 * the soak (scripts/soak.ts) also fills a real tmpfs when it may mount one. Contract (docs/behaviour.md §7,
 * §10): never a 200 for what cannot be stored; 503 `unavailable` with Retry-After and a message naming the
 * file and the problem; nothing half stored; serve keeps running and takes writes again once there is room.
 * A start on a full disk (the same max_page_count, set as the core is made) is one line naming the file and
 * the way out, and the mock receiver says once, not per request, that it cannot store its captures.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import type { RunningServe } from '../../../main/cli/commands/serve.js';
import { createCore, internalsOf } from '../../../main/app/createCore.js';
import { unusableDataDir } from '../../../main/app/dataDir.js';
import { runCli } from '../../../main/cli/program.js';
import { captureIO } from '../../helpers/cliIO.js';
import { checkIngestTotals } from '../../fuzz/ingestFuzz.js';
import { FUZZ_SOURCE, FUZZ_WRITE_KEY, startFuzzServe } from '../../helpers/fuzzServe.js';
import { must, newDataDir, newReceiver, onCleanup } from '../../helpers/harness.js';
import { status } from '../../helpers/receiver.js';

/** While on, every core made starts on a full disk: max_page_count set to its file's size as soon as it is made. */
const fullAtStart = vi.hoisted(() => ({ on: false }));
vi.mock('../../../main/app/createCore.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../main/app/createCore.js')>();
  return {
    ...actual,
    createCore: (options: Parameters<typeof actual.createCore>[0]) => {
      const core = actual.createCore(options);
      if (fullAtStart.on) {
        const db = actual.internalsOf(core).store.db;
        db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
      }
      return core;
    },
  };
});

const basic = `Basic ${Buffer.from(`${FUZZ_WRITE_KEY}:`).toString('base64')}`;

/** A batch of `n` calls of about 20 KB each: new pages, whatever free space the file has. */
const bigBatch = (tag: string, n = 10) =>
  JSON.stringify({ batch: Array.from({ length: n }, (_, i) => ({ type: 'track', userId: 'u', event: tag, messageId: `${tag}-${i}`, properties: { pad: `${tag}${i}`.repeat(4000) } })) });

async function ingest(running: RunningServe, body: string) {
  const res = await request(`${running.info.url}/v1/batch`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/json' }, body });
  return { status: res.statusCode, retryAfter: res.headers['retry-after'], body: (await res.body.json()) as { success?: boolean; error?: { code: string; message: string } } };
}

async function api(running: RunningServe, command: string, input: unknown) {
  const res = await request(`${running.info.url}/api/${command}`, { method: 'POST', headers: { authorization: `Bearer ${running.info.token}` }, body: JSON.stringify(input) });
  return { status: res.statusCode, body: (await res.body.json()) as { ok: boolean; value?: unknown; error?: { code: string; message: string } } };
}

describe('the disk fills up under a running serve', () => {
  it('ingestion and typed-API writes answer 503 naming the file and the full disk; nothing is half stored; writes resume once there is room', async () => {
    const { running, dataDir } = await startFuzzServe(newDataDir());
    onCleanup(() => running.stop());
    const db = internalsOf(running.core).store.db;
    const file = `${dataDir}/hookbench.db`;
    expect((await ingest(running, bigBatch('before'))).status).toBe(200);
    await running.core.idle();
    const stored = () => must(running.core.listMessages({ limit: 1000 })).items.length;
    const count = stored();

    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);

    const refused = await ingest(running, bigBatch('full'));
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBeDefined();
    expect(refused.body.error!.code).toBe('unavailable');
    expect(refused.body.error!.message).toContain(file);
    expect(refused.body.error!.message).toMatch(/full/);
    expect(stored()).toBe(count);

    const write = await api(running, 'sendMessage', { type: 'track', call: { userId: 'u', event: 'Api', properties: { pad: 'z'.repeat(30_000) } } });
    expect(write.status).toBe(503);
    expect(write.body.error!.code).toBe('unavailable');
    expect(write.body.error!.message).toMatch(/full/);
    // Reads still answer.
    expect((await api(running, 'listMessages', {})).status).toBe(200);

    db.pragma('max_page_count = 1073741823');
    expect((await ingest(running, bigBatch('after'))).status).toBe(200);
    expect(stored()).toBe(count + 10);
    await checkIngestTotals({ url: running.info.url, token: running.info.token, writeKey: FUZZ_WRITE_KEY }, FUZZ_SOURCE);
  });

  it('deliveries whose attempts cannot be recorded on a full disk are not lost: they are delivered once there is room, without a restart', async () => {
    const { running } = await startFuzzServe(newDataDir());
    onCleanup(() => running.stop());
    const db = internalsOf(running.core).store.db;
    // Large response bodies: each attempt's row needs new pages.
    const rx = await newReceiver(status(200, {}, 'r'.repeat(60_000)));
    const fuzz = running.core.findDestination('fuzz')!;
    must(running.core.updateDestination({ id: fuzz.id, patch: { url: rx.url } }));
    must(await running.core.pauseForwarding());
    expect((await ingest(running, bigBatch('queued', 5))).status).toBe(200);
    const ids = must(running.core.listMessages({})).items.map((m) => m.id);
    // serve's log says it (once): that is when the engine has tried to record the rounds and could not.
    const said = new Promise<string>((resolve) => {
      const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
        const line = args.map(String).join(' ');
        if (line.includes('could not grow: the disk is full')) resolve(line);
      });
      onCleanup(() => spy.mockRestore());
    });
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    must(await running.core.resumeForwarding());
    expect(await said).toContain(`${running.dataDir}/hookbench.db`);
    await rx.waitFor(5);
    expect(ids.map((id) => must(running.core.getMessage({ id })).message.status)).not.toContain('delivered');

    db.pragma('max_page_count = 1073741823');
    for (;;) {
      const statuses = ids.map((id) => must(running.core.getMessage({ id })).message.status);
      if (statuses.every((s) => s === 'delivered')) break;
      await new Promise<void>((resolve) => {
        const off = running.core.onEvent((e) => {
          if (e.type === 'deliveryUpdated') {
            off();
            resolve();
          }
        });
      });
    }
    // Each was sent once: the rounds were kept, not sent again.
    expect(rx.captured).toHaveLength(5);
  });
});

describe('the mock receiver on a full disk', () => {
  it('says once that it cannot store captures while every request is still answered, then once that it can again', async () => {
    const { running } = await startFuzzServe(newDataDir());
    onCleanup(() => running.stop());
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      const line = args.map(String).join(' ');
      if (line.startsWith('hookbench receiver:')) lines.push(line);
    });
    onCleanup(() => spy.mockRestore());
    const db = internalsOf(running.core).store.db;
    const captured = () => must(running.core.receivers.listCaptures({ limit: 1 })).items[0]?.id ?? 0;
    const post = async (i: number) => {
      const res = await request(`${running.info.receiverUrl}/r/sink`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ i, pad: 'p'.repeat(20_000) }) });
      await res.body.dump();
      return res.statusCode;
    };
    const stored = captured();
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    for (let i = 0; i < 40; i++) expect(await post(i)).toBe(200);
    const lost = 40 - (captured() - stored);
    expect(lost).toBeGreaterThan(20);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^hookbench receiver: could not store a capture: database or disk is full; requests are still answered/);

    db.pragma('max_page_count = 1073741823');
    expect(await post(40)).toBe(200);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`captures are stored again; ${lost} requests were answered without being captured since`);
  });
});

describe('starting on a full disk', () => {
  it('serve says in one line which file cannot grow, that the disk is full, and the way out; nothing of the config file is applied', async () => {
    const dir = newDataDir();
    const dataDir = join(dir, 'data');
    await createCore({ dataDir }).close();
    // A config file whose sources need new pages of the database, as a restart with --config makes.
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ sources: Array.from({ length: 300 }, (_, i) => ({ name: `source ${i} ${'s'.repeat(60)}`, kind: 'server' })) }));
    fullAtStart.on = true;
    onCleanup(() => {
      fullAtStart.on = false;
    });
    const cli = captureIO();
    expect(await runCli(['serve', '--data-dir', dataDir, '--config', config, '--port', '0', '--receiver-port', '0', '--receiver-tls-port', '0'], cli.io)).toBe(1);
    const lines = cli.err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `hookbench serve: database file ${join(dataDir, 'hookbench.db')} cannot be written: the disk is full (SQLite: database or disk is full). Free disk space where the data dir ${dataDir} is, then start again; or start on another data dir with --data-dir.`,
    );
    fullAtStart.on = false;
    const core = createCore({ dataDir, autoStart: false });
    onCleanup(() => core.close());
    expect(must(core.listSources({})).items).toHaveLength(0);
  });

  it("the data dir's lock cannot be taken on a full disk: the words say so, and the way out is free space, not permissions", () => {
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    expect(unusableDataDir('/data', full).message).toBe('data dir /data cannot be used (the disk is full, SQLITE_FULL): free disk space there, then start again; or choose another data dir with --data-dir');
  });
});
