/**
 * `npm run bench -- --only history`: the History screen's queries at 1,000,000 stored messages.
 *
 * Builds a database on the real schema (openDb, every migration) straight through better-sqlite3, in big
 * transactions, with realistic distributions: 7 types (track most), 7 statuses (delivered most; in-flight
 * ones only among the newest, retrying ones only in the last hours), 3 sources (one rare), 4 destinations
 * with 1–2 deliveries a message (one rare), ~50,000 user ids (100 heavy users, 200 rare ones with exactly
 * 3 messages), ~200 event names (40 rare ones with 5 messages each), bodies built by the engine's own
 * buildMessage (≈150–650 bytes of JSON; 40 rare words, each in exactly 5 bodies) and received_at spread
 * over 30 days. The database is built once per run (or kept with `--history-db DIR` and reused by later
 * runs; an older schema is migrated, and the migration timed).
 *
 * Then, for every listMessages filter alone and three combinations, with common and with rare values
 * (30 runs by default, the values varied between runs): the first page (50 rows) and a deep page (the
 * cursor after 10 pages), p50/p95, each judged against 50 ms p95. And getOverview's queries.
 */
import { seededRandom } from './seededRandom.js';
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildMessage } from '../main/domain/messages.js';
import { HISTORY_INDEX_CHUNK } from '../main/history/historyIndexer.js';
import type { MessageType } from '../main/contract/message/messageShapes.js';
import type { MessageStatus } from '../main/contract/messages.js';
import { MessageQueries } from '../main/store/messageQueries.js';
import type { MessageFilter } from '../main/store/messageQueryPlan.js';
import { openDb, schemaVersion } from '../main/store/openDb.js';
import { Store } from '../main/store/store.js';

export const HISTORY_TARGET_MS = 50;
const PAGE = 50;
/** The deep page is the one after this many pages. */
const DEEP_AFTER_PAGES = 10;
const DAY = 86_400_000;
const SPAN_MS = 30 * DAY;
/** Bump when the generated data changes: a kept database from another generator is rebuilt. */
const GENERATOR = 2;
const SEED = 20_260_611;

export interface HistoryOptions {
  messages: number;
  /** Timed runs per case (values varied between runs). */
  runs: number;
  /** Keep the database here and reuse it in later runs; null: a temp dir removed after the run. */
  keepDir: string | null;
  /** A case that has spent this long stops early (after at least 5 runs); its row says how many it made. */
  caseBudgetMs: number;
}

export interface Timing {
  runs: number;
  p50: number;
  p95: number;
  max: number;
  /** Rows per answer (mean). */
  rows: number;
}

export interface HistoryCase {
  filter: string;
  variant: 'common' | 'rare';
  /** The values used, in the order of the runs (cycled). */
  values: string;
  /** The newest messages not in the history index yet when this case ran. */
  behind: number;
  first: Timing;
  /** Null when no value had more than 10 pages. */
  deep: Timing | null;
  pass: boolean;
}

export interface HistoryResult {
  messages: number;
  deliveries: number;
  databaseMiB: number;
  /** Null when a kept database was reused. */
  buildSeconds: number | null;
  /** Migrations run on a kept database of an older schema, and how long they took. */
  migrated: { from: number; to: number; seconds: number } | null;
  /**
   * The history index (main/store/historyIndex.ts) caught up over the stored messages, as the indexer does
   * when the core is quiet: how long it took and its CPU per message. Null when it had nothing to do.
   */
  indexing: { messages: number; seconds: number; cpuUsPerMessage: number } | null;
  /** The messages the history index was behind by for the `… (index behind)` cases. */
  lagCases: number;
  schemaVersion: number;
  cases: HistoryCase[];
  overview: Record<string, Timing>;
  passed: number;
  total: number;
}

// ------------------------------------------------------------------ the data


const hex = (r: () => number, n: number): string => {
  let s = '';
  for (let i = 0; i < n; i++) s += ((r() * 16) | 0).toString(16);
  return s;
};
const uuid = (r: () => number): string => `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-a${hex(r, 3)}-${hex(r, 12)}`;

