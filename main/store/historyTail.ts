/**
 * The filter values of the newest messages, in memory, until the history index (historyIndex.ts) covers
 * them. The indexer waits while the core is busy, so after a burst the unindexed messages can be a million;
 * reading them in id order for a rare filter value took longer than a page may. This keeps, for each message
 * this connection stored, its type, source, user, event, destinations and received_at as numbers in columns
 * (23 bytes a message), so the unindexed messages of a page are found by scanning arrays, and only
 * the candidates are read from SQLite (where every filter is checked again on the row).
 *
 * It knows a contiguous range of ids, (from, to]: every message stored with an id in it came through add(),
 * in id order, or through prepend() (the messages stored before this process started, read back from the
 * newest down while the core runs). Anything else (a message another process stored, ids given again after
 * the newest were deleted) starts the range over, so a page never trusts it for an id it did not see stored.
 */

/** Messages a column chunk holds. */
const CHUNK = 65_536;
/** A column value for null (no user, no event, no source, no destination). */
const NONE = 0;
/**
 * A column value for "one of the values past its column's limit": it matches every filter value, so the rows
 * that carry it become candidates and SQLite decides (a million distinct users would otherwise cost more
 * memory than the rows they stand for). Per column type: the largest value it holds, or -1 in Int32Array.
 */
const ANY = -1;
const ANY_8 = 0xff;
const ANY_16 = 0xffff;
/** Distinct values a column interns before the rest become ANY. */
const MAX_DISTINCT = 100_000;
/** The wanted value of a filter no interned value has, when some values became ANY: only ANY rows match. */
const ONLY_ANY = -2;

/** What add() is told of the messages stored (messageStore.ts, insertMessages' input). */
export interface StoredBatch {
  readonly message: { readonly type: string; readonly sourceId: string | null; readonly userId: string | null; readonly event: string | null; readonly receivedAt: number };
  /** Its deliveries: one per destination. */
  readonly deliveries: readonly { readonly destinationId: string }[];
}

/** Filters the tail can check (every one optional). */
export interface TailFilter {
  type?: string | undefined;
  sourceId?: string | undefined;
  userId?: string | undefined;
  event?: string | undefined;
  destinationId?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

interface Chunk {
  type: Uint8Array;
  source: Uint16Array;
  user: Int32Array;
  event: Int32Array;
  routes: Int32Array;
  /** received_at, exact: a time range's candidates are its rows, not every row of its boundary seconds. */
  received: Float64Array;
}

/** Strings as small numbers (1, 2, …; 0 is null; `any` past `max` values). */
class Interned {
  private readonly numbers = new Map<string, number>();
  constructor(
    private readonly max: number,
    private readonly any = ANY,
  ) {}
  /** Whether some value was stored as ANY. */
  overflowed = false;
  of(value: string | null): number {
    if (value === null) return NONE;
    let n = this.numbers.get(value);
    if (n === undefined) {
      if (this.numbers.size >= this.max) {
        this.overflowed = true;
        return this.any;
      }
      this.numbers.set(value, (n = this.numbers.size + 1));
    }
    return n;
  }
  /** The number a filter value matches (besides ANY); undefined: no row held can have it. */
  find(value: string): number | undefined {
    return this.numbers.get(value) ?? (this.overflowed ? ONLY_ANY : undefined);
  }
  get size(): number {
    return this.numbers.size;
  }
}

export class HistoryTail {
  private from = 0;
  private to = 0;
  /** The id of the first row of chunks[0]. */
  private origin = 1;
  private chunks: (Chunk | null)[] = [];
  private types!: Interned;
  private sources!: Interned;
  private users!: Interned;
  private events!: Interned;
  /** A message's destinations, sorted and joined, as one number; and each route's destinations. */
  private routes!: Interned;
  private routeDestinations: number[][] = [[]];
  private destinations!: Interned;
  /** The route of a message with one delivery, by its destination. */
  private singleRoutes = new Map<string, number>();
  /** Ids from `origin` up to `from` are to be prepended: an empty range does not start over at the next add(). */
  private reserved = false;

