/**
 * listMessages' SQL (MessageQueries) over the history index: every filter and combination returns exactly
 * what a plain reading of the rows says, whatever part of the messages is indexed, with messages received
 * out of order and messages deleted; and every filter is led by an index, never a scan of the table.
 */
import { seededRandom } from '../../../bench/seededRandom.js';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGE_STATUSES, type MessageStatus } from '../../../main/contract/messages.js';
import type { MessageType } from '../../../main/contract/message/messageShapes.js';
import { MessageQueries } from '../../../main/store/messageQueries.js';
import { trigramQuery, type MessageFilter } from '../../../main/store/messageQueryPlan.js';
import { Store } from '../../../main/store/store.js';
import { must, newCore, newDataDir, onCleanup } from '../../helpers/harness.js';


const TYPES: MessageType[] = ['track', 'page', 'identify', 'alias'];
const SOURCES = ['s1', 's2', 's3'];
const DESTINATIONS = ['d1', 'd2', 'd3'];
const WORDS = ['espresso', 'Espresso', 'ESPRESSO', 'filter', '100%', 'a_b', 'Ünïcode', 'ünïcode', 'quote"d', 'back\\slash', 'ab', 'x'];

interface Row {
  id: number;
  type: string;
  source_id: string | null;
  user_id: string | null;
  event: string | null;
  received_at: number;
  status: MessageStatus;
  body: Buffer;
}

function newStore(): { store: Store; queries: MessageQueries } {
  const store = new Store(join(newDataDir(), 'hookbench.db'));
  onCleanup(() => store.close());
  for (const id of SOURCES) store.config.insertSource({ id, name: id, kind: 'web', writeKey: `wk-${id}`, createdAt: 1 });
  return { store, queries: store.queries };
}

/** Adds `n` random messages; received_at mostly grows, some go back (a clock put back) or repeat. */
function addMessages(store: Store, r: () => number, n: number, clock: { t: number }): void {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  store.transaction(() => {
    for (let i = 0; i < n; i++) {
      const x = r();
      clock.t += x < 0.1 ? -Math.floor(r() * 5000) : x < 0.2 ? 0 : Math.floor(r() * 1000);
      const type = pick(TYPES);
      const words = Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(WORDS));
      const body = Buffer.from(JSON.stringify({ type, note: words.join(' '), n: Math.floor(r() * 1000) }));
      const deliveries = DESTINATIONS.filter(() => r() < 0.35).map((destinationId) => ({ destinationId, destinationName: destinationId, nextAttemptAt: clock.t }));
      store.messages.insertMessage(
        {
          messageId: `m-${clock.t}-${i}`,
          sourceId: r() < 0.1 ? null : pick(SOURCES),
          type,
          userId: r() < 0.15 ? null : `u${Math.floor(r() * 12)}`,
          anonymousId: null,
          event: type === 'track' ? `E${Math.floor(r() * 6)}` : null,
          receivedAt: clock.t,
          body,
          callJson: '{}',
          status: pick(MESSAGE_STATUSES),
          statusReason: null,
          replayOf: null,
        },
        deliveries,
      );
    }
  });
}

const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The filter read plainly, row by row: what every plan must return. */
function expected(store: Store, filter: MessageFilter, before: number, limit: number): number[] {
  const rows = store.db
    .prepare(
      `SELECT m.id, m.type, m.source_id, m.user_id, m.event, m.received_at, m.status, p.body FROM messages m JOIN message_payloads p ON p.message_id = m.id ORDER BY m.id DESC`,
    )
    .all() as Row[];
  const destinations = store.db.prepare('SELECT message_id, destination_id FROM deliveries').all() as { message_id: number; destination_id: string }[];
  return rows
    .filter(
      (m) =>
        m.id < before &&
        (filter.status === undefined || m.status === filter.status) &&
        (filter.type === undefined || m.type === filter.type) &&
        (filter.sourceId === undefined || m.source_id === filter.sourceId) &&
        (filter.userId === undefined || m.user_id === filter.userId) &&
        (filter.event === undefined || m.event === filter.event) &&
        (filter.destinationId === undefined || destinations.some((d) => d.message_id === m.id && d.destination_id === filter.destinationId)) &&
        (filter.from === undefined || m.received_at >= filter.from) &&
        (filter.to === undefined || m.received_at < filter.to) &&
        (filter.text === undefined || asciiLower(m.body.toString('utf8')).includes(asciiLower(filter.text))),
    )
    .slice(0, limit)
    .map((m) => m.id);
}