const SOURCES = [
  { id: '5e1f0c2a-0000-4000-8000-00000000a001', name: 'web', kind: 'web', share: 0.7 },
  { id: '5e1f0c2a-0000-4000-8000-00000000a002', name: 'server', kind: 'server', share: 0.299 },
  { id: '5e1f0c2a-0000-4000-8000-00000000a003', name: 'ios (rare)', kind: 'mobile', share: 0.001 },
] as const;
const DESTINATIONS = [
  { id: 'de57a000-0000-4000-8000-00000000d001', name: 'warehouse' },
  { id: 'de57a000-0000-4000-8000-00000000d002', name: 'crm' },
  { id: 'de57a000-0000-4000-8000-00000000d003', name: 'alerts' },
  { id: 'de57a000-0000-4000-8000-00000000d004', name: 'legacy (rare)' },
] as const;
const TYPES: readonly [MessageType, number][] = [
  ['track', 0.5545],
  ['page', 0.15],
  ['identify', 0.12],
  ['screen', 0.1],
  ['group', 0.05],
  ['alias', 0.025],
  ['delete', 0.0005],
];
export const HEAVY_USERS = 100;
export const HEAVY_SHARE = 0.2;
export const NORMAL_USERS = 49_700;
export const RARE_USERS = 200;
const RARE_USER_MESSAGES = 3;
export const RARE_EVENTS = 40;
const RARE_EVENT_MESSAGES = 5;
export const RARE_WORDS = 40;
const RARE_WORD_BODIES = 5;

const VERBS = ['Viewed', 'Clicked', 'Started', 'Completed', 'Added', 'Removed', 'Shared', 'Searched', 'Updated', 'Opened', 'Closed', 'Failed', 'Submitted', 'Downloaded', 'Played'];
const NOUNS = ['Product', 'Order', 'Checkout', 'Cart', 'Coupon', 'Promotion', 'Video', 'Article', 'Form', 'Account'];
/** 150 event names, the first the most common (Zipf). */
export const EVENTS = NOUNS.flatMap((noun) => VERBS.map((verb) => `${noun} ${verb}`));
const PAGES = ['Home', 'Pricing', 'Docs', 'Blog', 'Checkout', 'Cart', 'Product', 'Search', 'Login', 'Signup', 'Account', 'Settings', 'Careers', 'About', 'Contact', 'Support', 'Status', 'Changelog', 'Legal', 'Partners', 'Integrations', 'Customers', 'Security', 'Enterprise', 'Webinars'];
const SCREENS = ['Feed', 'Profile', 'Inbox', 'Player', 'Library', 'Discover', 'Onboarding', 'Paywall', 'Receipt', 'Map', 'Camera', 'Friends', 'Wallet', 'Rewards', 'Notifications', 'Preferences', 'Help', 'Share Sheet', 'Search Results', 'Order Tracking', 'Review', 'Chat', 'Calendar', 'Goals', 'Streaks'];
const PRODUCTS = ['Espresso beans 1kg', 'Paper filters', 'Pour-over kettle', 'Burr grinder', 'Travel mug', 'Oat milk 1l', 'Chai syrup', 'Cold brew jar', 'Milk frother', 'Tea sampler'];
const AGENTS = [
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
];
const PLANS = ['free', 'team', 'premium', 'enterprise'];

export const heavyUser = (i: number): string => `user-h${i}`;
export const rareUser = (i: number): string => `user-r${String(i).padStart(3, '0')}`;
export const rareEvent = (i: number): string => `Rare Event ${String(i).padStart(2, '0')}`;
/** Fixed width and a terminator: no rare word is a substring of another or of anything else generated. */
export const rareWord = (i: number): string => `wyvernq${String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26))}z`;

/** Zipf-like pick of 0..n-1 (s = 1), rank 0 the most likely. */
function zipf(n: number, r: () => number): number {
  const h = Math.log(n) + 0.5772;
  const target = r() * h;
  // Inverse of the harmonic sum, approximately: H(k) ≈ ln k + γ.
  return Math.min(n - 1, Math.max(0, Math.floor(Math.exp(target - 0.5772)) - 1));
}

export interface Plant {
  user?: string;
  event?: string;
  word?: string;
}

/** Where the rare users, events and words go: distinct random positions, none among the newest in-flight ones. */
export function plants(n: number, r: () => number): Map<number, Plant> {
  const out = new Map<number, Plant>();
  const place = (p: Plant): void => {
    for (;;) {
      const i = Math.floor(r() * (n - 1000));
      if (out.has(i)) continue;
      out.set(i, p);
      return;
    }
  };
  for (let u = 0; u < RARE_USERS; u++) for (let k = 0; k < RARE_USER_MESSAGES; k++) place({ user: rareUser(u) });
  for (let e = 0; e < RARE_EVENTS; e++) for (let k = 0; k < RARE_EVENT_MESSAGES; k++) place({ event: rareEvent(e) });
  for (let w = 0; w < RARE_WORDS; w++) for (let k = 0; k < RARE_WORD_BODIES; k++) place({ word: rareWord(w) });
  return out;
}

