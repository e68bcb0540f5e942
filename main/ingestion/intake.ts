/**
 * Intake: every call that becomes a message passes here, from the typed API (sendMessage, sendMessages),
 * ingestion of SDK traffic (ingestion/ingest.ts), audiences, deletion requests and replays. It builds each
 * call's body once (docs/behaviour.md §1), de-duplicates by (source, messageId) within 24 h, routes it
 * (§6), and stores the batch in one transaction: messages, payloads, deliveries, usage counters and
 * identify traits. What it stores is announced (messageAccepted) and handed to the engine only once the
 * transaction has committed.
 */
import type { SendMessageOutput } from '../contract/api.js';
import { LIMITS, type MessageType } from '../contract/message/messageShapes.js';
import { callTooLarge } from '../contract/message/messageBody.js';
import { deliverySummary, messageSummary } from '../contract/message/messageSummary.js';
import { REASONS } from '../contract/deliveries.js';
import type { Destination } from '../contract/destinations.js';
import type { MessageOrigin } from '../contract/messages.js';
import type { Source } from '../contract/sources.js';
import { err, ok, type Result } from '../contract/result.js';
import { parseWith, sendMessageInputSchema, type SendMessageInput, type SendMessageParsed } from '../contract/schemas.js';
import { callNestingError } from '../domain/jsonDepth.js';
import { buildMessage, type BuiltMessage } from '../domain/messages.js';
import { routeMessage } from '../contract/message/routing.js';
import type { Store } from '../store/store.js';
import { AcceptedRate } from './acceptedRate.js';
import { UsageMinutes } from './usageMinutes.js';
import type { EventBus } from '../platform/eventBus.js';
import { withoutWriteKey, type PreparedCalls } from './ingestPrepare.js';
import { callBytes, parseStoredCall, storedCallOf } from '../store/storedJson.js';
import { newMessageId } from './messageIds.js';
import type { FilledByWorkbench } from '../domain/importParse.js';
import type { Registry } from '../registry/registry.js';

const DEDUPE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** What intake needs of the store. */
export type IntakeStore = Pick<Store, 'messages' | 'ingestLog' | 'transaction' | 'afterCommit'>;

export interface IntakeOptions {
  store: IntakeStore;
  clock: { now(): number };
  registry: Registry;
  bus: EventBus;
  /** An identify from a source merges its traits into the stored user traits (audience rules read them). */
  recordIdentify: (sourceId: string, userId: string, traits: unknown) => Result<unknown>;
  /** Work was committed for the engine. */
  wake: () => void;
}

export interface AcceptEntry {
  type: MessageType;
  call: Record<string, unknown>;
  source: Source | null;
  destinations: readonly string[] | undefined;
  strict: boolean;
  clientIp: string | null;
  fieldPrefix: string | undefined;
  at: (field: string) => string;
  /** An identify from a source merges its traits into the stored user traits (audience rules read them). */
  recordsTraits: boolean;
  /** The call's nesting was measured already (acceptMessages does, as it validates the batch). */
  depthChecked?: boolean;
  /** `check`: a check run's own message, left out of the user's lists and counters. */
  origin?: MessageOrigin | undefined;
  /** Sent again on purpose with the messageId it had (an import that keeps them): never a duplicate, as a replay is not. */
  resend?: boolean;
  /** What the body takes when the call does not give it (an import: what the original's body said). */
  filled?: FilledByWorkbench | undefined;
  /** Read back from an export (an import): stored once, so checks added since (a call's `sentAt`, `integrations`) do not refuse it. */
  acceptedBefore?: boolean;
}

/** A call built and checked, from the API (AcceptEntry) or from ingestion (PreparedCall), ready to route. */
interface BuiltEntry {
  built: Pick<BuiltMessage, 'messageId' | 'type' | 'userId' | 'anonymousId' | 'event' | 'bytes'> & { json?: string | undefined };
  source: Source | null;
  destinations: readonly string[] | undefined;
  at: (field: string) => string;
  /** Only calls that carried their own messageId are deduplicated. */
  clientMessageId: string | null;
  integrations: unknown;
  /** The traits an identify stores, or undefined when it stores none. */
  traits: unknown;
  /** The call as received: the object, or (ingestion) its JSON. */
  call: Record<string, unknown> | undefined;
  callJson: string | undefined;
  origin?: MessageOrigin | undefined;
  resend?: boolean;
}