  /** @param maxDistinct Distinct values a column interns before the rest match every filter value. */
  constructor(private readonly maxDistinct = MAX_DISTINCT) {
    this.restart(0);
  }

  private interned(column: 'small' | 'medium' | 'large' = 'large'): Interned {
    if (column === 'small') return new Interned(Math.min(this.maxDistinct, ANY_8 - 1), ANY_8);
    if (column === 'medium') return new Interned(Math.min(this.maxDistinct, ANY_16 - 1), ANY_16);
    return new Interned(this.maxDistinct);
  }

  /** The ids this holds: (from, to]. */
  get range(): { from: number; to: number } {
    return { from: this.from, to: this.to };
  }

  /**
   * Messages just stored with the ids `first`, `first + 1`, …. Ids that do not follow the last ones held
   * (a gap, or ids given again) start the range over at them.
   */
  add(first: number, stored: readonly StoredBatch[]): void {
    if (stored.length === 0) return;
    if (first !== this.to + 1 || (this.from === this.to && !this.reserved)) this.restart(first - 1);
    this.write(first, stored);
    this.to = first + stored.length - 1;
  }

  /**
   * Empty, holding (newest, newest], with room below for the ids (after, newest] that prepend() fills from
   * the newest down: messages stored before this process started, which the index does not cover yet.
   */
  reserve(after: number, newest: number): void {
    this.restart(newest);
    this.origin = after + 1;
    this.reserved = newest > after;
  }

  /** The ids the tail still waits to be told of by prepend(): (after, before]; null when none. */
  get missing(): { after: number; before: number } | null {
    return this.reserved && this.from >= this.origin ? { after: this.origin - 1, before: this.from } : null;
  }

  /** No more prepend(): the ids at or below `from` are read in id order until the index covers them. */
  settle(): void {
    this.reserved = false;
  }

  /** Messages stored with the ids `first` … `from`, just below the range: it then starts at `first - 1`. */
  prepend(first: number, stored: readonly StoredBatch[]): void {
    if (stored.length === 0) return;
    if (!this.reserved || first + stored.length - 1 !== this.from || first < this.origin) throw new Error(`history tail: ids ${first}… do not end at ${this.from}`);
    this.write(first, stored);
    this.from = first - 1;
  }

  private write(first: number, stored: readonly StoredBatch[]): void {
    let id = first;
    for (let k = 0; k < stored.length; k++) {
      const { message: m, deliveries } = stored[k]!;
      const at = id - this.origin;
      const chunkAt = (at / CHUNK) | 0;
      while (this.chunks.length <= chunkAt) this.chunks.push(null);
      const chunk = (this.chunks[chunkAt] ??= newChunk());
      const row = at - chunkAt * CHUNK;
      chunk.type[row] = this.types.of(m.type);
      chunk.source[row] = this.sources.of(m.sourceId);
      chunk.user[row] = this.users.of(m.userId);
      chunk.event[row] = this.events.of(m.event);
      chunk.routes[row] = this.route(deliveries);
      chunk.received[row] = m.receivedAt;
      id++;
    }
  }

  /** The history index now covers every id up to `covered`: what is at or below it is no longer needed. */
  forget(covered: number): void {
    if (covered <= this.from) return;
    this.reserved = false;
    if (covered >= this.to) {
      this.restart(this.to);
      return;
    }
    this.from = covered;
    const whole = Math.floor((covered - this.origin + 1) / CHUNK);
    for (let c = 0; c < whole && c < this.chunks.length; c++) this.chunks[c] = null;
  }

  /** Whether the filter names something the tail can narrow by (else reading it here gains nothing). */
  static narrows(filter: TailFilter): boolean {
    return (
      filter.type !== undefined ||
      filter.sourceId !== undefined ||
      filter.userId !== undefined ||
      filter.event !== undefined ||
      filter.destinationId !== undefined ||
      filter.from !== undefined ||
      filter.to !== undefined
    );
  }