export function pickType(r: () => number): MessageType {
  let x = r();
  for (const [type, share] of TYPES) {
    if (x < share) return type;
    x -= share;
  }
  return 'track';
}

export function callFor(type: MessageType, i: number, r: () => number, userId: string | null, anonymousId: string | null, plant: Plant | undefined): Record<string, unknown> {
  const context = { library: { name: 'analytics.js', version: '5.2.1' }, ip: `203.0.113.${(r() * 250) | 0}`, userAgent: AGENTS[zipf(AGENTS.length, r)]!, locale: 'en-US' };
  const who: Record<string, unknown> = {};
  if (userId !== null) who['userId'] = userId;
  if (anonymousId !== null) who['anonymousId'] = anonymousId;
  switch (type) {
    case 'track': {
      const lines = 1 + ((r() * 2) | 0);
      const products = [];
      for (let k = 0; k < lines; k++) {
        const p = zipf(PRODUCTS.length, r);
        products.push({ sku: `sku-${p + 1}`, name: PRODUCTS[p]!, price: 3 + p * 2.5, quantity: 1 + ((r() * 3) | 0) });
      }
      const properties: Record<string, unknown> = { orderId: `order-${i}`, total: Math.round(r() * 20_000) / 100, currency: r() < 0.7 ? 'EUR' : 'USD', products };
      if (plant?.word) properties['note'] = `customer wrote: please gift wrap, ${plant.word} at the door`;
      return { ...who, event: plant?.event ?? EVENTS[zipf(EVENTS.length, r)]!, properties, context };
    }
    case 'page': {
      const page = PAGES[zipf(PAGES.length, r)]!;
      const path = `/${page.toLowerCase()}`;
      return { ...who, name: page, properties: { path, url: `https://shop.example.com${path}`, title: `${page} | Example Shop`, referrer: 'https://www.google.com/' }, context };
    }
    case 'screen':
      return { ...who, name: SCREENS[zipf(SCREENS.length, r)]!, context: { app: { name: 'Example', version: '3.14.0', build: '3140' }, device: { model: 'iPhone15,2', manufacturer: 'Apple' }, os: { name: 'iOS', version: '17.5' } } };
    case 'identify':
      return { ...who, traits: { email: `${userId ?? 'someone'}@example.com`, name: `Person ${i % 9973}`, plan: PLANS[zipf(PLANS.length, r)]!, createdAt: '2025-01-15T09:30:00.000Z' }, context };
    case 'group':
      return { ...who, groupId: `org-${(r() * 3000) | 0}`, traits: { name: `Company ${(r() * 3000) | 0}`, industry: 'Retail', employees: (r() * 500) | 0 } };
    case 'alias':
      return { userId: userId ?? `user-${i}`, previousId: anonymousId ?? `anon-${i}` };
    case 'delete':
      return { userId: userId ?? `user-${i}` };
  }
}

interface DeliveryRow {
  destination: (typeof DESTINATIONS)[number];
  status: string;
  reason: string | null;
  attempts: number;
  firstAttemptAt: number | null;
  nextAttemptAt: number | null;
  updatedAt: number;
}

