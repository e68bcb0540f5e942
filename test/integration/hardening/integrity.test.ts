/**
 * A damaged database started without a word, then failed rows with SQLITE_CORRUPT while
 * ingestion kept answering 200, and "file is not a database" named no file. Now start runs a quick
 * integrity check (docs/behaviour.md §10), a damaged database takes no writes, and every error names the
 * file and the way out: move it aside, or `hookbench doctor`.
 */
import Database from 'better-sqlite3';
import { existsSync, readdirSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../main/cli/program.js';
import { startServe } from '../../../main/cli/commands/serve.js';
import { HookbenchError } from '../../../main/contract/result.js';
import { createCore } from '../../../main/app/createCore.js';
import { captureIO } from '../../helpers/cliIO.js';
import { SALVAGED_TABLES } from '../../../main/store/salvage.js';
import { checkpointCutShort, damagedTable, notADatabase, populatedThenDamaged, rowCounts } from '../../helpers/damage.js';
import { must, newCore, newDataDir, onCleanup } from '../../helpers/harness.js';
import { holdLock } from '../../helpers/lockHolder.js';
import type { BackgroundWorkerData } from '../../../main/app/backgroundThread.js';

function startError(dataDir: string): HookbenchError {
  try {
    const core = createCore({ dataDir, autoStart: false });
    onCleanup(() => core.close());
  } catch (e) {
    if (e instanceof HookbenchError) return e;
    throw new Error(`expected a HookbenchError, got ${String(e)}`);
  }
  throw new Error('the core started');
}

describe('a damaged database at start', () => {
  it('a file that is not a database: start refuses, naming the file and the way out; serve prints one line and exits 1', async () => {
    const dataDir = join(newDataDir(), 'data');
    const file = notADatabase(dataDir);
    const error = startError(dataDir);
    expect(error.error.code).toBe('unavailable');
    expect(error.message).toContain(file);
    expect(error.message).toContain('not a database');
    expect(error.message).toContain('hookbench doctor');

    const cli = captureIO();
    expect(await runCli(['serve', '--data', dataDir, '--port', '0', '--receiver-port', '0', '--receiver-tls-port', '0'], cli.io)).toBe(1);
    expect(cli.err()).toContain(file);
    expect(cli.err().trim().split('\n')).toHaveLength(1);
    expect(cli.err()).not.toMatch(/\n\s+at /);
  });

  it('a damaged table in a small database: start refuses, naming the file', async () => {
    const dataDir = newDataDir();
    const file = await damagedTable(dataDir, 'message_payloads');
    const error = startError(dataDir);
    expect(error.error.code).toBe('unavailable');
    expect(error.message).toContain(`database file ${file} is damaged`);
  });

  it('a damaged table in a large database that start reads: serve says so in one line naming the file and hookbench doctor, exit 1', async () => {
    const dataDir = join(newDataDir(), 'data');
    // messages: past the configuration tables checked at open, but read while the store opens.
    const file = await damagedTable(dataDir, 'messages', 24 << 20);
    expect(statSync(file).size).toBeGreaterThan(16 << 20);
    const cli = captureIO();
    expect(await runCli(['serve', '--data-dir', dataDir, '--port', '0', '--receiver-port', '0', '--receiver-tls-port', '0'], cli.io)).toBe(1);
    const lines = cli.err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`database file ${file} is damaged (SQLite: database disk image is malformed)`);
    expect(lines[0]).toContain(`hookbench doctor --data-dir ${dataDir}`);
    expect(lines[0]).toContain('--salvage');
    // The start let go of what it opened: doctor may take the data dir at once.
    const doctor = captureIO();
    expect(await runCli(['doctor', '--data-dir', dataDir, '--move-aside'], doctor.io)).toBe(0);
  });

  it('a damaged table in a large database: start does not wait for the full check, which then refuses writes with 503', async () => {
    const dataDir = join(newDataDir(), 'data');
    // attempts: a table nothing reads at start, so that only the background check can find it.
    const file = await damagedTable(dataDir, 'attempts', 24 << 20);
    expect(statSync(file).size).toBeGreaterThan(24 << 20);
    const stderr: string[] = [];
    const running = await startServe({ data: dataDir, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, { stdout: () => undefined, stderr: (s) => stderr.push(s) });
    onCleanup(() => running.stop());
    await new Promise<void>((resolve) => running.core.health.onFailure(() => resolve()));
    const res = await request(`${running.info.url}/api/sendMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.info.token}` },
      body: JSON.stringify({ type: 'track', call: { userId: 'u', event: 'E' } }),
    });
    expect(res.statusCode).toBe(503);
    const answer = (await res.body.json()) as { error: { code: string; message: string } };
    // Found by the background check (the engine reads nothing of that table).
    expect(answer.error.message).toContain(`database file ${file} is damaged (integrity check: database disk image is malformed)`);
    expect(stderr.join('')).toContain(`database file ${file} is damaged`);
  });
});