function randomFilter(r: () => number, times: { min: number; max: number }): MessageFilter {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const filter: MessageFilter = {};
  const terms = 1 + Math.floor(r() * 3);
  for (let k = 0; k < terms; k++) {
    switch (Math.floor(r() * 9)) {
      case 0:
        filter.status = pick(MESSAGE_STATUSES);
        break;
      case 1:
        filter.type = pick(TYPES);
        break;
      case 2:
        filter.sourceId = pick([...SOURCES, 's-unknown']);
        break;
      case 3:
        filter.userId = `u${Math.floor(r() * 13)}`;
        break;
      case 4:
        filter.event = `E${Math.floor(r() * 7)}`;
        break;
      case 5:
        filter.destinationId = pick(DESTINATIONS);
        break;
      case 6:
        filter.text = pick([...WORDS, 'spresso fil', 'ESPRESSO filter', '%', '_', '"note":"', 'nothing-like-this']);
        break;
      case 7:
        filter.from = times.min + Math.floor(r() * (times.max - times.min));
        break;
      default:
        filter.to = times.min + Math.floor(r() * (times.max - times.min));
    }
  }
  return filter;
}

/** Random filters and cursors, each page compared with the plain reading; then the pages walked to the end. */
function checkAgainstPlainReading(store: Store, queries: MessageQueries, r: () => number, filters: number): void {
  const times = store.db.prepare('SELECT min(received_at) AS min, max(received_at) AS max FROM messages').get() as { min: number; max: number };
  const newest = (store.db.prepare('SELECT max(id) FROM messages').pluck().get() as number) + 1;
  for (let k = 0; k < filters; k++) {
    const filter = randomFilter(r, times);
    const before = r() < 0.5 ? newest : Math.floor(r() * newest) + 1;
    const limit = 1 + Math.floor(r() * 40);
    const got = queries.list(filter, before, limit).map((m) => m.id);
    expect({ filter, before, limit, ids: got }).toEqual({ filter, before, limit, ids: expected(store, filter, before, limit) });
  }
  // Whole walks with cursors: every matching message exactly once, newest first.
  for (let k = 0; k < 5; k++) {
    const filter = randomFilter(r, times);
    const walked: number[] = [];
    let cursor: number | undefined;
    for (;;) {
      const page = queries.list(filter, cursor, 8).map((m) => m.id);
      walked.push(...page);
      if (page.length < 8) break;
      cursor = page.at(-1);
    }
    expect({ filter, walked }).toEqual({ filter, walked: expected(store, filter, Number.MAX_SAFE_INTEGER, 1e9) });
  }
}