  /**
   * Ids in (after, before) that this holds and that match the filter, newest first, at most `max`; and
   * `next`, the highest id not looked at yet (at or below `after` or the range's start: none left). A
   * superset for the filters it does not know (status, text, …).
   */
  candidates(filter: TailFilter, after: number, before: number, max: number): { ids: number[]; next: number } {
    const lo = Math.max(after, this.from);
    const ids: number[] = [];
    let id = Math.min(before - 1, this.to);
    if (id <= lo) return { ids, next: lo };
    const want = (interned: Interned, value: string | undefined): number | null | undefined =>
      value === undefined ? null : interned.find(value); // null: no condition; undefined: nothing has it
    const type = want(this.types, filter.type);
    const source = want(this.sources, filter.sourceId);
    const user = want(this.users, filter.userId);
    const event = want(this.events, filter.event);
    if (type === undefined || source === undefined || user === undefined || event === undefined) return { ids, next: lo };
    let routeOk: Uint8Array | null = null;
    if (filter.destinationId !== undefined) {
      const d = this.destinations.find(filter.destinationId);
      if (d === undefined && !this.routes.overflowed) return { ids, next: lo };
      routeOk = new Uint8Array(this.routeDestinations.length);
      // A route holding an ANY destination may be the one asked for.
      this.routeDestinations.forEach((ds, r) => (routeOk![r] = ds.includes(d ?? ONLY_ANY) || ds.includes(ANY) ? 1 : 0));
    }
    const from = filter.from ?? -Infinity;
    const to = filter.to ?? Infinity;
    // Chunk by chunk, each column a local typed array: a plain loop over numbers (~1-2 ms a million).
    for (let chunkAt = Math.floor((id - this.origin) / CHUNK); id > lo && ids.length < max; chunkAt--) {
      const c = this.chunks[chunkAt]!;
      const base = this.origin + chunkAt * CHUNK;
      const types = c.type;
      const sources = c.source;
      const users = c.user;
      const events = c.event;
      const routes = c.routes;
      const received = c.received;
      const stop = Math.max(lo, base - 1) - base;
      let row = id - base;
      for (; row > stop && ids.length < max; row--) {
        if (user !== null && users[row] !== user && users[row] !== ANY) continue;
        if (event !== null && events[row] !== event && events[row] !== ANY) continue;
        if (type !== null && types[row] !== type && types[row] !== ANY_8) continue;
        if (source !== null && sources[row] !== source && sources[row] !== ANY_16) continue;
        if (routeOk !== null && routes[row] !== ANY && routeOk[routes[row]!] !== 1) continue;
        const at = received[row]!;
        if (at < from || at >= to) continue;
        ids.push(base + row);
      }
      id = base + row;
    }
    return { ids, next: id };
  }

  private route(deliveries: StoredBatch['deliveries']): number {
    if (deliveries.length === 0) return NONE;
    if (deliveries.length === 1) {
      const id = deliveries[0]!.destinationId;
      const known = this.singleRoutes.get(id);
      if (known !== undefined) return known;
      const r = this.routeOf([this.destinations.of(id)]);
      this.singleRoutes.set(id, r);
      return r;
    }
    return this.routeOf(deliveries.map((d) => this.destinations.of(d.destinationId)).sort((a, b) => a - b));
  }

  private routeOf(ds: number[]): number {
    const before = this.routes.size;
    const r = this.routes.of(ds.join(','));
    if (r !== ANY && this.routes.size > before) this.routeDestinations[r] = ds;
    return r;
  }

  /** Empty, holding (at, at]. */
  private restart(at: number): void {
    this.reserved = false;
    this.from = at;
    this.to = at;
    this.origin = at + 1;
    this.chunks = [];
    this.types = this.interned('small');
    this.sources = this.interned('medium');
    this.users = this.interned();
    this.events = this.interned();
    this.routes = this.interned();
    this.routeDestinations = [[]];
    this.destinations = this.interned();
    this.singleRoutes = new Map();
  }
}

function newChunk(): Chunk {
  return {
    type: new Uint8Array(CHUNK),
    source: new Uint16Array(CHUNK),
    user: new Int32Array(CHUNK),
    event: new Int32Array(CHUNK),
    routes: new Int32Array(CHUNK),
    received: new Float64Array(CHUNK),
  };
}