export interface PendingMessage {
  built: Pick<BuiltMessage, 'messageId' | 'type' | 'userId' | 'anonymousId' | 'event' | 'bytes'> & { json?: string | undefined };
  /** The call as received: the object, or its JSON (at least one of the two). */
  call: Record<string, unknown> | undefined;
  callJson: string | undefined;
  sourceId: string | null;
  route: { targets: Destination[]; filteredReason: string | null };
  replayOf: number | null;
  /** Counts toward the source's usage (calls it sent; not deletion notices or replays). */
  countsUsage: boolean;
  /** The traits to store for the user (an identify from a source), or undefined. */
  traits: unknown;
  /** `check`: a check run's own message. */
  origin?: MessageOrigin | undefined;
}

export class Intake {
  /** Calls accepted per second over the last minute (the overview's rate). */
  readonly rate = new AcceptedRate();
  /** Each source's calls per minute over the last hour (the Sources screen's sparkline). */
  readonly usage = new UsageMinutes();

  constructor(private readonly options: IntakeOptions) {}

  // ---------------------------------------------------------------- messages

  /** The typed API's sendMessage: its input was parsed where the command entered the core. */
  sendMessage(input: SendMessageParsed): Result<SendMessageOutput> {
    const sent = this.acceptParsed([input], null, { recordsTraits: true });
    return sent.ok ? ok(sent.value[0]!) : sent;
  }

  sendMessages(input: { messages: SendMessageParsed[] }): Result<SendMessageOutput[]> {
    return this.acceptParsed(input.messages, 'messages', { recordsTraits: true });
  }

  /**
   * Messages the core makes or reads itself (an import, an audience's sync, the check's own sends, with
   * `origin`): each is parsed as sendMessage's input first, named by its place in the batch.
   */
  acceptMessages(
    inputs: readonly SendMessageInput[],
    batchField: string | null,
    options: { recordsTraits: boolean; origin?: MessageOrigin | undefined; resend?: boolean; filled?: readonly FilledByWorkbench[]; acceptedBefore?: boolean } = { recordsTraits: true },
  ): Result<SendMessageOutput[]> {
    const parsed: SendMessageParsed[] = [];
    for (const [index, input] of inputs.entries()) {
      const one = parseWith(sendMessageInputSchema, input, batchField === null ? [] : [batchField, index]);
      if (!one.ok) return one;
      parsed.push(one.value);
    }
    return this.acceptParsed(parsed, batchField, options);
  }

  /**
   * Checks every message first (one invalid message refuses the whole batch, and nothing is stored),
   * then commits them all in one transaction: the cost of a commit is shared by the batch.
   */
  private acceptParsed(
    inputs: readonly SendMessageParsed[],
    batchField: string | null,
    { recordsTraits, origin, resend = false, filled, acceptedBefore = false }: { recordsTraits: boolean; origin?: MessageOrigin | undefined; resend?: boolean; filled?: readonly FilledByWorkbench[] | undefined; acceptedBefore?: boolean },
  ): Result<SendMessageOutput[]> {
    const entries: AcceptEntry[] = [];
    for (let index = 0; index < inputs.length; index++) {
      const input = inputs[index]!;
      const { type, source: sourceRef, destinations, strict } = input;
      // A write key pasted with the call is a secret: never stored (docs/behaviour.md §9).
      const call = withoutWriteKey(input.call);
      const at = (field: string) => (batchField === null ? field : `${batchField}[${index}].${field}`);
      const tooDeep = callNestingError(call, at('call'));
      if (tooDeep) return err(tooDeep);
      let source: Source | null = null;
      if (sourceRef !== undefined) {
        source = this.options.registry.findSource(sourceRef);
        if (!source) return err(this.options.registry.noSuchSource(at('source'), sourceRef));
      }
      const fill = filled?.[index];
      entries.push({ type, call, source, destinations, strict, clientIp: fill?.ip ?? null, fieldPrefix: batchField === null ? undefined : at('call'), at, recordsTraits, depthChecked: true, origin, resend, filled: fill, acceptedBefore });
    }
    return this.acceptEntries(entries);
  }