/** Builds `n` messages into `file`. Returns the number of deliveries. */
function build(file: string, n: number, end: number): number {
  const db = openDb(file);
  db.pragma('synchronous = OFF'); // a throwaway benchmark database
  db.pragma('cache_size = -262144');
  const r = seededRandom(SEED);
  const planted = plants(n, r);
  const start = end - SPAN_MS;
  try {
    db.transaction(() => {
      for (const s of SOURCES) {
        db.prepare('INSERT INTO sources (id, name, kind, write_key, created_at) VALUES (?, ?, ?, ?, ?)').run(s.id, s.name, s.kind, `wk_${s.name}`, start);
      }
      for (const d of DESTINATIONS) {
        const config = { webhooks: [{ url: `http://127.0.0.1:9/${d.name}`, headers: {} }], sharedSecret: null, caFile: null, timeoutMs: 5000, retry: { schedule: [1000], windowMs: 14_400_000, jitter: 0 }, filters: { allowEvents: [], blockEvents: [] } };
        db.prepare('INSERT INTO destinations (id, name, enabled, config, created_at, updated_at) VALUES (?, ?, 1, ?, ?, ?)').run(d.id, d.name, JSON.stringify(config), start, start);
      }
      for (const d of DESTINATIONS) for (const s of SOURCES) db.prepare('INSERT INTO destination_sources (destination_id, source_id) VALUES (?, ?)').run(d.id, s.id);
      db.prepare(`INSERT INTO settings (key, value) VALUES ('bench.history', ?)`).run(JSON.stringify({ generator: GENERATOR, messages: n, end }));
    })();
    const insertMessage = db.prepare(
      `INSERT INTO messages (id, message_id, source_id, type, user_id, anonymous_id, event, received_at, status, status_reason, replay_of)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
    );
    const insertPayload = db.prepare('INSERT INTO message_payloads (message_id, body, call) VALUES (?, ?, ?)');
    const insertDelivery = db.prepare(
      `INSERT INTO deliveries (message_id, destination_id, destination_name, status, reason, attempts, first_attempt_at, next_attempt_at, pending_urls, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
    );
    let deliveries = 0;
    const retryingSince = n - Math.round((n * 4 * 3_600_000) / SPAN_MS); // the last 4 hours
    const chunk = (from: number, to: number): void => {
      for (let i = from; i < to; i++) {
        const id = i + 1;
        const receivedAt = Math.round(start + (i * SPAN_MS) / n);
        const plant = planted.get(i);
        const type: MessageType = plant ? 'track' : pickType(r);
        const x = r();
        const source = x < SOURCES[0].share ? SOURCES[0] : x < SOURCES[0].share + SOURCES[1].share ? SOURCES[1] : SOURCES[2];
        let userId: string | null;
        if (plant?.user) userId = plant.user;
        else if (r() < HEAVY_SHARE) userId = heavyUser((r() * HEAVY_USERS) | 0);
        else userId = `user-${(r() * NORMAL_USERS) | 0}`;
        let anonymousId: string | null = r() < 0.6 ? uuid(r) : null;
        if ((type === 'page' || type === 'screen') && !plant && r() < 0.3) {
          userId = null;
          anonymousId ??= uuid(r);
        }
        const messageId = uuid(r);
        const call = callFor(type, i, r, userId, anonymousId, plant);
        call['messageId'] = messageId;
        const built = buildMessage(type, call, { receivedAt, newMessageId: () => messageId });
        if (!built.ok) throw new Error(`history bench: message ${i} does not build: ${built.error.message}`);

        // Status: in-flight ones are the newest, retrying ones the last hours', the others anywhere.
        let status: MessageStatus;
        const s = r();
        if (i >= n - 300) status = s < 0.6 ? 'queued' : 'delivering';
        else if (i >= retryingSince && s < 0.05) status = 'retrying';
        else if (s < 0.06) status = 'filtered';
        else if (s < 0.1) status = 'failed';
        else if (s < 0.1002) status = 'cancelled';
        else status = 'delivered';

        const rows: DeliveryRow[] = [];
        let statusReason: string | null = null;
        if (status === 'filtered') {
          statusReason = r() < 0.5 ? 'no destination is connected to this source' : 'integrations: All false';
        } else {
          const first = r() < 0.8 ? DESTINATIONS[0] : DESTINATIONS[1];
          const targets: (typeof DESTINATIONS)[number][] = [first];
          const y = r();
          if (y < 0.001) targets.push(DESTINATIONS[3]);
          else if (y < 0.45) targets.push(first === DESTINATIONS[0] ? DESTINATIONS[2] : DESTINATIONS[0]);
          targets.forEach((destination, k) => {
            const attempts = r() < 0.9 ? 1 : 2 + ((r() * 3) | 0);
            const done = receivedAt + 40 + attempts * 1500;
            const row: DeliveryRow = { destination, status: 'delivered', reason: null, attempts, firstAttemptAt: receivedAt + 20, nextAttemptAt: null, updatedAt: done };
            if (k === 0 && status === 'failed') Object.assign(row, { status: 'failed', reason: r() < 0.7 ? 'permanent: HTTP 404' : 'retry window exhausted' });
            if (status === 'cancelled') Object.assign(row, { status: 'cancelled', reason: 'cancelled by user' });
            if (k === 0 && status === 'retrying') Object.assign(row, { status: 'retrying', nextAttemptAt: end + Math.round(r() * 3_600_000) });
            if (status === 'queued' || (k > 0 && status === 'delivering')) Object.assign(row, { status: 'queued', attempts: 0, firstAttemptAt: null, nextAttemptAt: receivedAt, updatedAt: receivedAt });
            if (k === 0 && status === 'delivering') Object.assign(row, { status: 'delivering', attempts: 0, firstAttemptAt: null, updatedAt: receivedAt });
            rows.push(row);
          });
          if (status === 'failed') statusReason = rows[0]!.reason;
          if (status === 'cancelled') statusReason = 'cancelled by user';
        }
        insertMessage.run(id, messageId, source.id, type, built.value.userId, built.value.anonymousId, built.value.event, receivedAt, status, statusReason);
        insertPayload.run(id, built.value.bytes, JSON.stringify(call));
        for (const d of rows) {
          insertDelivery.run(id, d.destination.id, d.destination.name, d.status, d.reason, d.attempts, d.firstAttemptAt, d.nextAttemptAt, d.updatedAt);
          deliveries++;
        }
      }
    };
    const BATCH = 20_000;
    for (let from = 0; from < n; from += BATCH) db.transaction(chunk)(from, Math.min(n, from + BATCH));
    db.pragma('wal_checkpoint(TRUNCATE)');
    return deliveries;
  } finally {
    db.close();
  }
}

interface Stored {
  generator: number;
  messages: number;
  end: number;
  /** Its schema version before this run opened it. */
  schema: number;
}

function storedFacts(file: string): Stored | null {
  if (!existsSync(file)) return null;
  const db = new Database(file, { readonly: true }); // not openDb: no migration yet
  try {
    const row = db.prepare<[], { value: string }>(`SELECT value FROM settings WHERE key = 'bench.history'`).get();
    return row ? { ...(JSON.parse(row.value) as Omit<Stored, 'schema'>), schema: db.pragma('user_version', { simple: true }) as number } : null;
  } catch {
    return null;
  } finally {
    db.close();
  }
}

// ------------------------------------------------------------------ the cases

interface CaseSpec {
  filter: string;
  variant: 'common' | 'rare';
  values: MessageFilter[];
}

function cases(stored: Stored): CaseSpec[] {
  const end = stored.end;
  const start = end - SPAN_MS;
  const n = stored.messages;
  const ids = (k: number, make: (i: number) => string, count: number): string[] => Array.from({ length: k }, (_, j) => make((j * 7) % count));
  const src = SOURCES.map((s) => s.id);
  const dst = DESTINATIONS.map((d) => d.id);
  const pick = <T>(values: readonly T[]): T[] => Array.from({ length: 30 }, (_, j) => values[j % values.length]!);
  // Moments spread over the 30 days (never the newest day), for the time filters' rare cases.
  const past = (j: number): number => start + Math.round(((j * 37) % 97) / 97 * (SPAN_MS - 2 * DAY));
  const specs: CaseSpec[] = [
    { filter: '(none)', variant: 'common', values: [{}] },
    { filter: 'status', variant: 'common', values: pick<MessageFilter>([{ status: 'delivered' }, { status: 'filtered' }, { status: 'failed' }]) },
    { filter: 'status', variant: 'rare', values: pick<MessageFilter>([{ status: 'cancelled' }, { status: 'retrying' }, { status: 'queued' }]) },
    { filter: 'type', variant: 'common', values: pick<MessageFilter>([{ type: 'track' }, { type: 'page' }, { type: 'identify' }, { type: 'screen' }]) },
    { filter: 'type', variant: 'rare', values: pick<MessageFilter>([{ type: 'delete' }, { type: 'alias' }]) },
    { filter: 'sourceId', variant: 'common', values: pick<MessageFilter>([{ sourceId: src[0]! }, { sourceId: src[1]! }]) },
    { filter: 'sourceId', variant: 'rare', values: [{ sourceId: src[2]! }] },
    { filter: 'destinationId', variant: 'common', values: pick<MessageFilter>([{ destinationId: dst[0]! }, { destinationId: dst[1]! }, { destinationId: dst[2]! }]) },
    { filter: 'destinationId', variant: 'rare', values: [{ destinationId: dst[3]! }] },
    { filter: 'userId', variant: 'common', values: ids(30, heavyUser, HEAVY_USERS).map((userId) => ({ userId })) },
    { filter: 'userId', variant: 'rare', values: ids(30, rareUser, RARE_USERS).map((userId) => ({ userId })) },
    { filter: 'event', variant: 'common', values: pick(EVENTS.slice(0, 10)).map((event) => ({ event })) },
    { filter: 'event', variant: 'rare', values: ids(30, rareEvent, RARE_EVENTS).map((event) => ({ event })) },
    { filter: 'text', variant: 'common', values: pick(['espresso', 'CHROME', 'checkout', '"plan":"premium"', 'burr grinder', 'example shop']).map((text) => ({ text })) },
    { filter: 'text', variant: 'rare', values: ids(30, rareWord, RARE_WORDS).map((text) => ({ text })) },
    { filter: 'from', variant: 'common', values: Array.from({ length: 30 }, (_, j) => ({ from: end - (1 + (j % 7)) * DAY })) },
    { filter: 'from', variant: 'rare', values: Array.from({ length: 30 }, (_, j) => ({ from: end - (1 + j) * 60_000 })) },
    { filter: 'to', variant: 'common', values: Array.from({ length: 30 }, (_, j) => ({ to: end - [0.1, 1, 3, 7, 15, 25][j % 6]! * DAY })) },
    { filter: 'to', variant: 'rare', values: Array.from({ length: 30 }, (_, j) => ({ to: start + (1 + j) * 60_000 })) },
    { filter: 'from+to', variant: 'common', values: Array.from({ length: 30 }, (_, j) => ({ from: past(j), to: past(j) + DAY })) },
    { filter: 'from+to', variant: 'rare', values: Array.from({ length: 30 }, (_, j) => ({ from: past(j), to: past(j) + 10 * 60_000 })) },
    { filter: 'type+userId', variant: 'common', values: ids(30, heavyUser, HEAVY_USERS).map((userId) => ({ type: 'track', userId })) },
    { filter: 'type+userId', variant: 'rare', values: ids(30, rareUser, RARE_USERS).map((userId) => ({ type: 'track', userId })) },
    { filter: 'status+sourceId', variant: 'common', values: pick<MessageFilter>([{ status: 'delivered', sourceId: src[0]! }, { status: 'failed', sourceId: src[1]! }]) },
    { filter: 'status+sourceId', variant: 'rare', values: pick<MessageFilter>([{ status: 'failed', sourceId: src[2]! }, { status: 'cancelled', sourceId: src[1]! }]) },
    { filter: 'text+type', variant: 'common', values: pick<MessageFilter>([{ text: 'espresso', type: 'track' }, { text: 'chrome', type: 'page' }]) },
    { filter: 'text+type', variant: 'rare', values: ids(30, rareWord, RARE_WORDS).map((text) => ({ text, type: 'track' as const })) },
  ];
  void n;
  return specs;
}

function describeValue(f: MessageFilter, end: number): string {
  return Object.entries(f)
    .map(([k, v]) => {
      if (k === 'from' || k === 'to') {
        const ago = (end - (v as number)) / 60_000;
        return `${k}=-${ago >= 1440 ? `${(ago / 1440).toFixed(1)}d` : `${Math.round(ago)}m`}`;
      }
      const s = String(v);
      const dest = DESTINATIONS.find((d) => d.id === s);
      const source = SOURCES.find((x) => x.id === s);
      return `${k}=${dest ? dest.name : source ? source.name : s}`;
    })
    .join(' ');
}

function summarizeTimes(times: number[], rows: number[]): Timing {
  const sorted = [...times].sort((a, b) => a - b);
  const rank = (p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
  return { runs: times.length, p50: rank(50), p95: rank(95), max: sorted.at(-1)!, rows: rows.reduce((a, b) => a + b, 0) / rows.length };
}

/** Rare values measured again while the history index is this many messages behind. */
const LAG_CASES = new Set(['text', 'event', 'destinationId', 'from+to']);
const LAG = 20_000;

function measureCase(queries: MessageQueries, spec: CaseSpec, runs: number, budgetMs: number): { first: Timing; deep: Timing | null } {
  // Untimed: prepares the statement, as the app's first call does.
  queries.list(spec.values[0]!, undefined, PAGE + 1);
  const firstTimes: number[] = [];
  const firstRows: number[] = [];
  const deepTimes: number[] = [];
  const deepRows: number[] = [];
  const began = performance.now();
  for (let run = 0; run < runs; run++) {
    const filter = spec.values[run % spec.values.length]!;
    const t0 = performance.now();
    const page = queries.list(filter, undefined, PAGE + 1);
    firstTimes.push(performance.now() - t0);
    firstRows.push(Math.min(PAGE, page.length));
    if (performance.now() - began > budgetMs && run >= 4) break;
  }
  const deepBegan = performance.now();
  for (let run = 0; run < runs; run++) {
    const filter = spec.values[run % spec.values.length]!;
    // The cursor after 10 pages: the id of the 500th row (untimed).
    const upTo = queries.list(filter, undefined, PAGE * DEEP_AFTER_PAGES);
    if (upTo.length < PAGE * DEEP_AFTER_PAGES) {
      if (run >= spec.values.length - 1 && deepTimes.length === 0) break; // no value has that many rows
      continue;
    }
    const cursor = upTo.at(-1)!.id;
    const t0 = performance.now();
    const page = queries.list(filter, cursor, PAGE + 1);
    deepTimes.push(performance.now() - t0);
    deepRows.push(Math.min(PAGE, page.length));
    if (performance.now() - deepBegan > budgetMs && deepTimes.length >= 5) break;
  }
  return { first: summarizeTimes(firstTimes, firstRows), deep: deepTimes.length ? summarizeTimes(deepTimes, deepRows) : null };
}

function timeIt(runs: number, fn: () => unknown): Timing {
  fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return summarizeTimes(times, [1]);
}

// ------------------------------------------------------------------ the run

/** `progress` is told what is happening (building takes a while). */
export async function runHistory(options: HistoryOptions, progress: (line: string) => void): Promise<HistoryResult> {
  const dir = options.keepDir ?? mkdtempSync(join(tmpdir(), 'hookbench-bench-history-'));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `history-${options.messages}.db`);
  try {
    let stored = storedFacts(file);
    let buildSeconds: number | null = null;
    if (!stored || stored.generator !== GENERATOR || stored.messages !== options.messages) {
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
      progress(`building ${options.messages.toLocaleString('en-US')} messages in ${file}`);
      const t0 = performance.now();
      build(file, options.messages, Date.now());
      buildSeconds = (performance.now() - t0) / 1000;
      stored = storedFacts(file)!;
    } else {
      progress(`reusing ${file}`);
    }

    // Open as the app does (this migrates a kept database of an older schema).
    let migrated: HistoryResult['migrated'] = null;
    const before = stored.schema;
    const t0 = performance.now();
    const store = new Store(file);
    if (schemaVersion(store.db) !== before) migrated = { from: before, to: schemaVersion(store.db), seconds: (performance.now() - t0) / 1000 };
    try {
      const queries = store.queries;
      const deliveries = store.db.prepare<[], number>('SELECT count(*) FROM deliveries').pluck().get()!;
      const results: HistoryCase[] = [];
      const measure = (specs: CaseSpec[], behind: number): void => {
        for (const spec of specs) {
          const m = measureCase(queries, spec, options.runs, options.caseBudgetMs);
          const pass = m.first.p95 < HISTORY_TARGET_MS && (m.deep === null || m.deep.p95 < HISTORY_TARGET_MS);
          const values = [...new Set(spec.values.map((v) => describeValue(v, stored!.end)))];
          results.push({
            filter: spec.filter,
            variant: spec.variant,
            values: values.length > 3 ? `${values.slice(0, 2).join(', ')}, … (${values.length})` : values.join(', '),
            behind,
            ...m,
            pass,
          });
          progress(`${spec.filter} ${spec.variant}${behind ? ` (index ${behind} behind)` : ''}: first p95 ${m.first.p95.toFixed(2)} ms${m.deep ? `, deep p95 ${m.deep.p95.toFixed(2)} ms` : ''}`);
        }
      };

      // As the indexer does when the core is quiet: first up to LAG messages short of the newest, to
      // measure a few rare values with an unindexed tail; then the rest.
      const lagCases = Math.min(LAG, Math.floor(options.messages / 10));
      const total = queries.index.lag();
      const i0 = performance.now();
      const c0 = process.cpuUsage();
      indexUpTo(queries, options.messages - lagCases);
      const indexSoFar = { ms: performance.now() - i0, cpu: process.cpuUsage(c0) };
      if (total > lagCases) {
        progress(`history index caught up to ${lagCases.toLocaleString('en-US')} short of the newest in ${(indexSoFar.ms / 1000).toFixed(1)} s`);
        measure(cases(stored).filter((c) => c.variant === 'rare' && LAG_CASES.has(c.filter)), queries.index.lag());
      }
      const i1 = performance.now();
      const c1 = process.cpuUsage();
      indexUpTo(queries, Number.MAX_SAFE_INTEGER);
      while (queries.index.merge(500));
      const rest = process.cpuUsage(c1);
      const indexMs = indexSoFar.ms + performance.now() - i1;
      const indexCpuUs = indexSoFar.cpu.user + indexSoFar.cpu.system + rest.user + rest.system;
      const indexing = total > 0 ? { messages: total, seconds: indexMs / 1000, cpuUsPerMessage: indexCpuUs / total } : null;
      if (indexing) progress(`history index caught up: ${total.toLocaleString('en-US')} messages in ${indexing.seconds.toFixed(1)} s, ${indexing.cpuUsPerMessage.toFixed(0)} µs of CPU each`);
      measure(cases(stored), 0);

      const now = stored.end;
      const overview = {
        countsPerStatus: timeIt(options.runs, () => queries.countsPerStatus()),
        deliveryBacklog: timeIt(options.runs, () => store.deliveries.deliveryBacklog(now, now - 3_600_000)),
        nextDueAt: timeIt(options.runs, () => store.deliveries.nextDueAt()),
      };
      const dbBytes = ['', '-wal'].reduce((sum, suffix) => sum + (existsSync(file + suffix) ? statSync(file + suffix).size : 0), 0);
      return {
        messages: options.messages,
        deliveries,
        databaseMiB: dbBytes / 1024 / 1024,
        buildSeconds,
        migrated,
        indexing,
        lagCases,
        schemaVersion: schemaVersion(store.db),
        cases: results,
        overview,
        passed: results.filter((c) => c.pass).length,
        total: results.length,
      };
    } finally {
      store.close();
    }
  } finally {
    if (!options.keepDir) rmSync(dir, { recursive: true, force: true });
  }
}

/** Indexes, in the indexer's chunks, until the history index covers `id`. */
function indexUpTo(queries: MessageQueries, id: number): void {
  for (let covered = queries.index.covered(); covered < id; covered = queries.index.covered()) {
    if (queries.index.indexNext(Math.min(HISTORY_INDEX_CHUNK, id - covered)) === 0) return;
  }
}

// ------------------------------------------------------------------ report

const ms = (v: number): string => (v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0));

