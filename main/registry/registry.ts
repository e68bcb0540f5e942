/**
 * Sources and destinations: their rules (docs/behaviour.md §2, §6, §8), their rows, and the in-memory
 * copies every accepted call and every round reads (by id, by name, by write key). Writes go to SQLite
 * first, then to the copies; `reload()` puts the copies back in step after a rolled-back transaction.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { CommandParsed } from '../contract/dispatch.js';
import { destinationOwner, type Destination, type DestinationOwner } from '../contract/destinations.js';
import type { Source } from '../contract/sources.js';
import { parseReceiverRef } from '../contract/receiver/receiver.js';
import { err, ok, type ApiError, type Result } from '../contract/result.js';
import { parseWith, resolveRetryPolicy, withOthers, WRITE_KEY_BYTES, writeKeyOf, writeKeySchema, webhookInputSchema } from '../contract/schemas.js';
import { isMasked, maskedValueError } from '../domain/secrets.js';
import type { Store } from '../store/store.js';
import { caFileProblem } from '../platform/boundedFile.js';
import { notFound } from '../platform/paging.js';

/** What the registry needs of the store: its own rows and the transaction helper. */
export type RegistryStore = Pick<Store, 'config' | 'transaction'>;

export interface RegistryOptions {
  store: RegistryStore;
  clock: { now(): number };
  /** Whether the mock receiver has an endpoint of this name (a `receiver:<name>` webhook must name one). */
  receiverExists: (name: string) => boolean;
  /** A destination was saved: its held retries may be due now (enabling releases them). */
  destinationSaved: () => void;
  /** A destination stopped naming this CA file: the connection pool built with it can go. */
  caFileDropped: (caFile: string | null) => void;
  /** The user's destinations or sources changed (the tools' own destinations are nobody's list). */
  changed?: (catalog: 'destinations' | 'sources') => void;
}

export class Registry {
  private destinations = new Map<string, Destination>();
  private sources = new Map<string, Source>();
  private writeKeys = new Map<string, Source>();

  constructor(private readonly options: RegistryOptions) {
    this.reload();
  }

  /** Reads every source and destination again (at start, and after a rolled-back transaction). */
  reload(): void {
    this.destinations = new Map(this.options.store.config.listDestinations().map((d) => [d.id, d]));
    this.sources = new Map(this.options.store.config.listSources().map((s) => [s.id, s]));
    this.writeKeys = new Map([...this.sources.values()].map((s) => [s.writeKey, s]));
  }

  /**
   * Stored destinations that today's rules refuse (saved by an older version, before a URL with CR/LF,
   * without a host or with credentials, or a header value HTTP cannot carry was refused): each webhook is
   * checked as a save would check it. Nothing is changed; serve names them at start (docs/behaviour.md §10).
   */
  destinationProblems(): { destination: string; field: string; message: string }[] {
    const problems: { destination: string; field: string; message: string }[] = [];
    for (const d of this.allDestinations()) {
      for (const [i, webhook] of d.webhooks.entries()) {
        const parsed = parseWith(webhookInputSchema, webhook, ['webhooks', i]);
        if (!parsed.ok) problems.push({ destination: d.name, field: parsed.error.field ?? `webhooks[${i}]`, message: parsed.error.message });
      }
    }
    return problems;
  }

  // ---------------------------------------------------------------- lookups

  /** The destination a round is for, by id (the engine's hot path). */
  destination(id: string): Destination | undefined {
    return this.destinations.get(id);
  }

  findDestination(ref: string): Destination | null {
    return this.destinations.get(ref) ?? [...this.destinations.values()].find((d) => d.name === ref) ?? null;
  }

  findSource(ref: string): Source | null {
    return this.sources.get(ref) ?? [...this.sources.values()].find((s) => s.name === ref) ?? this.writeKeys.get(ref) ?? null;
  }

  /**
   * A source reference that matches none, refused with the sources there are (by name, never their write
   * keys), so a typo shows what was meant: `source: no source named or with id "bakend"; the sources are "backend", "web"`.
   */
  noSuchSource(field: string, ref: string): ApiError {
    return noSuch('source', field, ref, [...this.sources.values()]);
  }

