/**
 * ADAPTER, to be removed: the plan's commands and events (planned.ts) over the API that the server has
 * today. Each planned command is tried on the server first; only an `unknown command` answer makes the
 * adapter stand in, so the adapters switch themselves off as the lead's commands land.
 */
import type { EngineEvent } from '../../../main/contract/events';
import type { ClockState, DeliveryRecord, Destination, MessageDetail, MessageRecord, MessageStatus, Page } from '../../../main/contract/models';
import { MESSAGE_STATUSES } from '../../../main/contract/models';
import type { Result } from '../../../main/contract/result';
import type { ListMessagesFilter, MessageSummary, Overview, PlannedCommandValues, UiEvent } from './planned';
import { summarize } from './summaries';
import type { Transport } from './transport';

export interface Compat {
  call(name: string, input: unknown): Promise<Result<unknown>>;
  translate(events: EngineEvent[]): UiEvent[];
}

type Adapter = (input: unknown) => Promise<Result<unknown>>;

const CACHE_LIMIT = 5000;
/** How many rows of a first page get their attempts filled in (one getMessage each). */
const ENRICH_LIMIT = 150;

interface Tracked {
  summary: MessageSummary;
  deliveries: Map<number, { destinationId: string; attempts: number; nextAttemptAt: number | null }>;
}

