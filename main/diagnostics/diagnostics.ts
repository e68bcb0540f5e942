/**
 * The troubleshooting checklist (docs/behaviour.md §13): each of the spec's troubleshooting rules computed
 * from what the workbench holds, with links to the evidence. It reads only bounded, newest-first slices
 * (the newest RECENT.messages messages, RECENT.attempts attempts, and for a destination without one among
 * them its own newest, RECENT.refusals refused requests and RECENT.captures captures), so it answers in
 * milliseconds at any history size. Nothing here writes.
 */
import { ROUTING_INPUTS_LIMIT, type DiagnosticCheck, type Diagnostics, type MessageExplanation, type RoutingInputs } from '../contract/diagnostics.js';
import { routedIntegrations } from '../contract/message/routing.js';
import { destinationOwner, type Destination } from '../contract/destinations.js';
import type { MessageDetail } from '../contract/messages.js';
import type { Overview } from '../contract/overview.js';
import type { Source } from '../contract/sources.js';
import type { CaptureRecord } from '../contract/receiver/receiver.js';
import { ok, type Result } from '../contract/result.js';
import type { Store } from '../store/store.js';
import type { DiagnosticsQueries } from './diagnosticsQueries.js';
import { explainMessage } from './explainMessage.js';
import { noEvents } from './noEvents.js';
import { notDelivered } from './notDelivered.js';
import { slow } from './slow.js';

export { refusalAdvice, tlsCause } from './words.js';

export const RECENT = { messages: 1000, attempts: 1000, refusals: 200, captures: 200 } as const;
/** The attempts read for a destination that has none among the newest RECENT.attempts. */
export const QUIET_DESTINATION_ATTEMPTS = 100;

export interface DiagnosticsOptions {
  /** The checklist's reads: the newest messages (diagnosticsQueries.ts), attempts and refused requests. */
  store: { diagnostics: DiagnosticsQueries } & Pick<Store, 'deliveries' | 'ingestLog'>;
  clock: { now(): number };
  sources: () => Source[];
  destinations: () => Destination[];
  /** The mock receiver's newest captures (with their signature verdicts). */
  captures: (limit: number) => CaptureRecord[];
  /** A receiver endpoint's secret now: null when it has none, undefined when it no longer exists. */
  receiverSecret?: (name: string) => string | null | undefined;
  /** One message in full, with its receiver checks (getMessage), for explainMessage. */
  message?: (id: number) => Result<MessageDetail>;
  overview: () => Overview;
}

export class DiagnosticsService {
  constructor(private readonly options: DiagnosticsOptions) {}

  /** `ingestUrl`: where SDKs must send, when the face knows it (serve does). */
  diagnose(options: { ingestUrl: string | null }): Result<Diagnostics> {
    const { store } = this.options;
    const sources = this.options.sources();
    // The destinations hookbench send and hookbench check keep for themselves are not the user's: nothing to troubleshoot there.
    const destinations = this.options.destinations().filter((d) => destinationOwner(d.name) === 'user');
    const messages = store.diagnostics.recentMessages(RECENT.messages);
    const attempts = store.deliveries.recentAttempts(RECENT.attempts);
    // A failing destination's retries can fill the newest attempts: a destination with none among them is read
    // on its own, so that it is not said to have had no attempt while it answers every one.
    const attempted = new Set(attempts.map((a) => a.destinationId));
    for (const d of destinations) if (!attempted.has(d.id)) attempts.push(...store.deliveries.recentAttemptsOfDestination(d.id, QUIET_DESTINATION_ATTEMPTS));
    const refusals = store.ingestLog.listRefusals({ limit: RECENT.refusals });
    const captures = this.options.captures(RECENT.captures);
    const overview = this.options.overview();
    const checks: DiagnosticCheck[] = [
      ...noEvents(sources, refusals, options.ingestUrl, (id) => store.ingestLog.usageOf(id)),
      ...notDelivered(sources, destinations, messages, attempts, captures, (name) => this.options.receiverSecret?.(name)),
      ...slow(destinations, attempts, overview, this.options.clock.now()),
    ];
    return ok({ checkedAt: this.options.clock.now(), window: { ...RECENT }, checks });
  }

  /** What routing reads of the newest messages, for a preview of event filters (only what routing reads: no content). */
  routingInputs(input: { sourceIds?: string[] | undefined; limit?: number | undefined }): Result<RoutingInputs> {
    const messages = this.options.store.diagnostics.recentMessages(input.limit ?? ROUTING_INPUTS_LIMIT);
    // Names or ids, as every ref.
    const wanted = input.sourceIds && new Set(input.sourceIds.flatMap((ref) => this.options.sources().filter((s) => s.id === ref || s.name === ref).map((s) => s.id)));
    const items = messages
      .filter((m) => !wanted || (m.sourceId !== null && wanted.has(m.sourceId)))
      .map((m) => ({ id: m.id, sourceId: m.sourceId, type: m.type, event: m.event, integrations: routingView(m.integrations), destinationIds: m.destinationIds }));
    return ok({ looked: messages.length, items });
  }

  /** Why one message was or was not delivered, per destination (explainMessage.ts). */
  explainMessage(input: { id: number }): Result<MessageExplanation> {
    const found = this.options.message?.(input.id);
    if (!found) return ok({ messageId: input.id, destinations: [] });
    if (!found.ok) return found;
    const sources = new Map(this.options.sources().map((s) => [s.id, s.name]));
    return ok(explainMessage(found.value, sources, this.options.destinations(), this.options.clock.now()));
  }
}

/** Integrations reduced to what routing reads of each key (routing.ts: truthy, `false`, or skipped), so nothing else of a call leaves. */
function routingView(integrations: unknown): Record<string, boolean | null> | null {
  const map = routedIntegrations(integrations);
  if (map === null) return null;
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [key, value === false ? false : value ? true : null]));
}