  /**
   * Ingestion of SDK traffic from a source (docs/behaviour.md §7): calls already checked and built (lenient about
   * unknown keys, `context.ip` filled from the client's address) by ingestion/ingestPrepare.ts; usage counted.
   */
  ingest(input: { source: Source; receivedAt: number; calls: PreparedCalls; bodies: Uint8Array }): void {
    const bodies = Buffer.from(input.bodies.buffer, input.bodies.byteOffset, input.bodies.byteLength);
    const c = input.calls;
    const entries: BuiltEntry[] = [];
    for (let i = 0; i < c.count; i++) {
      const type = c.type[i]!;
      entries.push({
        built: { messageId: c.messageId[i]!, type, userId: c.userId[i]!, anonymousId: c.anonymousId[i]!, event: c.event[i]!, bytes: bodies.subarray(i === 0 ? 0 : c.bodyEnd[i - 1], c.bodyEnd[i]) },
        source: input.source,
        destinations: undefined,
        at: sameField,
        clientMessageId: c.clientMessageId[i] ? c.messageId[i]! : null,
        integrations: c.integrations[i],
        traits: type === 'identify' ? (c.traits[i] ?? {}) : undefined,
        call: undefined,
        callJson: c.callJson[i],
      });
    }
    const accepted = this.acceptBuilt(entries, input.receivedAt, { outputs: false });
    if (!accepted.ok) throw new Error(`ingest: ${accepted.error.message}`); // a source's own destinations always resolve
  }

  acceptEntries(entries: readonly AcceptEntry[]): Result<SendMessageOutput[]> {
    const now = this.options.clock.now();
    const built: BuiltEntry[] = [];
    for (const e of entries) {
      // Nesting is measured once per call, before anything recursive (JSON.stringify) sees it (docs/behaviour.md §7).
      if (!e.depthChecked) {
        const tooDeep = callNestingError(e.call, e.fieldPrefix ?? '');
        if (tooDeep) return err(tooDeep);
      }
      // The call's size is measured after its body is built (as ingestion does): the body and the call's compact
      // form bound it, so a call is serialised whole only when it may be too large or shares nothing with its body.
      const madeId = e.filled?.messageId;
      const b = buildMessage(e.type, e.call, {
        receivedAt: e.filled?.timestampMs ?? now,
        newMessageId: madeId === undefined ? newMessageId : () => madeId,
        sizeChecked: true,
        strict: e.strict,
        ...(e.acceptedBefore ? { acceptedBefore: true } : {}),
        ...(e.clientIp ? { clientIp: e.clientIp } : {}),
        ...(e.fieldPrefix ? { fieldPrefix: e.fieldPrefix } : {}),
      });
      if (!b.ok) {
        // A call too large is named before anything else wrong with it.
        const size = callBytes(e.call);
        return size > LIMITS.messageBytes ? callTooLarge(size, e.fieldPrefix) : b;
      }
      const stored = storedCallOf(e.call, b.value.body, b.value.bytes.length);
      if (stored.oversize !== null) return callTooLarge(stored.oversize, e.fieldPrefix);
      const messageId = e.call['messageId'];
      built.push({
        built: b.value,
        source: e.source,
        destinations: e.destinations,
        at: e.at,
        clientMessageId: messageId !== undefined ? b.value.messageId : null,
        integrations: e.call['integrations'],
        traits: e.recordsTraits && e.type === 'identify' ? (e.call['traits'] ?? {}) : undefined,
        call: e.call,
        callJson: stored.json,
        origin: e.origin,
        resend: e.resend,
      });
    }
    const accepted = this.acceptBuilt(built, now, { outputs: true });
    return accepted.ok ? ok(accepted.value!) : accepted;
  }