export function createCompat(transport: Transport): Compat {
  const missing = new Set<string>();
  const tracked = new Map<number, Tracked>();
  let serverSendsSummaries = false;

  const track = (summary: MessageSummary): Tracked => {
    const existing = tracked.get(summary.id);
    if (existing) {
      existing.summary = summary;
      return existing;
    }
    const entry: Tracked = { summary, deliveries: new Map() };
    tracked.set(summary.id, entry);
    if (tracked.size > CACHE_LIMIT) {
      const oldest = tracked.keys().next().value;
      if (oldest !== undefined) tracked.delete(oldest);
    }
    return entry;
  };

  const applyDelivery = (entry: Tracked, delivery: DeliveryRecord, status: MessageStatus | null): MessageSummary => {
    entry.deliveries.set(delivery.id, { destinationId: delivery.destinationId, attempts: delivery.attempts, nextAttemptAt: delivery.nextAttemptAt });
    const all = [...entry.deliveries.values()];
    const pending = all.map((d) => d.nextAttemptAt).filter((t): t is number => t !== null);
    entry.summary = {
      ...entry.summary,
      status: status ?? entry.summary.status,
      attempts: Math.max(0, ...all.map((d) => d.attempts)),
      nextAttemptAt: pending.length ? Math.min(...pending) : null,
      destinationIds: [...new Set(all.map((d) => d.destinationId))],
      statusReason: delivery.reason ?? entry.summary.statusReason,
    };
    return entry.summary;
  };

  const raw = (name: string, input: unknown) => transport.call(name, input);

  const enrich = async (summaries: MessageSummary[]): Promise<void> => {
    const queue = summaries.filter((s) => s.status !== 'filtered').slice(0, ENRICH_LIMIT);
    const worker = async () => {
      for (let s = queue.shift(); s; s = queue.shift()) {
        const detail = await raw('getMessage', { id: s.id });
        if (!detail.ok) continue;
        const entry = track(s);
        for (const d of (detail.value as MessageDetail).deliveries) applyDelivery(entry, d, null);
        Object.assign(s, entry.summary);
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
  };

  const adapters: Record<keyof PlannedCommandValues, Adapter> = {
    async listMessages(input) {
      const filter = (input ?? {}) as ListMessagesFilter;
      const today: Record<string, unknown> = {};
      if (filter.status) today['status'] = filter.status;
      if (filter.type) today['type'] = filter.type;
      if (filter.text) today['search'] = filter.text;
      if (filter.cursor) today['cursor'] = filter.cursor;
      if (filter.limit) today['limit'] = filter.limit;
      const result = await raw('listMessages', today);
      if (!result.ok) return result;
      const page = result.value as Page<MessageRecord | MessageSummary>;
      const items = page.items.map((m) => ('body' in m ? summarize(m) : m));
      for (const item of items) track(item);
      await enrich(items);
      return { ok: true, value: { items, nextCursor: page.nextCursor } };
    },
    async getOverview() {
      const clock = await raw('getClock', {});
      if (!clock.ok) return clock;
      const counts = Object.fromEntries(MESSAGE_STATUSES.map((s) => [s, 0])) as Record<MessageStatus, number>;
      const hourAgo = (clock.value as ClockState).now - 3_600_000;
      let failedLastHour = 0;
      let nextDueAt: number | null = null;
      let dueRetries = 0;
      for (const { summary } of tracked.values()) {
        counts[summary.status]++;
        if (summary.status === 'failed' && summary.receivedAt >= hourAgo) failedLastHour++;
        if (summary.nextAttemptAt !== null && (summary.status === 'retrying' || summary.status === 'queued')) {
          dueRetries++;
          nextDueAt = nextDueAt === null ? summary.nextAttemptAt : Math.min(nextDueAt, summary.nextAttemptAt);
        }
      }
      const overview: Overview = {
        counts,
        inFlight: counts.queued + counts.delivering,
        retrying: counts.retrying,
        failedLastHour,
        dueRetries,
        nextDueAt,
        clock: clock.value as ClockState,
        paused: false,
        ingestPerMinute: 0,
      };
      return { ok: true, value: overview };
    },
    async advanceToNextRetry() {
      const overview = await adapters.getOverview({});
      if (!overview.ok) return overview;
      const { nextDueAt, clock } = overview.value as Overview;
      if (nextDueAt === null) return { ok: false, error: { code: 'conflict', message: 'no retry is waiting: nothing to jump to' } };
      return raw('advanceClock', { ms: Math.max(0, Math.ceil(nextDueAt - clock.now)) });
    },
    async resetClock() {
      return notYet('Reset offset', 'resetClock');
    },
    async pauseForwarding() {
      return notYet('Pausing forwarding', 'pauseForwarding');
    },
    async resumeForwarding() {
      return notYet('Resuming forwarding', 'resumeForwarding');
    },
    async getSettings() {
      return notYet('Settings', 'getSettings');
    },
    async revealSecret(input) {
      const { kind, id } = input as { kind: string; id: string };
      if (kind !== 'destination') return notYet('Revealing this secret', 'revealSecret');
      const list = await raw('listDestinations', {});
      if (!list.ok) return list;
      const destination = (list.value as Destination[]).find((d) => d.id === id);
      return destination ? { ok: true, value: { secret: destination.sharedSecret } } : { ok: false, error: { code: 'not_found', message: `no destination ${id}` } };
    },
  };

  return {
    async call(name, input) {
      const adapter = Object.hasOwn(adapters, name) ? adapters[name as keyof PlannedCommandValues] : undefined;
      if (adapter && missing.has(name)) return adapter(input);
      const result = await raw(name, input);
      if (adapter && !result.ok && result.error.code === 'not_found' && result.error.message.startsWith('unknown command')) {
        missing.add(name);
        return adapter(input);
      }
      if (name === 'listMessages' && result.ok) {
        // Today's listMessages answers full records; the plan's answers summaries.
        const page = result.value as Page<MessageRecord | MessageSummary>;
        if (page.items.some((m) => 'body' in m)) return adapters.listMessages(input);
      }
      return result;
    },
    translate(events) {
      const out: UiEvent[] = [];
      for (const event of events) {
        if (event.type === 'messageAccepted') {
          const message = event.message as MessageRecord | MessageSummary;
          const summary = 'body' in message ? summarize(message) : message;
          if (!('body' in message)) serverSendsSummaries = true;
          track(summary);
          out.push({ type: 'messageAccepted', message: summary });
        } else if (event.type === 'deliveryUpdated') {
          out.push(event);
          if (serverSendsSummaries) continue;
          const entry = tracked.get(event.delivery.messageId);
          if (entry) out.push({ type: 'messageUpdated', message: applyDelivery(entry, event.delivery, event.messageStatus) });
        } else {
          const planned = event as EngineEvent | UiEvent;
          if (planned.type === 'messageUpdated') serverSendsSummaries = true;
          out.push(planned as UiEvent);
        }
      }
      return out;
    },
  };
}

function notYet(what: string, command: string): Result<never> {
  return { ok: false, error: { code: 'not_found', message: `${what} needs the server's ${command} command, which this server does not have yet` } };
}