describe('listMessages over the history index', () => {
  it('returns what the rows say: partly indexed, fully indexed, after deletions and ids given again', () => {
    const { store, queries } = newStore();
    const r = seededRandom(9);
    const clock = { t: 1_000_000 };
    addMessages(store, r, 500, clock);
    checkAgainstPlainReading(store, queries, r, 150); // nothing indexed: every plan reads the table in id order

    while (queries.index.covered() < 300) queries.index.indexNext(37);
    expect(queries.index.lag()).toBeGreaterThan(150);
    checkAgainstPlainReading(store, queries, r, 250); // indexed up to ~300, the rest read in id order

    while (queries.index.indexNext(100) > 0);
    expect(queries.index.lag()).toBe(0);
    checkAgainstPlainReading(store, queries, r, 250);

    // Deletions (retention): indexed and unindexed, old and the newest; then new messages take the freed ids.
    const del = store.db.prepare('DELETE FROM messages WHERE id = ?');
    for (const id of [1, 2, 50, 120, 299, 300, 301]) del.run(id);
    store.db.prepare('DELETE FROM messages WHERE id > 440').run();
    expect(queries.index.covered()).toBe(440);
    checkAgainstPlainReading(store, queries, r, 150);
    addMessages(store, r, 60, clock);
    expect(store.db.prepare('SELECT max(id) FROM messages').pluck().get()).toBe(500);
    checkAgainstPlainReading(store, queries, r, 150);
    while (queries.index.indexNext(100) > 0);
    checkAgainstPlainReading(store, queries, r, 150);
    // The search index holds exactly the remaining messages.
    const searched = store.db.prepare(`SELECT count(*) FROM message_search WHERE message_search MATCH '"ote"'`).pluck().get();
    expect(searched).toBe(store.db.prepare('SELECT count(*) FROM messages').pluck().get());
  });

  it('searches substrings case-insensitively for ASCII only, wildcards literal, short texts too', () => {
    const { store, queries } = newStore();
    const clock = { t: 5_000 };
    const add = (note: string) =>
      store.messages.insertMessage(
        { messageId: note, sourceId: 's1', type: 'track', userId: 'u', anonymousId: null, event: 'E', receivedAt: ++clock.t, body: Buffer.from(JSON.stringify({ note })), callJson: '{}', status: 'delivered', statusReason: null, replayOf: null },
        [],
      ).id;
    const ids = { upper: add('ESPRESSO beans'), percent: add('100% off'), underscore: add('a_b'), plain: add('aXb 100 off'), umlaut: add('Ünïcode'), lower: add('ünïcode') };
    while (queries.index.indexNext(100) > 0);
    const text = (t: string) => queries.list({ text: t }, undefined, 50).map((m) => m.id);
    expect(text('espresso')).toEqual([ids.upper]);
    expect(text('SPRESSO BE')).toEqual([ids.upper]);
    expect(text('100%')).toEqual([ids.percent]);
    expect(text('a_b')).toEqual([ids.underscore]);
    expect(text('ünïcode')).toEqual([ids.lower]); // LIKE folds ASCII only, as the filter promises
    expect(text('%')).toEqual([ids.percent]);
    expect(text('ab')).toEqual([]);
    expect(trigramQuery('ab')).toBeNull();
    expect(trigramQuery('a"bc')).toBe('"a""b" AND """bc"');
  });

  it('every filter is led by an index, and the unindexed tail is read as an id range', () => {
    const { store, queries } = newStore();
    addMessages(store, seededRandom(3), 300, { t: 1_000_000 });
    while (queries.index.covered() < 200) queries.index.indexNext(50);
    // A `from` past every indexed message's time needs no read of messages_received: one before it does.
    const from = Math.floor((1_000_000 + queries.index.maxReceived()!) / 2);
    const leads: [MessageFilter, string, RegExp][] = [
      [{}, 'scan', /SEARCH m USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/],
      [{ status: 'failed' }, 'status', /SEARCH m USING (COVERING )?INDEX messages_status \(status=\? AND rowid<\?\)/],
      [{ type: 'alias' }, 'facet', /SEARCH f USING PRIMARY KEY \(key=\? AND id<\?\)/],
      [{ sourceId: 's2' }, 'facet', /SEARCH f USING PRIMARY KEY \(key=\? AND id<\?\)/],
      [{ userId: 'u3' }, 'facet', /SEARCH f USING PRIMARY KEY \(key=\? AND id<\?\)/],
      [{ event: 'E2' }, 'facet', /SEARCH f USING PRIMARY KEY \(key=\? AND id<\?\)/],
      [{ destinationId: 'd2' }, 'facet', /SEARCH f USING PRIMARY KEY \(key=\? AND id<\?\)/],
      [{ text: 'espresso' }, 'search', /SCAN s VIRTUAL TABLE INDEX \d+:M/],
      [{ from }, 'time', /messages_received \(received_at>\?\)/],
      [{ to: 1_050_000 }, 'time', /messages_received \(received_at<\?\)/],
      [{ type: 'track', userId: 'u3' }, 'facet', /SEARCH f USING PRIMARY KEY \(key=\? AND id<\?\)/],
      [{ status: 'failed', sourceId: 's1' }, 'status|facet', /SEARCH (m|f) USING/],
      [{ text: 'espresso', type: 'alias' }, 'search|facet', /SEARCH f USING PRIMARY KEY|SCAN s VIRTUAL TABLE/],
    ];
    for (const [filter, plan, lead] of leads) {
      const explained = queries.explain(filter);
      const lines = explained.statements.flatMap((s) => s.plan);
      expect({ filter, plan: explained.plan }).toEqual({ filter, plan: expect.stringMatching(new RegExp(`^(${plan})$`)) });
      expect({ filter, lines }).toEqual({ filter, lines: expect.arrayContaining([expect.stringMatching(lead)]) });
      // Nothing reads a whole table: a SCAN is only of a virtual table (json_each, the search index) or a subquery.
      const scans = lines.filter((l) => /^SCAN /.test(l) && !/VIRTUAL TABLE|^SCAN \(subquery/.test(l));
      expect({ filter, scans }).toEqual({ filter, scans: [] });
      // The tail (messages after the watermark) is an id range, never a full read.
      for (const l of lines.filter((x) => /^SEARCH m USING INTEGER PRIMARY KEY \(rowid>/.test(x))) expect(l).toContain('rowid<?');
    }
    // Past the latest time the index covers, no indexed message in order can match: messages_received is not read.
    const past = queries.explain({ from: queries.index.maxReceived()! + 1 }).statements.flatMap((s) => s.plan);
    expect(past.filter((l) => l.includes('messages_received'))).toEqual([]);
  });

  it('a rare value past the watermark is found in the tail held in memory, not by reading rows, and stays right as the watermark moves', () => {
    const { store, queries } = newStore();
    const r = seededRandom(21);
    const clock = { t: 2_000_000 };
    addMessages(store, r, 400, clock);
    const rare = (i: number) =>
      store.messages.insertMessage(
        { messageId: `rare-${i}`, sourceId: 's3', type: 'group', userId: 'u-rare', anonymousId: null, event: null, receivedAt: clock.t, body: Buffer.from('{}'), callJson: '{}', status: 'delivered', statusReason: null, replayOf: null },
        [{ destinationId: 'd-rare', destinationName: 'd-rare', nextAttemptAt: clock.t }],
      ).id;
    const planted = [rare(1)];
    addMessages(store, r, 300, clock);
    planted.push(rare(2));
    addMessages(store, r, 300, clock);
    const filters: MessageFilter[] = [{ userId: 'u-rare' }, { destinationId: 'd-rare' }, { type: 'group', userId: 'u-rare' }, { userId: 'u-rare', from: clock.t - 1 }, { userId: 'nobody' }];
    const tailScans = (filter: MessageFilter) =>
      queries
        .explain(filter)
        .statements.flatMap((s) => s.plan)
        .filter((l) => /^SEARCH m USING INTEGER PRIMARY KEY \(rowid>\?/.test(l) || /^SCAN m\b/.test(l));
    for (const step of [0, 150, 450, 700, 1002]) {
      while (queries.index.covered() < step && queries.index.indexNext(Math.min(50, step - queries.index.covered())) > 0);
      for (const filter of filters) {
        expect({ step, filter, ids: queries.list(filter, undefined, 10).map((m) => m.id) }).toEqual({ step, filter, ids: expected(store, filter, Number.MAX_SAFE_INTEGER, 10) });
        // Past the watermark the tail's candidates lead (json_each, one row each); no id range is read row by row.
        expect({ step, filter, scans: tailScans(filter) }).toEqual({ step, filter, scans: [] });
      }
      expect(queries.list({ userId: 'u-rare' }, undefined, 10).map((m) => m.id)).toEqual([...planted].reverse());
      // What the index covers, the tail lets go of.
      expect(queries.tail.range.from).toBe(Math.min(queries.index.covered(), queries.tail.range.to));
    }
    expect(queries.index.lag()).toBe(0);
    // A restarted store tells its tail, slice by slice from the newest down, of the messages the index does
    // not cover yet; the answers are the same at every step, and once loaded no row is read one by one.
    addMessages(store, r, 50, clock);
    const reopen = () => {
      const reopened = new Store(store.file);
      onCleanup(() => reopened.close());
      return reopened;
    };
    const restarted = reopen();
    expect(restarted.queries.tail.range).toEqual({ from: 1052, to: 1052 });
    const same = (q: MessageQueries, step: string) => {
      for (const filter of filters) expect({ step, filter, ids: q.list(filter, undefined, 10).map((m) => m.id) }).toEqual({ step, filter, ids: expected(store, filter, Number.MAX_SAFE_INTEGER, 10) });
    };
    same(restarted.queries, 'nothing loaded');
    expect(restarted.loadTail(20)).toBe(true);
    expect(restarted.queries.tail.range).toEqual({ from: 1032, to: 1052 });
    same(restarted.queries, 'one slice loaded');
    // New messages stored meanwhile follow the newest: the tail holds both ends.
    addMessages(restarted, r, 5, clock);
    expect(restarted.queries.tail.range).toEqual({ from: 1032, to: 1057 });
    while (restarted.loadTail(20));
    expect(restarted.queries.tail.range).toEqual({ from: 1002, to: 1057 });
    same(restarted.queries, 'all loaded');
    for (const filter of filters) {
      const scans = restarted.queries
        .explain(filter)
        .statements.flatMap((s) => s.plan)
        .filter((l) => /^SEARCH m USING INTEGER PRIMARY KEY \(rowid>\?/.test(l) || /^SCAN m\b/.test(l));
      expect({ filter, scans }).toEqual({ filter, scans: [] });
    }
    // A gap in the ids: the tail vouches for the run above it, and the ids below the gap are read in id order.
    restarted.close();
    store.db.prepare('DELETE FROM messages WHERE id = ?').run(1030);
    const gapped = reopen();
    while (gapped.loadTail(20));
    expect(gapped.queries.tail.range).toEqual({ from: 1030, to: 1057 });
    same(gapped.queries, 'a gap');
    // The message just below the loaded run deleted while loading: the loading ends (it never spins), the
    // tail keeps what it vouches for, and the answers stay the plain reading's.
    gapped.close();
    const deleting = reopen();
    expect(deleting.loadTail(10)).toBe(true);
    const below = deleting.queries.tail.range.from;
    deleting.db.prepare('DELETE FROM messages WHERE id = ?').run(below);
    let slices = 0;
    while (deleting.loadTail(10)) expect(++slices).toBeLessThan(10);
    expect(deleting.queries.tail.range).toEqual({ from: below, to: 1057 });
    same(deleting.queries, 'deleted while loading');
  });

  it('a text search reads at most its budget of unindexed bodies a page, and its pages followed give exactly the plain reading', () => {
    const { store, queries } = newStore();
    const r = seededRandom(33);
    const clock = { t: 3_000_000 };
    addMessages(store, r, 600, clock);
    const times = store.db.prepare('SELECT min(received_at) AS min, max(received_at) AS max FROM messages').get() as { min: number; max: number };
    const budget = 37;
    /** Every page of a filter, followed by its cursors; each page that stopped early moved on and read no more ids than its budget. */
    const walk = (filter: MessageFilter, limit: number) => {
      const walked: number[] = [];
      let before: number | undefined;
      let stops = 0;
      for (;;) {
        const { rows, stopped } = queries.listWithin(filter, before, limit, budget);
        walked.push(...rows.map((m) => m.id));
        if (stopped) {
          stops++;
          expect(rows.length).toBeLessThan(limit);
          expect(stopped.before).toBeLessThan(before ?? Number.MAX_SAFE_INTEGER);
          // A text filter alone reads unindexed ids in a window of at most `budget`.
          if (Object.keys(filter).join() === 'text' && before !== undefined) expect(before - stopped.before).toBeLessThanOrEqual(budget);
          expect(stopped.left).toBeGreaterThanOrEqual(0);
          before = stopped.before;
          continue;
        }
        if (rows.length < limit) break;
        before = rows.at(-1)!.id;
      }
      expect({ filter, walked }).toEqual({ filter, walked: expected(store, filter, Number.MAX_SAFE_INTEGER, 1e9) });
      return stops;
    };
    let stopsSeen = 0;
    for (const covered of [0, 250, 600]) {
      while (queries.index.covered() < covered && queries.index.indexNext(50) > 0);
      for (let k = 0; k < 40; k++) {
        const filter = { ...randomFilter(r, times), text: WORDS[k % WORDS.length]! };
        stopsSeen += walk(filter, 1 + Math.floor(r() * 20));
      }
      // Without a text filter nothing is bounded: the page is list()'s.
      expect(queries.listWithin({ userId: 'u3' }, undefined, 10, budget)).toEqual({ rows: queries.list({ userId: 'u3' }, undefined, 10), stopped: null });
    }
    expect(stopsSeen).toBeGreaterThan(0);
    // Unindexed and rare: the first page stops after its budget with the rest of the unindexed messages still to search.
    addMessages(store, r, 200, clock);
    const first = queries.listWithin({ text: 'nothing-like-this' }, undefined, 10, budget);
    expect(first.rows).toEqual([]);
    expect(first.stopped).toEqual({ before: 801 - budget, left: 800 - budget - queries.index.covered() });
  });

  it('counts per status: each status but the largest counted, the largest by difference, as statuses change', () => {
    const { store, queries } = newStore();
    addMessages(store, seededRandom(5), 200, { t: 1 });
    const plain = () => {
      const counts = Object.fromEntries(MESSAGE_STATUSES.map((s) => [s, 0]));
      for (const { status, n } of store.db.prepare('SELECT status, count(*) AS n FROM messages GROUP BY status').all() as { status: string; n: number }[]) counts[status] = n;
      return counts;
    };
    expect(queries.countsPerStatus()).toEqual(plain());
    store.db.prepare(`UPDATE messages SET status = 'failed' WHERE id % 3 = 0`).run();
    expect(queries.countsPerStatus()).toEqual(plain());
    expect(queries.countsPerStatus()).toEqual(plain());
    store.db.prepare(`DELETE FROM messages WHERE id % 5 = 0`).run();
    expect(queries.countsPerStatus()).toEqual(plain());
  });

  it('a quiet core indexes what it stored, off the hot path', async () => {
    const dataDir = newDataDir();
    const core = newCore({ dataDir });
    must(core.sendMessages({ messages: Array.from({ length: 300 }, (_, i) => ({ type: 'track' as const, call: { userId: `u${i}`, event: 'Indexed' } })) }));
    const db = new Database(join(dataDir, 'hookbench.db'), { readonly: true });
    onCleanup(() => {
      db.close();
    });
    const covered = () => db.prepare('SELECT covered FROM history_state').pluck().get() as number;
    const deadline = Date.now() + 10_000;
    while (covered() < 300 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(covered()).toBe(300);
    expect(must(core.listMessages({ userId: 'u7' })).items.map((m) => m.userId)).toEqual(['u7']);
    expect(must(core.listMessages({ text: 'INDEXED', limit: 1000 })).items).toHaveLength(300);
  });
});