export function printHistory(h: HistoryResult, format: (head: string[], body: string[][]) => string): void {
  console.log(
    `\nhistory: listMessages at ${h.messages.toLocaleString('en-US')} messages (${h.deliveries.toLocaleString('en-US')} deliveries, ` +
      `${h.databaseMiB.toFixed(0)} MiB, schema ${h.schemaVersion}); ` +
      `${h.buildSeconds === null ? 'a kept database' : `built in ${h.buildSeconds.toFixed(1)} s`}` +
      `${h.migrated ? `, migrated ${h.migrated.from} → ${h.migrated.to} in ${h.migrated.seconds.toFixed(1)} s` : ''}` +
      `${h.indexing ? `; history index caught up in ${h.indexing.seconds.toFixed(1)} s (${h.indexing.cpuUsPerMessage.toFixed(0)} µs of CPU a message)` : ''}\n`,
  );
  const head = ['filter', 'values', 'runs', 'rows', 'first p50', 'first p95', 'deep p50', 'deep p95', `< ${HISTORY_TARGET_MS} ms p95`];
  const body = h.cases.map((c) => [
    `${c.filter} (${c.variant}${c.behind ? `, index ${Math.round(c.behind / 1000)}k behind` : ''})`,
    c.values.length > 48 ? `${c.values.slice(0, 47)}…` : c.values,
    String(c.first.runs),
    c.first.rows.toFixed(0),
    ms(c.first.p50),
    ms(c.first.p95),
    c.deep ? ms(c.deep.p50) : '—',
    c.deep ? ms(c.deep.p95) : '—',
    c.pass ? 'PASS' : 'MISS',
  ]);
  console.log(format(head, body));
  console.log(`  ms per page of ${PAGE} (MessageQueries.list, the SQL behind listMessages); deep = the page after ${DEEP_AFTER_PAGES} pages ("—": no value has that many rows)`);
  console.log(`  rows = rows on the first page (mean over the values); rare = a value with few rows (a user with ${RARE_USER_MESSAGES} messages, a word in ${RARE_WORD_BODIES} bodies, ...)`);
  if (h.lagCases) console.log(`  index Nk behind = measured before the history index had caught up with the newest ${h.lagCases.toLocaleString('en-US')} messages (they are read in id order)`);
  console.log('\ngetOverview at this size (ms):');
  console.log(format(['query', 'p50', 'p95', 'max'], Object.entries(h.overview).map(([name, t]) => [name, ms(t.p50), ms(t.p95), ms(t.max)])));
  console.log(`\nhistory: ${h.passed}/${h.total} cases within ${HISTORY_TARGET_MS} ms p95 (first and deep pages)`);
}
