/**
 * Reading the history: message lists and details, exports, the ingest log, usage counters, destinations'
 * delivery stats and deletion requests. Nothing here writes.
 */
import type { ExportMessagesInput, ExportMessagesOutput, ListMessagesInput } from '../contract/api.js';
import { EXPORT_LIMIT } from '../contract/commands.js';
import type { DeletionRequest, DestinationStats, IngestRefusal, MessageDetail, MessageFilter, MessagePage, Page, SourceUsage } from '../contract/models.js';
import type { ReceiverCheck } from '../contract/receiver/receiver.js';
import { err, ok, type Result } from '../contract/result.js';
import { HOOKBENCH_VERSION } from '../contract/version.js';
import { exportMessages as exportMessageDetails } from '../domain/export.js';
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
    const details: MessageDetail[] = [];
    for (const [i, id] of ids.entries()) {
      // An export holds what was sent and answered, not the receiver's reading of it.
      const detail = this.detailOf(id);
      if (!detail) {
        const { error } = notFound('message', id);
        return err({ ...error, field: `ids[${i}]`, message: `ids[${i}]: ${error.message}` });
      }
      details.push(detail);
    }
    const secrets = [...this.options.registry.allSources().map((s) => s.writeKey), ...this.options.otherSecrets()];
    const exported = exportMessageDetails(details, this.options.registry.allDestinations(), {
      format: input.format,
      includeSecrets: input.includeSecrets ?? false,
      secrets,
      creatorVersion: HOOKBENCH_VERSION,
    });
    return ok({ ...exported, messages: details.length, truncated });
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
    return ok(wholePage(this.options.store.destinationStats.statsOf(this.options.registry.allDestinations().map((d) => d.id))));
  }

  listDeletionRequests(): Result<Page<DeletionRequest>> {
    return ok(wholePage(this.options.store.deletions.listDeletionRequests()));
  }
}
