/**
 * The history index is built on the background thread (app/backgroundThread.ts, history/historyIndexPart.ts),
 * on a second connection to the file: it catches up while the engine's thread does not turn its event loop at all, every first page
 * read on the engine's connection meanwhile is the one the caught-up index gives, and the engine's own
 * transactions take the write lock first, so that the thread's commits never make them fail.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import type { MessageType } from '../../../main/contract/message/messageShapes.js';
import { startBackgroundThread, type BackgroundWorkerData } from '../../../main/app/backgroundThread.js';
import { checkpointPart } from '../../../main/app/checkpointPart.js';
import { startEngineWorker } from '../../../main/platform/workers.js';
import { historyIndexPart, type HistoryIndexPartOptions } from '../../../main/history/historyIndexPart.js';
import { HistoryIndex } from '../../../main/store/historyIndex.js';
import type { MessageFilter } from '../../../main/store/messageQueryPlan.js';
import { Store } from '../../../main/store/store.js';
import { newDataDir, onCleanup } from '../../helpers/harness.js';

const TYPES: MessageType[] = ['track', 'page', 'identify', 'alias'];
const MESSAGES = 3000;

function storeWithMessages(n: number): Store {
  const store = new Store(join(newDataDir(), 'hookbench.db'));
  onCleanup(() => store.close());
  for (const id of ['s1', 's2']) store.config.insertSource({ id, name: id, kind: 'web', writeKey: `wk-${id}`, createdAt: 1 });
  const batch = Array.from({ length: n }, (_, i) => {
    const type = TYPES[i % TYPES.length]!;
    // Every 7th message is received earlier than the one before it (a clock put back): history_late.
    const receivedAt = 1_000_000 + i * 10 - (i % 7 === 0 ? 5_000 : 0);
    return {
      message: {
        messageId: `m-${i}`,
        sourceId: i % 11 === 0 ? 's2' : 's1',
        type,
        userId: i % 500 === 3 ? 'rare-user' : `u${i % 40}`,
        anonymousId: null,
        event: type === 'track' ? (i % 997 === 5 ? 'Rare Event' : `E${i % 6}`) : null,
        receivedAt,
        body: Buffer.from(JSON.stringify({ type, note: i % 613 === 1 ? 'a wyvernqz word' : `espresso ${i % 9}` })),
        callJson: '{}',
        status: 'delivered' as const,
        statusReason: null,
        replayOf: null,
      },
      deliveries: i % 3 === 0 ? [{ destinationId: 'd1', destinationName: 'd1', nextAttemptAt: receivedAt }] : [],
    };
  });
  store.transaction(() => {
    for (let i = 0; i < batch.length; i += 500) store.messages.insertMessages(batch.slice(i, i + 500));
  });
  return store;
}

const FILTERS: MessageFilter[] = [
  {},
  { userId: 'rare-user' },
  { userId: 'u7' },
  { event: 'Rare Event' },
  { type: 'alias', sourceId: 's2' },
  { destinationId: 'd1' },
  { text: 'wyvernqz' },
  { text: 'espresso 4' },
  { from: 1_000_000 + 400 * 10, to: 1_000_000 + 900 * 10 },
  { type: 'track', userId: 'rare-user' },
];

/** The background thread with the history index alone. */
function indexThread(file: string, options: HistoryIndexPartOptions): { stop(): Promise<void> } {
  return startBackgroundThread({ file, checkpoints: null, index: historyIndexPart(options), onError: options.onError });
}

const firstPages = (store: Store): string[] => FILTERS.map((f) => store.queries.list(f, undefined, 51).map((m) => m.id).join(','));

