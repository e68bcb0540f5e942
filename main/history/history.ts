/**
 * Reading the history: message lists and details, exports, the ingest log, usage counters, destinations'
 * delivery stats and deletion requests. Nothing here writes.
 */
import type { ExportMessagesInput, ExportMessagesOutput, ListMessagesInput } from '../contract/api.js';
import { EXPORT_LIMIT, EXPORT_TEXT_BYTES } from '../contract/commands.js';
import type { DestinationStats, DestinationTimeline } from '../contract/destinations.js';
import type { DeletionRequest, MessageDetail, MessageFilter, MessagePage, Page } from '../contract/messages.js';
import type { IngestRefusal, SourceUsage } from '../contract/sources.js';
import type { ReceiverCheck } from '../contract/receiver/receiver.js';
import { err, ok, type Result } from '../contract/result.js';
import { HOOKBENCH_VERSION } from '../contract/version.js';
import { createBoundedExport } from '../domain/export.js';
import type { MessageQueries } from '../store/messageQueries.js';
import type { Store } from '../store/store.js';
import { notFound, pageArgs, toPage, wholePage } from '../platform/paging.js';
import type { Registry } from '../registry/registry.js';
import type { UsageMinutes } from '../ingestion/usageMinutes.js';

export type HistoryStore = Pick<Store, 'messages' | 'deliveries' | 'ingestLog' | 'deletions' | 'destinationStats'>;

export interface HistoryOptions {
  store: HistoryStore;
  queries: MessageQueries;
  registry: Registry;
  /** Each destination's rounds per minute over the last hour (in memory, counted by the engine: main/delivery/deliveryMinutes.ts). */
  deliveryMinutes: { lastHour(destinationId: string, nowMs: number): Omit<DestinationTimeline, 'destinationId' | 'backlog' | 'backlogNow'> & { backlogChange: (number | null)[] } };
  /** Each source's calls per minute over the last hour (in memory), and the engine clock. */
  usage: { minutes: UsageMinutes; now(): number };
  /** Secrets an export redacts besides the destinations' own: the API token, receiver secrets. */
  otherSecrets: () => string[];
  /** What the mock receiver made of the message's attempts (getMessage's receiverChecks). */
  receiverChecks?: (detail: MessageDetail) => ReceiverCheck[];
}

/** What the input schema cannot say alone: `deliverySince` is about the status named by `delivery`. */
function filterProblem(filter: MessageFilter, prefix = ''): Result<never> | null {
  if (filter.deliverySince !== undefined && filter.delivery === undefined) {
    return err({ code: 'invalid_input', field: `${prefix}deliverySince`, message: `${prefix}deliverySince: give delivery too (the delivery status it is about, e.g. failed)` });
  }
  // `to` is exclusive: a range that ends where or before it starts matches nothing, which an empty answer would hide.
  if (filter.from !== undefined && filter.to !== undefined && filter.to <= filter.from) {
    const iso = (ms: number) => new Date(ms).toISOString();
    return err({ code: 'invalid_input', field: `${prefix}to`, message: `${prefix}to: must be after from (got from ${iso(filter.from)}, to ${iso(filter.to)})` });
  }
  return null;
}

export class History {
  constructor(private readonly options: HistoryOptions) {}

  listMessages(input: ListMessagesInput = {}): Result<MessagePage> {
    const page = pageArgs(input);
    if (!page.ok) return page;
    const { cursor: _cursor, limit: _limit, ...filter } = input;
    const problem = filterProblem(filter);
    if (problem) return problem;
    const { rows, stopped } = this.options.queries.listWithin(filter, page.value.beforeId, page.value.limit + 1);
    // A page that stopped early holds fewer than limit + 1 rows: every one is shown, and the next goes on below.
    if (stopped) return ok({ items: rows, nextCursor: String(stopped.before), searching: { left: stopped.left } });
    return ok(toPage(rows, page.value.limit));
  }

  getMessage(input: { id: number }): Result<MessageDetail> {
    const detail = this.detailOf(input.id);
    if (!detail) return notFound('message', input.id);
    const checks = this.options.receiverChecks?.(detail) ?? [];
    return ok(checks.length ? { ...detail, receiverChecks: checks } : detail);
  }

  private detailOf(id: number): MessageDetail | null {
    const { store } = this.options;
    const message = store.messages.getMessage(id);
    if (!message) return null;
    return { message, deliveries: store.deliveries.deliveriesOf(id), attempts: store.deliveries.attemptsOfMessage(id) };
  }