  /** A destination reference that matches none, refused with the destinations there are, as noSuchSource does. */
  noSuchDestination(field: string, ref: string): ApiError {
    return noSuch('destination', field, ref, [...this.destinations.values()]);
  }

  /** The source a write key belongs to (ingestion authentication). */
  sourceByWriteKey(writeKey: string): Source | null {
    return this.writeKeys.get(writeKey) ?? null;
  }

  /** By name, the tools' own destinations too. */
  allDestinations(): Destination[] {
    return [...this.destinations.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** By name: the user's (what every list shows), one tool's, or `all`. */
  destinationsOf(owner: DestinationOwner | 'all'): Destination[] {
    const all = this.allDestinations();
    return owner === 'all' ? all : all.filter((d) => destinationOwner(d.name) === owner);
  }

  /** By name. */
  allSources(): Source[] {
    return [...this.sources.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * The destinations a call may go to, before integrations and filters: the ones named (by the composer),
   * else every enabled destination connected to its source, else (no source) every enabled one.
   */
  candidatesFor(
    source: Source | null,
    destinationRefs: readonly string[] | undefined,
    at: (field: string) => string,
  ): Result<{ destinations: Destination[]; noneReason: string }> {
    if (destinationRefs) {
      const destinations: Destination[] = [];
      for (const [i, ref] of destinationRefs.entries()) {
        const d = this.findDestination(ref);
        const field = at(`destinations[${i}]`);
        if (!d) return err(this.noSuchDestination(field, ref));
        destinations.push(d);
      }
      return ok({ destinations, noneReason: 'no destination given' });
    }
    if (source) {
      return ok({
        destinations: [...this.destinations.values()].filter((d) => d.enabled && d.sourceIds.includes(source.id)),
        noneReason: `no enabled destination is connected to source "${source.name}"`,
      });
    }
    // A call with no source goes to the user's enabled destinations, never to one a tool keeps for itself.
    return ok({ destinations: [...this.destinations.values()].filter((d) => d.enabled && destinationOwner(d.name) === 'user'), noneReason: 'no destination is enabled' });
  }

  // ---------------------------------------------------------------- destinations

  createDestination(v: CommandParsed<'createDestination'>): Result<Destination> {
    const now = this.options.clock.now();
    return this.saveDestination(
      {
        id: randomUUID(),
        name: v.name,
        enabled: v.enabled,
        sourceIds: [],
        sharedSecret: v.sharedSecret ?? null,
        webhooks: v.webhooks ?? (v.url ? [{ url: v.url, headers: {} }] : []),
        caFile: v.caFile ?? null,
        timeoutMs: v.timeoutMs,
        retry: resolveRetryPolicy(v.retry),
        filters: v.filters,
        createdAt: now,
        updatedAt: now,
      },
      v.sources,
      true,
    );
  }

  updateDestination(input: CommandParsed<'updateDestination'>): Result<Destination> {
    const current = this.findDestination(input.id);
    if (!current) return notFound('destination', input.id);
    const p = input.patch;
    const next: Destination = {
      ...current,
      ...(p.name !== undefined ? { name: p.name } : {}),
      ...(p.enabled !== undefined ? { enabled: p.enabled } : {}),
      ...(p.sharedSecret !== undefined ? { sharedSecret: p.sharedSecret } : {}),
      ...(p.webhooks !== undefined ? { webhooks: p.webhooks } : {}),
      ...(p.url !== undefined ? { webhooks: [{ url: p.url, headers: {} }] } : {}),
      ...(p.caFile !== undefined ? { caFile: p.caFile } : {}),
      ...(p.timeoutMs !== undefined ? { timeoutMs: p.timeoutMs } : {}),
      ...(p.retry !== undefined ? { retry: resolveRetryPolicy({ ...current.retry, ...p.retry }) } : {}),
      ...(p.filters !== undefined ? { filters: p.filters } : {}),
      updatedAt: this.options.clock.now(),
    };
    // Name the field the patch changed: turning it on, or taking its webhooks away while it is on.
    const saved = this.saveDestination(next, p.sources ?? current.sourceIds, false, p.enabled === undefined && (p.webhooks !== undefined || p.url !== undefined) ? 'webhooks' : 'enabled');
    if (saved.ok && current.caFile !== next.caFile) this.options.caFileDropped(current.caFile);
    // A rename out of the reserved names is a change to the user's list too.
    if (saved.ok && destinationOwner(current.name) === 'user' && destinationOwner(next.name) !== 'user') this.options.changed?.('destinations');
    return saved;
  }

  /** Deletes the row; the caller has cancelled its waiting deliveries first (docs/behaviour.md §4). */
  removeDestination(id: string): void {
    const removed = this.destinations.get(id);
    this.options.store.config.deleteDestination(id);
    this.destinations.delete(id);
    if (removed && destinationOwner(removed.name) === 'user') this.options.changed?.('destinations');
  }

  private saveDestination(d: Destination, sourceRefs: readonly string[], isNew: boolean, enabledWithout: 'enabled' | 'webhooks' = 'enabled'): Result<Destination> {
    const prefix = isNew ? '' : 'patch.';
    // Every problem of the destination at once (a config file is fixed in one round, not one per problem):
    // the first is the error, the others its `problems`.
    const problems: ApiError[] = [];
    const clash = [...this.destinations.values()].find((o) => o.name === d.name && o.id !== d.id);
    if (clash) problems.push({ code: 'conflict', field: `${prefix}name`, message: `${prefix}name: a destination named "${d.name}" already exists` });
    // A mask (`s3••••`, as answers show secrets) with no stored secret behind it would sign every request with
    // the mask itself (docs/behaviour.md §9): copied from a listDestinations answer into a config file, say.
    if (d.sharedSecret !== null && isMasked(d.sharedSecret)) {
      problems.push(maskedValueError(`${prefix}sharedSecret`));
    }
    if (d.enabled && d.webhooks.length === 0) {
      problems.push(
        enabledWithout === 'enabled'
          ? { code: 'invalid_input', field: `${prefix}enabled`, message: `${prefix}enabled: a destination cannot be enabled without at least one webhook` }
          : { code: 'invalid_input', field: `${prefix}webhooks`, message: `${prefix}webhooks: an enabled destination needs at least one webhook (set enabled to false in the same patch to keep none)` },
      );
    }
    const sourceIds: string[] = [];
    for (const [i, ref] of sourceRefs.entries()) {
      const s = this.findSource(ref);
      if (!s) problems.push(this.noSuchSource(`${prefix}sources[${i}]`, ref));
      else sourceIds.push(s.id);
    }
    for (const [i, w] of d.webhooks.entries()) {
      // A masked value (`s3••••`) still here was not the mask of a stored one (docs/behaviour.md §9): it
      // would be sent as it is, and fail or authenticate nothing.
      const masked = isMasked(w.url) ? 'url' : Object.keys(w.headers).find((name) => isMasked(w.headers[name] ?? ''));
      if (masked !== undefined) {
        problems.push(maskedValueError(`${prefix}webhooks[${i}].${masked === 'url' ? 'url' : `headers.${masked}`}`, 'value'));
      }
      const ref = parseReceiverRef(w.url);
      if (ref && !this.options.receiverExists(ref.name)) {
        const field = `${prefix}webhooks[${i}].url`;
        problems.push({ code: 'not_found', field, message: `${field}: no receiver named "${ref.name}" (create it first, or declare it under "receivers")` });
      }
    }
    if (d.caFile) {
      const problem = caFileProblem(d.caFile);
      if (problem) problems.push({ code: 'invalid_config', field: `${prefix}caFile`, message: `${prefix}caFile: ${problem}` });
    }
    const [first, ...others] = problems;
    if (first) return err(withOthers(first, others));
    const saved: Destination = { ...d, sourceIds };
    this.options.store.config.saveDestination(saved, isNew);
    this.destinations.set(saved.id, saved);
    this.options.destinationSaved();
    if (destinationOwner(saved.name) === 'user') this.options.changed?.('destinations');
    return ok(saved);
  }

  // ---------------------------------------------------------------- sources

  createSource(input: CommandParsed<'createSource'>): Result<Source> {
    if ([...this.sources.values()].some((s) => s.name === input.name)) {
      return err({ code: 'conflict', field: 'name', message: `name: a source named "${input.name}" already exists` });
    }
    const writeKey = input.writeKey ?? writeKeyOf(randomBytes(WRITE_KEY_BYTES));
    if (this.writeKeys.has(writeKey)) {
      return err({ code: 'conflict', field: 'writeKey', message: 'writeKey: another source already uses this write key' });
    }
    const source: Source = { id: randomUUID(), name: input.name, kind: input.kind, writeKey, createdAt: this.options.clock.now() };
    this.options.store.config.insertSource(source);
    this.setSource(source);
    this.options.changed?.('sources');
    return ok(source);
  }

  updateSource(input: CommandParsed<'updateSource'>): Result<Source> {
    const current = this.findSource(input.id);
    if (!current) return notFound('source', input.id);
    const { kind, writeKey } = input.patch;
    // The command lets a masked write key through, for the API to put the stored one back (registry/commands.ts):
    // the key this leaves must be one a source may have.
    if (writeKey !== undefined) {
      const checked = parseWith(writeKeySchema, writeKey, ['patch', 'writeKey']);
      if (!checked.ok) return checked;
    }
    const next: Source = { ...current, ...(kind ? { kind } : {}), ...(writeKey ? { writeKey } : {}) };
    const holder = this.writeKeys.get(next.writeKey);
    if (holder && holder.id !== next.id) {
      return err({ code: 'conflict', field: 'patch.writeKey', message: 'patch.writeKey: another source already uses this write key' });
    }
    this.options.store.config.updateSource(next);
    this.writeKeys.delete(current.writeKey);
    this.setSource(next);
    this.options.changed?.('sources');
    return ok(next);
  }

  /**
   * Deletes a source: its write key stops working, and every destination connected to it is disconnected
   * from it (named in the answer). Its messages stay in the history; its audiences go with it.
   */
  deleteSource(input: CommandParsed<'deleteSource'>): Result<{ id: string; disconnectedDestinations: string[] }> {
    const source = this.findSource(input.id);
    if (!source) return notFound('source', input.id);
    const connected = [...this.destinations.values()].filter((d) => d.sourceIds.includes(source.id));
    const now = this.options.clock.now();
    this.options.store.transaction(() => {
      for (const d of connected) {
        const next = { ...d, sourceIds: d.sourceIds.filter((id) => id !== source.id), updatedAt: now };
        this.options.store.config.saveDestination(next, false);
        this.destinations.set(next.id, next);
      }
      this.options.store.config.deleteSource(source.id);
    });
    this.sources.delete(source.id);
    this.writeKeys.delete(source.writeKey);
    this.options.changed?.('sources');
    if (connected.some((d) => destinationOwner(d.name) === 'user')) this.options.changed?.('destinations');
    return ok({ id: source.id, disconnectedDestinations: connected.map((d) => d.name) });
  }

  private setSource(source: Source): void {
    this.sources.set(source.id, source);
    this.writeKeys.set(source.writeKey, source);
  }
}

/** `field: no source named or with id "bakend"; the sources are "backend", "web"` (at most 20 names, by name). */
function noSuch(kind: 'source' | 'destination', field: string, ref: string, all: readonly { name: string }[]): ApiError {
  const names = all.map((x) => JSON.stringify(x.name)).sort((a, b) => a.localeCompare(b));
  const shown = names.length > 20 ? `${names.slice(0, 20).join(', ')}, … (${names.length} in all)` : names.join(', ');
  const there = names.length ? `; the ${kind}s are ${shown}` : `; there is no ${kind} yet`;
  return { code: 'not_found', field, message: `${field}: no ${kind} named or with id ${JSON.stringify(ref)}${there}` };
}