describe('the history index on the background thread', () => {
  it('catches up while the engine thread is blocked, and every first page read meanwhile is the caught-up one', () => {
    const store = storeWithMessages(MESSAGES);
    const index = store.queries.index;
    expect(index.covered()).toBe(0);
    const unindexed = firstPages(store);
    const errors: unknown[] = [];
    // One small chunk a turn, and a second between looks when there is nothing to do: caught up in time only
    // if each next turn follows at once on the thread's own event loop, with nothing else waking it.
    const thread = indexThread(store.file, { writing: store.writing, roundsInFlight: () => 0, onError: (e) => errors.push(e), intervalMs: 1000, sliceMs: 1, chunk: 25 });
    onCleanup(() => thread.stop());
    // A loop that never gives the event loop a turn: only another thread can move the watermark.
    const seen = new Set<number>();
    const deadline = Date.now() + 60_000;
    for (let covered = index.covered(); covered < MESSAGES; covered = index.covered()) {
      if (Date.now() > deadline) throw new Error(`the index thread stopped at ${covered} of ${MESSAGES} (errors: ${errors.map(String).join('; ')})`);
      if (seen.has(covered)) continue;
      seen.add(covered);
      expect(firstPages(store)).toEqual(unindexed);
    }
    expect(errors).toEqual([]);
    expect(seen.size).toBeGreaterThan(1); // pages were read part-way, not only before and after
    expect(firstPages(store)).toEqual(unindexed);
    // What the thread wrote is what the engine's connection would have written.
    const facets = store.db.prepare('SELECT count(*) FROM history_facets').pluck().get() as number;
    const late = store.db.prepare('SELECT count(*) FROM history_late').pluck().get() as number;
    expect(late).toBe(Math.floor((MESSAGES - 1) / 7));
    expect(facets).toBeGreaterThan(MESSAGES * 3);
  });

  it('a store transaction holds the write lock from its start: another connection cannot commit between its read and its write', () => {
    const store = storeWithMessages(10);
    const other = new Database(store.file);
    onCleanup(() => {
      other.close();
    });
    other.pragma('busy_timeout = 0');
    let refused: unknown = null;
    store.transaction(() => {
      store.db.prepare('SELECT max(id) FROM messages').pluck().get();
      try {
        other.prepare('UPDATE history_state SET max_received = 1 WHERE id = 1').run();
      } catch (e) {
        refused = e;
      }
      store.db.prepare(`UPDATE messages SET status = 'failed' WHERE id = 1`).run();
    });
    expect((refused as { code?: string } | null)?.code).toBe('SQLITE_BUSY');
    expect(store.messages.getMessage(1)?.status).toBe('failed');
  });

  it('a page is read in one snapshot: the watermark moving between the plan and the read changes nothing', () => {
    // The range holds in-order messages (ids 400-449, found through an id range below the watermark) and late ones.
    const filters: MessageFilter[] = [{ from: 1_000_000 + 400 * 10, to: 1_000_000 + 450 * 10 }, { userId: 'rare-user' }, { text: 'wyvernqz' }, { event: 'Rare Event', type: 'track' }];
    const store = storeWithMessages(MESSAGES);
    const other = new Database(store.file);
    onCleanup(() => {
      other.close();
    });
    const otherIndex = new HistoryIndex(other);
    for (const filter of filters) {
      const before = store.queries.list(filter, undefined, 51).map((m) => m.id);
      expect(before.length).toBeGreaterThan(0);
      // The other connection indexes half of what is left right after the page first reads the watermark.
      const index = store.queries.index;
      const covered = index.covered.bind(index);
      let moved = false;
      index.covered = () => {
        const value = covered();
        if (!moved) {
          moved = true;
          otherIndex.indexNext(Math.ceil((MESSAGES - value) / 2));
        }
        return value;
      };
      try {
        expect(store.queries.list(filter, undefined, 51).map((m) => m.id)).toEqual(before);
      } finally {
        index.covered = covered;
      }
      expect(moved).toBe(true);
      expect(store.queries.list(filter, undefined, 51).map((m) => m.id)).toEqual(before);
    }
  });

  it('leaves the write lock to the engine: its transactions get in between chunks while the thread is still far behind', () => {
    const total = MESSAGES * 10;
    const store = storeWithMessages(total);
    // A thread that took the lock back as soon as it let go would keep this connection retrying until it
    // had caught up, or past this.
    store.db.pragma('busy_timeout = 1000');
    const errors: unknown[] = [];
    const thread = indexThread(store.file, { writing: store.writing, roundsInFlight: () => 0, onError: (e) => errors.push(e), intervalMs: 10, chunk: 100 });
    onCleanup(() => thread.stop());
    const index = store.queries.index;
    const deadline = Date.now() + 60_000;
    while (index.covered() === 0) if (Date.now() > deadline) throw new Error(`the index thread did not start indexing (errors: ${errors.map(String).join('; ')})`);
    const update = store.db.prepare<[number]>(`UPDATE messages SET status = 'failed' WHERE id = ?`);
    // Status changes are not new messages: the thread goes on indexing between them.
    for (let writes = 0; writes < 50; writes++) store.transaction(() => update.run(1 + writes));
    expect(index.covered()).toBeLessThan(total);
    expect(errors).toEqual([]);
  });

  it('shares one thread with the checkpoints and the integrity checks', async () => {
    const store = storeWithMessages(MESSAGES);
    const started: BackgroundWorkerData[] = [];
    const checkpoints = checkpointPart(store, { integrityCheckIntervalMs: 20, quiet: () => true });
    const seen = new Set<string>();
    const onMessage = checkpoints.onMessage.bind(checkpoints);
    checkpoints.onMessage = (m) => {
      seen.add(String((m as { type?: unknown }).type));
      onMessage(m);
    };
    const finished = vi.spyOn(store, 'finishCheckpoint');
    const errors: unknown[] = [];
    const thread = startBackgroundThread({
      file: store.file,
      checkpoints,
      index: historyIndexPart({ writing: store.writing, roundsInFlight: () => 0, onError: (e) => errors.push(e), intervalMs: 10 }),
      onError: (e) => errors.push(e),
      startWorker: (data) => {
        started.push(data);
        return startEngineWorker('app/backgroundWorker', { workerData: data });
      },
    });
    onCleanup(() => thread.stop());
    await vi.waitFor(
      () => {
        expect(store.queries.index.covered()).toBe(MESSAGES);
        expect([...seen]).toEqual(expect.arrayContaining(['caughtUp', 'integrity', 'progress']));
      },
      { timeout: 60_000, interval: 20 },
    );
    expect(finished).toHaveBeenCalled();
    expect(store.health.problem).toBeNull();
    expect(errors).toEqual([]);
    expect(started).toHaveLength(1);
  });

  describe('a thread that ends on its own', () => {
    /** Threads started so far; the first ends at once with exit code 3, later ones when told to close. */
    function dyingThread(restartAfterMs: number) {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
      onCleanup(() => void vi.useRealTimers());
      const started: BackgroundWorkerData[] = [];
      let reported: (message: string) => void = () => {};
      const errors = new Promise<string>((resolve) => (reported = resolve));
      const thread = startBackgroundThread({
        file: join(newDataDir(), 'hookbench.db'),
        checkpoints: null,
        index: historyIndexPart({ writing: new Int32Array(new SharedArrayBuffer(4)), roundsInFlight: () => 0, onError: () => {} }),
        onError: (e) => reported(e instanceof Error ? e.message : String(e)),
        restartAfterMs,
        startWorker: (data) => {
          started.push(data);
          return new Worker(started.length === 1 ? 'process.exit(3)' : "require('node:worker_threads').parentPort.once('message', () => process.exit(0))", { eval: true });
        },
      });
      onCleanup(() => thread.stop());
      return { thread, started, errors };
    }

    it('is reported in one line and started again, with the same file and options, after restartAfterMs', async () => {
      const { started, errors } = dyingThread(30_000);
      expect(await errors).toBe('the background thread (checkpoints, history index) ended (exit code 3); it starts again in 30 s');
      vi.advanceTimersByTime(29_999);
      expect(started).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(started).toHaveLength(2);
      expect(started[1]).toEqual(started[0]);
    });

    it('is not started again once stopped', async () => {
      const { thread, started, errors } = dyingThread(30_000);
      await errors;
      await thread.stop();
      vi.advanceTimersByTime(60_000);
      expect(started).toHaveLength(1);
    });
  });
});