  /** Dedupe, routing and storage of built calls; the records stored are returned when `outputs` is set. */
  private acceptBuilt(entries: readonly BuiltEntry[], now: number, { outputs }: { outputs: boolean }): Result<SendMessageOutput[] | null> {
    const pending: PendingMessage[] = [];
    const seenInBatch = new SeenIds();
    const seenBefore = this.previouslySeen(entries, now - DEDUPE_WINDOW_MS);
    // The calls of one batch mostly share a source: its destinations are looked up once.
    const bySource = new Map<string | null, Result<{ destinations: Destination[]; noneReason: string }>>();
    for (const e of entries) {
      const sourceId = e.source?.id ?? null;
      let candidates = e.destinations ? undefined : bySource.get(sourceId);
      if (!candidates) {
        candidates = this.options.registry.candidatesFor(e.source, e.destinations, e.at);
        if (!e.destinations) bySource.set(sourceId, candidates);
      }
      if (!candidates.ok) return candidates;

      let duplicate = false;
      if (e.clientMessageId !== null && !e.resend) {
        duplicate = seenInBatch.has(sourceId, e.clientMessageId) || seenBefore.has(sourceId, e.clientMessageId);
        seenInBatch.add(sourceId, e.clientMessageId);
      }
      const route = duplicate
        ? { targets: [], filteredReason: REASONS.duplicateMessageId }
        : routeMessage({ type: e.built.type, event: e.built.event, integrations: e.integrations }, candidates.value.destinations, candidates.value.noneReason);
      pending.push({
        built: e.built,
        call: e.call,
        callJson: e.callJson,
        sourceId,
        route,
        replayOf: null,
        countsUsage: e.built.type !== 'delete' && e.origin === undefined,
        traits: duplicate ? undefined : e.traits,
        origin: e.origin,
      });
    }
    return ok(this.storeMessages(pending, now, { outputs }));
  }

  /** The (source, messageId) keys of these calls already received within the dedupe window: one query per source. */
  private previouslySeen(entries: readonly BuiltEntry[], since: number): SeenIds {
    const bySource = new Map<string | null, string[]>();
    for (const e of entries) {
      if (e.clientMessageId === null) continue;
      const sourceId = e.source?.id ?? null;
      let ids = bySource.get(sourceId);
      if (!ids) bySource.set(sourceId, (ids = []));
      ids.push(e.clientMessageId);
    }
    const seen = new SeenIds();
    for (const [sourceId, ids] of bySource) {
      for (const id of this.options.store.messages.seenMessageIds(ids, sourceId, since)) seen.add(sourceId, id);
    }
    return seen;
  }