  exportMessages(input: ExportMessagesInput): Result<ExportMessagesOutput> {
    let ids: number[];
    let truncated = false;
    if (input.ids) {
      ids = input.ids;
    } else {
      const problem = filterProblem(input.filter ?? {}, 'filter.');
      if (problem) return problem;
      const rows = this.options.queries.list(input.filter ?? {}, undefined, EXPORT_LIMIT + 1);
      truncated = rows.length > EXPORT_LIMIT;
      ids = rows.slice(0, EXPORT_LIMIT).map((m) => m.id);
    }
    const secrets = [...this.options.registry.allSources().map((s) => s.writeKey), ...this.options.otherSecrets()];
    const exporter = createBoundedExport(
      this.options.registry.allDestinations(),
      { format: input.format, includeSecrets: input.includeSecrets ?? false, secrets, creatorVersion: HOOKBENCH_VERSION },
      EXPORT_TEXT_BYTES,
    );
    // Read one message at a time, and no further than the text can hold (newest first).
    let full = false;
    for (const [i, id] of ids.entries()) {
      const missing = () => {
        const { error } = notFound('message', id);
        return err({ ...error, field: `ids[${i}]`, message: `ids[${i}]: ${error.message}` });
      };
      if (full) {
        if (!this.options.store.messages.getMessage(id)) return missing();
        continue;
      }
      // An export holds what was sent and answered, not the receiver's reading of it.
      const detail = this.detailOf(id);
      if (!detail) return missing();
      const offered = exporter.offer(detail);
      if (offered.taken) continue;
      if (i === 0) {
        const limit = EXPORT_TEXT_BYTES;
        return err({
          code: 'invalid_input',
          limit,
          value: offered.bytes,
          message: `message #${id} alone is ${offered.bytes.toLocaleString('en-US')} bytes as ${input.format}, over the ${limit.toLocaleString('en-US')} bytes one export holds (what one import takes); export another format or fewer of its attempts`,
        });
      }
      full = true;
    }
    const { messages, notSent, ...exported } = exporter.finish();
    const bySize = full || messages + notSent < ids.length;
    return ok({ ...exported, messages, notSent, truncated: truncated || bySize, truncatedBy: bySize ? 'size' : truncated ? 'count' : null });
  }

  listIngestLog(input: { cursor?: string | null | undefined; limit?: number | undefined } = {}): Result<Page<IngestRefusal>> {
    const page = pageArgs(input);
    if (!page.ok) return page;
    return ok(toPage(this.options.store.ingestLog.listRefusals({ beforeId: page.value.beforeId, limit: page.value.limit + 1 }), page.value.limit));
  }

  listSourceUsage(): Result<Page<SourceUsage>> {
    const now = this.options.usage.now();
    return ok(
      wholePage(
        this.options.registry.allSources().map((src) => ({ sourceId: src.id, name: src.name, ...this.options.store.ingestLog.usageOf(src.id), lastHour: this.options.usage.minutes.lastHour(src.id, now) })),
      ),
    );
  }

  /** Every destination's pending deliveries and recent outcomes, by name (docs/api.md, listDestinationStats). */
  listDestinationStats(): Result<Page<DestinationStats>> {
    return ok(wholePage(this.options.store.destinationStats.statsOf(this.options.registry.destinationsOf('user').map((d) => d.id))));
  }

  /**
   * One destination's last hour per minute (docs/api.md, getDestinationTimeline): the engine's in-memory
   * minutes, and the retry backlog now, from which each earlier minute's backlog is worked back.
   */
  getDestinationTimeline(input: { id: string }): Result<DestinationTimeline> {
    const destination = this.options.registry.findDestination(input.id);
    if (!destination) return notFound('destination', input.id);
    const now = this.options.usage.now();
    const { backlogChange, ...counts } = this.options.deliveryMinutes.lastHour(destination.id, now);
    const backlogNow = this.options.store.destinationStats.retryingOf(destination.id);
    const backlog = new Array<number | null>(backlogChange.length).fill(null);
    let waiting = backlogNow;
    // Worked back only over minutes counted: before Hookbench started it would be made up (the minute now
    // always says backlogNow, even on a clock reset to before the start).
    for (let i = backlogChange.length - 1; i >= 0; i--) {
      const change = backlogChange[i];
      if (change === null && i < backlogChange.length - 1) break;
      backlog[i] = Math.max(0, waiting);
      waiting -= change ?? 0;
    }
    return ok({ destinationId: destination.id, ...counts, backlog, backlogNow });
  }

  listDeletionRequests(): Result<Page<DeletionRequest>> {
    return ok(wholePage(this.options.store.deletions.listDeletionRequests()));
  }
}