describe('a checkpoint cut short by a full disk', () => {
  it('is not called damaged when the WAL holds the pages the file lacks: it opens with everything', async () => {
    const dir = newDataDir();
    const file = await checkpointCutShort(join(dir, 'live'), join(dir, 'copy'), 30);
    expect(statSync(file).size).toBeLessThan(statSync(`${file}-wal`).size);
    const core = createCore({ dataDir: join(dir, 'copy'), autoStart: false });
    onCleanup(() => core.close());
    expect(must(core.listMessages({ limit: 100 })).items).toHaveLength(30);
    // And it keeps taking writes.
    expect(core.sendMessage({ type: 'track', call: { userId: 'after', event: 'After' } }).ok).toBe(true);
  });

  it('without a WAL to complete it, a file cut short is damaged, named as such', async () => {
    const dataDir = join(newDataDir(), 'data');
    const core = createCore({ dataDir, autoStart: false });
    for (let i = 0; i < 30; i++) core.sendMessage({ type: 'track', call: { userId: `u${i}`, event: 'E', properties: { pad: 'x'.repeat(400) } } });
    await core.close();
    const file = join(dataDir, 'hookbench.db');
    expect(existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0).toBe(0);
    truncateSync(file, Math.floor(statSync(file).size / 8192) * 4096);
    expect(() => createCore({ dataDir, autoStart: false })).toThrow(/is damaged \(it is cut short: its header counts \d+ pages/);
  });
});

describe('hookbench doctor', () => {
  it('a healthy data dir: reports ok, exit 0', async () => {
    const core = newCore();
    must(core.sendMessage({ type: 'track', call: { userId: 'u', event: 'E' } }));
    const cli = captureIO();
    expect(await runCli(['doctor', '--data-dir', core.dataDir], cli.io)).toBe(0);
    expect(cli.out()).toContain(join(core.dataDir, 'hookbench.db'));
    expect(cli.out()).toMatch(/integrity check: ok/);
  });

  it('a damaged database: the problems found, the file, and how to recover; exit 1', async () => {
    const dataDir = newDataDir();
    const file = await damagedTable(dataDir, 'message_payloads');
    const cli = captureIO();
    expect(await runCli(['doctor', '--data-dir', dataDir], cli.io)).toBe(1);
    const out = cli.out();
    expect(out).toContain(file);
    expect(out).toMatch(/damaged/);
    expect(out).toContain(`hookbench doctor --data-dir ${dataDir} --salvage`);
    expect(out).toContain('--move-aside');
    // The sqlite3 shell's .recover is not needed (Debian 12's 3.40.1 fails with it even on a sound copy).
    expect(out).not.toContain('.recover');
  });

  it('a file that is not a database, and a data dir without a database, are reported too', async () => {
    const dataDir = join(newDataDir(), 'data');
    notADatabase(dataDir);
    const cli = captureIO();
    expect(await runCli(['doctor', '--data-dir', dataDir], cli.io)).toBe(1);
    expect(cli.out()).toContain('not a database');
    const empty = captureIO();
    expect(await runCli(['doctor', '--data-dir', newDataDir()], empty.io)).toBe(1);
    expect(empty.out()).toMatch(/no database/);
  });

  it('--move-aside moves the damaged files away, and the next start begins a fresh database', async () => {
    const dataDir = newDataDir();
    await damagedTable(dataDir, 'message_payloads');
    const cli = captureIO();
    expect(await runCli(['doctor', '--data-dir', dataDir, '--move-aside'], cli.io)).toBe(0);
    expect(existsSync(join(dataDir, 'hookbench.db'))).toBe(false);
    expect(readdirSync(dataDir).some((f) => /^hookbench\.db\.damaged-/.test(f))).toBe(true);
    const core = newCore({ dataDir });
    expect(must(core.listMessages({})).items).toHaveLength(0);
  });

  it('--move-aside and --salvage refuse while a Hookbench process holds the data dir', async () => {
    const core = newCore();
    for (const flag of ['--move-aside', '--salvage']) {
      const cli = captureIO();
      expect(await runCli(['doctor', '--data-dir', core.dataDir, flag], cli.io), flag).toBe(1);
      expect(cli.err()).toMatch(/in use|already open in this process/);
      expect(existsSync(join(core.dataDir, 'hookbench.db'))).toBe(true);
      expect(readdirSync(core.dataDir).filter((f) => f.includes('.damaged-'))).toEqual([]);
    }
  });

  it('held by another process, it says to stop that process, not to choose another data dir', async () => {
    const made = newCore();
    await made.close();
    const dataDir = made.dataDir;
    const holder = await holdLock(dataDir);
    onCleanup(() => void holder.kill('SIGKILL'));
    const cli = captureIO();
    expect(await runCli(['doctor', '--data-dir', dataDir, '--salvage'], cli.io)).toBe(1);
    expect(cli.err()).toBe(`hookbench doctor: data dir ${dataDir} is in use by another Hookbench process (pid ${holder.pid}); stop it before salvaging its database (hookbench doctor without --move-aside or --salvage checks it while it runs)\n`);
  });

  it('--salvage copies what a database with 12 pages overwritten still holds into a fresh one: most rows come back, a core starts on it and its history index catches up', async () => {
    const dataDir = join(newDataDir(), 'data');
    const { file, before } = await populatedThenDamaged(dataDir, SALVAGED_TABLES);
    const checked = captureIO();
    expect(await runCli(['doctor', '--data-dir', dataDir], checked.io)).toBe(1);

    const cli = captureIO();
    expect(await runCli(['doctor', '--data-dir', dataDir, '--salvage'], cli.io)).toBe(0);
    const out = cli.out();
    const aside = readdirSync(dataDir).find((f) => /^hookbench\.db\.damaged-.*Z$/.test(f))!;
    expect(aside).toBeDefined();
    expect(out).toContain(`moved ${file} -> ${join(dataDir, aside)}`);
    expect(out).toContain(`the damaged file is kept at ${join(dataDir, aside)}`);
    // One line per table: "salvaged N of [about] M rows", and what the fresh database holds is N.
    const after = rowCounts(file, SALVAGED_TABLES);
    for (const table of SALVAGED_TABLES) {
      const line = out.split('\n').find((l) => l.trim().startsWith(`${table} `));
      expect(line, table).toMatch(new RegExp(`^  ${table} +salvaged [\\d,]+ of (about )?[\\d,]+ rows`));
      const [, n, , m] = /salvaged ([\d,]+) of (about )?([\d,]+) rows/.exec(line!)!;
      expect(Number(n!.replace(/,/g, '')), table).toBe(after[table]);
      expect(after[table], table).toBeLessThanOrEqual(before[table]!);
      // "about M" is near what the table held (estimated around the unreadable pages when SQLite cannot count it).
      expect(Math.abs(Number(m!.replace(/,/g, '')) - before[table]!), table).toBeLessThanOrEqual(Math.max(2, before[table]! * 0.05));
    }
    const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
    expect(total(after)).toBeLessThan(total(before)); // the damage cost rows...
    expect(total(after)).toBeGreaterThan(total(before) * 0.9); // ...but most came back
    expect(after['messages']).toBeGreaterThan(before['messages']! * 0.9);
    // Rows whose parent was lost are left out, and counted: the foreign keys of the fresh database hold.
    expect(out).toMatch(/ deliveries +salvaged [\d,]+ of [\d,]+ rows; [\d,]+ left out: their message was lost/);
    expect(after['deliveries']).toBeLessThanOrEqual(after['messages']!);
    // Every salvaged message has its body, every delivery its message, every attempt its delivery.
    const fresh = new Database(file, { readonly: true });
    try {
      expect(fresh.pragma('foreign_key_check')).toEqual([]);
      expect(fresh.pragma('quick_check', { simple: true })).toBe('ok');
      expect(fresh.prepare('SELECT count(*) FROM messages WHERE id NOT IN (SELECT message_id FROM message_payloads)').pluck().get()).toBe(0);
    } finally {
      fresh.close();
    }

    // A core starts on it with the configuration it had, and the history index rebuilds itself on the background thread.
    const { createCore, internalsOf } = await import('../../../main/app/createCore.js');
    const core = createCore({ dataDir, autoStart: false });
    onCleanup(() => core.close());
    expect(core.findDestination('d')).not.toBeNull();
    expect(must(core.listReceivers({})).items.map((r) => r.name)).toEqual(['inbox']);
    const store = internalsOf(core).store;
    const newest = store.queries.newestId();
    await expect.poll(() => store.queries.index.covered(), { timeout: 60_000, interval: 20 }).toBe(newest);
    // needle-1000 to needle-2999: four digits, so that each is in one body only.
    const some = store.db.prepare("SELECT m.id, CAST(p.body AS TEXT) AS body FROM message_payloads p JOIN messages m ON p.message_id = m.id WHERE CAST(p.body AS TEXT) LIKE '%needle-1___ %' ORDER BY m.id LIMIT 3").all() as { id: number; body: string }[];
    expect(some).toHaveLength(3);
    for (const { id, body } of some) {
      const needle = /needle-\d+/.exec(body)![0];
      const page = must(core.listMessages({ text: needle }));
      expect(page.searching).toBeUndefined();
      expect(page.items.map((m) => m.id)).toEqual([id]);
    }
    expect(must(core.sendMessage({ type: 'track', call: { userId: 'after', event: 'After salvage' } })).message.id).toBeGreaterThan(newest);
  });

  it('--salvage of a file nothing can be read from changes nothing and says so, exit 1', async () => {
    const dataDir = join(newDataDir(), 'data');
    const file = notADatabase(dataDir);
    const cli = captureIO();
    expect(await runCli(['doctor', '--data-dir', dataDir, '--salvage'], cli.io)).toBe(1);
    expect(cli.err()).toContain(`nothing can be read from ${file}`);
    expect(cli.err()).toContain('nothing was changed');
    expect(readdirSync(dataDir).filter((f) => f.startsWith('hookbench.db'))).toEqual(['hookbench.db']);
  });
});

describe('damage while running', () => {
  it('a page damaged under a running core is found by the check it runs while quiet: writes stop, naming the file and hookbench doctor', async () => {
    const { createCore, internalsOf } = await import('../../../main/app/createCore.js');
    const { writeSync, openSync, closeSync } = await import('node:fs');
    const dataDir = join(newDataDir(), 'data');
    const core = createCore({ dataDir, autoStart: false, integrityCheckIntervalMs: 50 });
    onCleanup(() => core.close());
    for (let i = 0; i < 20; i++) must(core.sendMessage({ type: 'track', call: { userId: `u${i}`, event: 'Before' } }));
    const db = internalsOf(core).store.db;
    db.pragma('wal_checkpoint(TRUNCATE)');
    // attempts: a table no write of a message reads, so that only the running check can find its damage.
    const root = db.prepare('SELECT rootpage FROM sqlite_schema WHERE name = ?').pluck().get('attempts') as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const file = join(dataDir, 'hookbench.db');
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0xab), 0, pageSize, (root - 1) * pageSize);
    closeSync(fd);
    await new Promise<void>((resolve) => core.health.onFailure(() => resolve()));
    // Every face's writes go through the guard (serve's HTTP and ingestion, the desktop's IPC): refused with 503.
    const { guardWrites } = await import('../../../main/server/writeGuard.js');
    const { createCommandHandlers } = await import('../../../main/app/commandHandlers.js');
    const { dispatch } = await import('../../../main/contract/dispatch.js');
    const handlers = guardWrites(createCommandHandlers(core), core.health);
    const refused = await dispatch(handlers, 'sendMessage', { type: 'track', call: { userId: 'u', event: 'After' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringContaining(`database file ${file} is damaged (integrity check: `) } });
    if (!refused.ok) expect(refused.error.message).toContain(`hookbench doctor --data-dir ${dataDir}`);
  });

  it('the check while running reads the file as it is now: a search index the engine changed since the last check is not taken for damage', async () => {
    const { createCore, internalsOf } = await import('../../../main/app/createCore.js');
    const { startEngineWorker, stoppableOnceReady } = await import('../../../main/platform/workers.js');
    const dataDir = join(newDataDir(), 'data');
    const core = createCore({ dataDir, autoStart: false });
    onCleanup(() => core.close());
    const db = internalsOf(core).store.db;
    const file = join(dataDir, 'hookbench.db');
    // A background thread of its own (checkpoints alone, every check asked runs), asked to check after each change of the search index.
    const worker = startEngineWorker('app/backgroundWorker', { workerData: { file, checkpoints: { intervalMs: 3_600_000, checkShare: 1 }, index: null } satisfies BackgroundWorkerData });
    const reports: string[][] = [];
    let answered: (() => void) | null = null;
    worker.on('message', (m: { type?: string; problems?: string[] }) => {
      if (m.type !== 'integrity') return;
      reports.push(m.problems ?? []);
      answered?.();
    });
    // Closed, not terminated: it holds a connection to the database.
    const thread = stoppableOnceReady(worker, 'close');
    onCleanup(() => thread.stop());
    const index = db.prepare('INSERT INTO message_search(rowid, body) VALUES (?, ?)');
    let rowid = 0;
    for (let round = 0; round < 40; round++) {
      db.transaction(() => {
        for (let i = 0; i < 50; i++) {
          rowid++;
          index.run(rowid, `{"event":"Order ${rowid}","userId":"user-${rowid % 97}","note":"${'abc'.repeat(rowid % 20)}"}`);
        }
      })();
      if (round % 3 === 0) db.prepare('DELETE FROM message_search WHERE rowid % 7 = ? AND rowid > ?').run(round % 7, rowid - 500);
      const reported = new Promise<void>((resolve) => (answered = resolve));
      worker.postMessage('check');
      await reported;
    }
    expect(reports).toHaveLength(40);
    expect(reports.flat()).toEqual([]);
  });

  it("the check while running reads through a read-only connection of its own with a page cache of a few hundred KiB, not better-sqlite3's 16 MB", async () => {
    const { openForCheck, ONE_PASS_CACHE_KIB, quickCheck } = await import('../../../main/store/integrity.js');
    const dataDir = join(newDataDir(), 'data');
    const core = newCore({ dataDir, autoStart: false });
    for (let i = 0; i < 5; i++) must(core.sendMessage({ type: 'track', call: { userId: `u${i}`, event: 'Checked' } }));
    const check = openForCheck(join(dataDir, 'hookbench.db'));
    onCleanup(() => void check.close());
    expect(check.pragma('cache_size', { simple: true })).toBe(-ONE_PASS_CACHE_KIB);
    expect(ONE_PASS_CACHE_KIB).toBeLessThanOrEqual(1024);
    expect(check.readonly).toBe(true);
    expect(quickCheck(check)).toEqual([]);
  });
});