  /** One transaction for the batch; the returned records are built in memory, not read back. */
  storeMessages(pending: readonly PendingMessage[], now: number, options: { outputs: true }): SendMessageOutput[];
  storeMessages(pending: readonly PendingMessage[], now: number, options: { outputs: boolean }): SendMessageOutput[] | null;
  storeMessages(pending: readonly PendingMessage[], now: number, { outputs }: { outputs: boolean }): SendMessageOutput[] | null {
    const rows = pending.map((p) => {
      const filtered = p.route.targets.length === 0;
      return {
        message: {
          messageId: p.built.messageId,
          sourceId: p.sourceId,
          type: p.built.type,
          userId: p.built.userId,
          anonymousId: p.built.anonymousId,
          event: p.built.event,
          receivedAt: now,
          body: p.built.bytes,
          callJson: p.callJson ?? JSON.stringify(p.call),
          status: filtered ? ('filtered' as const) : ('queued' as const),
          statusReason: filtered ? p.route.filteredReason : null,
          replayOf: p.replayOf,
          origin: p.origin ?? null,
        },
        deliveries: p.route.targets.map((d) => ({ destinationId: d.id, destinationName: d.name, nextAttemptAt: now })),
      };
    });
    const ids = this.options.store.transaction(() => {
      const inserted = this.options.store.messages.insertMessages(rows);
      // The overview's rate counts the user's traffic; a check run's own messages are not.
      const counted = pending.reduce((n, p) => (p.origin === undefined ? n + 1 : n), 0);
      if (counted > 0) this.options.store.afterCommit(() => this.rate.add(now, counted));
      const usage = new Map<string, { received: number; accepted: number; filtered: number }>();
      for (const p of pending) {
        if (p.sourceId === null || !p.countsUsage) continue;
        const u = usage.get(p.sourceId) ?? { received: 0, accepted: 0, filtered: 0 };
        u.received++;
        u.accepted++;
        if (p.route.targets.length === 0) u.filtered++;
        usage.set(p.sourceId, u);
      }
      for (const [sourceId, u] of usage) this.options.store.ingestLog.countUsage(sourceId, u);
      if (usage.size > 0) this.options.store.afterCommit(() => usage.forEach((u, sourceId) => this.usage.add(sourceId, now, u)));
      for (const p of pending) {
        if (p.traits === undefined || p.sourceId === null || p.built.userId === null) continue;
        const recorded = this.options.recordIdentify(p.sourceId, p.built.userId, p.traits);
        if (!recorded.ok) console.warn(`hookbench: traits of ${p.built.messageId} not stored: ${recorded.error.message}`);
      }
      return inserted;
    });
    // Only what is committed is announced (this may run inside a larger transaction, e.g. grouped ingestion).
    if (pending.some((p) => p.route.targets.length > 0)) this.options.store.afterCommit(() => this.options.wake());
    if (this.options.bus.listening) {
      // Ingestion asks for no records: the summaries are built from the rows (no body decoded, no call parsed).
      const summaries = rows.map(({ message: m, deliveries }, i) =>
        messageSummary(
          { ...m, id: ids[i]!.id, receivedAt: now, origin: m.origin ?? undefined },
          { anonymousId: m.anonymousId, bytes: m.body.length },
          deliveries.map((d) => deliverySummary({ destinationId: d.destinationId, destinationName: d.destinationName, status: 'queued', reason: null, attempts: 0, webhookAttempts: 0, nextAttemptAt: d.nextAttemptAt })),
        ),
      );
      this.options.store.afterCommit(() => summaries.forEach((message) => this.options.bus.emit({ type: 'messageAccepted', message })));
    }
    if (!outputs) return null;
    const records = rows.map((row, i): SendMessageOutput => {
      const { id, deliveryIds } = ids[i]!;
      const m = row.message;
      return {
        message: {
          id,
          messageId: m.messageId,
          type: m.type,
          sourceId: m.sourceId,
          userId: m.userId,
          event: m.event,
          status: m.status,
          statusReason: m.statusReason,
          receivedAt: now,
          // The body's JSON as built, when it was built here; ingestion's bodies come as bytes.
          body: pending[i]!.built.json ?? m.body.toString('utf8'),
          call: pending[i]!.call ?? parseStoredCall(m.callJson, m.body),
          replayOf: m.replayOf,
          ...(m.origin ? { origin: m.origin } : {}),
        },
        deliveries: row.deliveries.map((d, j) => ({
          id: deliveryIds[j]!,
          messageId: id,
          destinationId: d.destinationId,
          destinationName: d.destinationName,
          status: 'queued',
          reason: null,
          attempts: 0,
          firstAttemptAt: null,
          nextAttemptAt: now,
          pendingUrls: [],
          updatedAt: now,
        })),
      };
    });
    return records;
  }
}

/** Ingested calls' errors name their fields as they are (the request's own index is added by ingestion). */
const sameField = (field: string): string => field;

/** (source, messageId) pairs: the unit of de-duplication. A set per source: no key string built per call. */
class SeenIds {
  private readonly bySource = new Map<string | null, Set<string>>();

  has(sourceId: string | null, messageId: string): boolean {
    return this.bySource.get(sourceId)?.has(messageId) ?? false;
  }

  add(sourceId: string | null, messageId: string): void {
    let ids = this.bySource.get(sourceId);
    if (!ids) this.bySource.set(sourceId, (ids = new Set()));
    ids.add(messageId);
  }
}
