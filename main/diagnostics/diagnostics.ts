/**
 * The troubleshooting checklist (docs/behaviour.md §13): each of the spec's troubleshooting rules computed
 * from what the workbench holds, with links to the evidence. It reads only bounded, newest-first slices
 * (the newest RECENT.messages messages, RECENT.attempts attempts, RECENT.refusals refused requests and
 * RECENT.captures captures), so it answers in milliseconds at any history size. Nothing here writes.
 */
import type { DestinationExplanation, DiagnosticCheck, DiagnosticSection, Diagnostics, Evidence, MessageExplanation, WhyReason } from '../contract/diagnostics.js';
import { pastWindowWords, spanWords } from '../contract/deliveryWords.js';
import { isSendDestination, REASONS, type AttemptRecord, type DeliveryRecord, type Destination, type IngestRefusal, type MessageDetail, type Overview, type Source } from '../contract/models.js';
import { parseReceiverRef, type CaptureRecord } from '../contract/receiver.js';
import { ok, type Result } from '../contract/result.js';
import type { ReceiverCheck } from '../contract/receiver.js';
import { eventFilterAllows, integrationsAllow } from '../contract/routing.js';
import { receiverChecks } from '../domain/receiverVerdict.js';
import type { RecentMessage } from '../store/diagnosticsQueries.js';
import type { Store } from '../store/store.js';

export const RECENT = { messages: 1000, attempts: 1000, refusals: 200, captures: 200 } as const;
/** Links per check: enough to open the evidence, few enough to read. */
const MAX_EVIDENCE = 3;

export interface DiagnosticsOptions {
  store: Pick<Store, 'diagnostics' | 'deliveries' | 'ingestLog'>;
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

type Attempt = AttemptRecord & { destinationId: string };

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);
const outcomeOf = (a: AttemptRecord) => (a.statusCode !== null ? `HTTP ${a.statusCode}` : a.outcome === 'tls_error' ? `TLS refused, ${tlsCause(a.error)}` : (a.error ?? a.outcome));
const attemptLink = (a: AttemptRecord, label = `Message #${a.messageId}, attempt ${a.attemptNumber}: ${outcomeOf(a)}`): Evidence => ({
  kind: 'message',
  label,
  messageId: a.messageId,
  attemptId: a.id,
});

export class DiagnosticsService {
  constructor(private readonly options: DiagnosticsOptions) {}

  /** `ingestUrl`: where SDKs must send, when the face knows it (serve does). */
  diagnose(options: { ingestUrl: string | null }): Result<Diagnostics> {
    const { store } = this.options;
    const sources = this.options.sources();
    // `hookbench send`'s helper destinations are the CLI's, not the user's: nothing to troubleshoot there.
    const destinations = this.options.destinations().filter((d) => !isSendDestination(d.name));
    const messages = store.diagnostics.recentMessages(RECENT.messages);
    const attempts = store.deliveries.recentAttempts(RECENT.attempts);
    const refusals = store.ingestLog.listRefusals({ limit: RECENT.refusals });
    const captures = this.options.captures(RECENT.captures);
    const overview = this.options.overview();
    const checks: DiagnosticCheck[] = [
      ...this.noEvents(sources, refusals, options.ingestUrl),
      ...this.notDelivered(sources, destinations, messages, attempts, captures),
      ...this.slow(destinations, attempts, overview),
    ];
    return ok({ checkedAt: this.options.clock.now(), window: { ...RECENT }, checks });
  }

  /**
   * Why one message was or was not delivered, per destination: the destinations it was routed to with what
   * their delivery met, then every other destination with the routing rule that kept the message from it
   * (judged by the destinations as they are now).
   */
  explainMessage(input: { id: number }): Result<MessageExplanation> {
    const found = this.options.message?.(input.id);
    if (!found) return ok({ messageId: input.id, destinations: [] });
    if (!found.ok) return found;
    const detail = found.value;
    const m = detail.message;
    const sources = new Map(this.options.sources().map((s) => [s.id, s.name]));
    const destinations = this.options.destinations();
    const out: DestinationExplanation[] = [];
    for (const delivery of detail.deliveries) {
      const d = destinations.find((x) => x.id === delivery.destinationId);
      out.push(this.explainDelivery(detail, delivery, d));
    }
    const routed = new Set(detail.deliveries.map((d) => d.destinationId));
    for (const d of destinations) {
      if (routed.has(d.id) || isSendDestination(d.name)) continue;
      const reasons: WhyReason[] = [];
      const link: Evidence = { kind: 'destination', label: d.name, destinationId: d.id };
      const source = m.sourceId === null ? null : (sources.get(m.sourceId) ?? m.sourceId);
      if (m.statusReason === REASONS.duplicateMessageId) {
        reasons.push({ rule: 'message.duplicate', state: 'problem', text: `the message was a duplicate (its messageId was seen within 24 h), so it went nowhere`, evidence: [] });
      } else if (m.sourceId === null) {
        reasons.push({ rule: 'destination.sources', state: 'problem', text: `the message was sent to named destinations only, and ${d.name} was not among them`, evidence: [link] });
      } else {
        if (!d.enabled) reasons.push({ rule: 'destination.enabled', state: 'problem', text: `${d.name} is disabled: a disabled destination receives nothing`, evidence: [link] });
        if (!d.sourceIds.includes(m.sourceId)) reasons.push({ rule: 'destination.sources', state: 'problem', text: `${d.name} is not connected to source ${source}`, evidence: [link] });
        const integrations = integrationsAllow(m.call['integrations'], d.name);
        if (integrations) reasons.push({ rule: 'destination.filtered', state: 'problem', text: `the call's integrations keep it from ${d.name}: ${integrations}`, evidence: [] });
        const filter = eventFilterAllows(d, m.type, m.event);
        if (filter) reasons.push({ rule: 'destination.filtered', state: 'problem', text: `the event filter of ${d.name}: ${filter}`, evidence: [link] });
        if (d.createdAt > m.receivedAt) reasons.push({ rule: 'destination.created', state: 'problem', text: `${d.name} was created after this message arrived`, evidence: [] });
        if (reasons.length === 0) reasons.push({ rule: 'destination.changed', state: 'problem', text: `not routed to ${d.name} when it arrived${m.statusReason ? ` (${m.statusReason})` : ''}; its configuration has changed since`, evidence: [link] });
      }
      out.push({ destinationId: d.id, destinationName: d.name, outcome: 'not delivered', status: null, reasons });
    }
    return ok({ messageId: m.id, destinations: out });
  }

  private explainDelivery(detail: MessageDetail, delivery: DeliveryRecord, d: Destination | undefined): DestinationExplanation {
    const attempts = detail.attempts.filter((a) => a.deliveryId === delivery.id).sort((a, b) => b.id - a.id);
    const last = attempts[0];
    const reasons: WhyReason[] = [];
    const name = delivery.destinationName;
    const link = (a: AttemptRecord) => attemptLink(a);
    const checks = (detail.receiverChecks ?? []).filter((c) => attempts.some((a) => a.id === c.attemptId));
    const refused = checks.filter((c) => c.verdict === 'invalid' || c.verdict === 'missing').sort((a, b) => b.captureId - a.captureId)[0];
    const signatureReason = (c: ReceiverCheck, state: WhyReason['state']): WhyReason => ({
      rule: 'destination.signature',
      state,
      text: `receiver endpoint '${c.receiver ?? 'receiver'}' found the signature ${c.verdict}${c.explanation ? `: ${c.explanation}` : ''}`,
      evidence: [
        { kind: 'signature', label: `Attempt ${detail.attempts.find((a) => a.id === c.attemptId)?.attemptNumber ?? ''}: Receiver’s verdict`, messageId: detail.message.id, attemptId: c.attemptId },
        { kind: 'capture', label: `Capture ${c.captureId}`, receiver: c.receiver, captureId: c.captureId },
      ],
    });
    const base = { destinationId: delivery.destinationId, destinationName: name, status: delivery.status };
    switch (delivery.status) {
      case 'delivered': {
        const ok = attempts.find((a) => a.outcome === 'success');
        reasons.push({ rule: 'delivery.delivered', state: 'ok', text: `delivered after ${plural(delivery.attempts, 'attempt')}${ok ? ` (${outcomeOf(ok)})` : ''}`, evidence: ok ? [link(ok)] : [] });
        if (refused) reasons.unshift(signatureReason(refused, 'warning'));
        return { ...base, outcome: 'delivered', reasons };
      }
      case 'failed': {
        const why = delivery.reason ?? 'failed';
        if (why === REASONS.windowExhausted) {
          const past = pastWindowWords(delivery);
          reasons.push({ rule: 'retry.window', state: 'problem', text: `retry window exhausted after ${plural(delivery.attempts, 'attempt')}${past ? `: ${past}` : ''}`, evidence: [] });
          if (last) reasons.push(this.lastFailure(name, last));
        } else if (last?.outcome === 'tls_error') {
          reasons.push({ rule: 'destination.tls', state: 'problem', text: `TLS refused by ${name}: ${tlsCause(last.error)}; no request was sent`, evidence: [link(last)] });
        } else if (last) {
          reasons.push({ ...this.lastFailure(name, last), text: `${why}: ${this.lastFailure(name, last).text}` });
        } else {
          reasons.push({ rule: 'destination.failing', state: 'problem', text: why, evidence: [] });
        }
        if (refused) reasons.push(signatureReason(refused, 'problem'));
        return { ...base, outcome: 'not delivered', reasons };
      }
      case 'cancelled':
        reasons.push({ rule: 'delivery.cancelled', state: 'problem', text: delivery.reason ?? 'cancelled', evidence: [] });
        return { ...base, outcome: 'not delivered', reasons };
      default: {
        if (d && !d.enabled) reasons.push({ rule: 'destination.enabled', state: 'problem', text: `${name} is disabled: its retries are held until it is enabled`, evidence: [{ kind: 'destination', label: name, destinationId: d.id }] });
        if (last && last.outcome !== 'success') reasons.push(this.lastFailure(name, last));
        if (refused) reasons.push(signatureReason(refused, 'problem'));
        reasons.push({
          rule: 'delivery.waiting',
          state: 'warning',
          text:
            delivery.nextAttemptAt !== null
              ? `${delivery.status}: the next attempt ${dueWords(delivery.nextAttemptAt, this.options.clock.now())}`
              : delivery.status === 'delivering'
                ? 'an attempt is in flight'
                : `${delivery.status}`,
          evidence: [],
        });
        return { ...base, outcome: 'waiting', reasons };
      }
    }
  }

  private lastFailure(name: string, a: AttemptRecord): WhyReason {
    const what =
      a.outcome === 'timeout'
        ? `no response headers within the timeout (attempt ${a.attemptNumber})`
        : a.outcome === 'tls_error'
          ? `TLS refused: ${tlsCause(a.error)}`
          : a.outcome === 'network_error'
            ? `${name}’s receiver could not be reached: ${a.error ?? 'network error'} (attempt ${a.attemptNumber})`
            : `${name}’s receiver answered ${outcomeOf(a)} (attempt ${a.attemptNumber})`;
    return { rule: a.outcome === 'tls_error' ? 'destination.tls' : a.outcome === 'timeout' ? 'deliveries.timeouts' : 'destination.failing', state: 'problem', text: what, evidence: [attemptLink(a)] };
  }

  // ---------------------------------------------------------------- no events from a source

  private noEvents(sources: Source[], refusals: IngestRefusal[], ingestUrl: string | null): DiagnosticCheck[] {
    const section: DiagnosticSection = 'no-events';
    const checks: DiagnosticCheck[] = [];
    const usage = new Map(sources.map((s) => [s.id, this.options.store.ingestLog.usageOf(s.id)]));
    const anyCalls = [...usage.values()].some((u) => u.received > 0);
    const batchUrl = ingestUrl ? `${ingestUrl.replace(/\/$/, '')}/v1/batch` : null;
    checks.push({
      id: 'ingest.url',
      section,
      rule: 'ingest.url',
      subject: null,
      state: sources.length === 0 ? 'problem' : anyCalls ? 'ok' : 'warning',
      title:
        sources.length === 0
          ? 'No source exists: SDKs have no write key to send with'
          : batchUrl
            ? `SDKs send to ${batchUrl}`
            : 'SDKs send to this workbench’s /v1/batch',
      detail:
        sources.length === 0
          ? 'Create a source; its write key is what an SDK authenticates with.'
          : `Point the SDK’s host (analytics-node’s host, the browser snippet’s apiHost) at ${ingestUrl ?? 'the URL `hookbench serve` prints'}, with a source’s write key as the Basic auth user name.${anyCalls ? '' : ' No call has arrived yet on any write key.'}`,
      evidence: batchUrl ? [{ kind: 'url', label: 'Ingestion URL', url: batchUrl }] : [],
    });
    for (const source of sources) {
      const u = usage.get(source.id)!;
      const mine = refusals.filter((r) => r.sourceId === source.id);
      checks.push({
        id: `source.calls:${source.id}`,
        section,
        rule: 'source.calls',
        subject: source.name,
        state: u.received > 0 ? 'ok' : 'warning',
        title: u.received > 0 ? `${plural(u.received, 'call')} received with the write key of ${source.name}` : `No call has arrived with the write key of ${source.name}`,
        detail:
          u.received > 0
            ? `${u.accepted.toLocaleString('en-US')} accepted, ${u.refused.toLocaleString('en-US')} refused, ${u.filtered.toLocaleString('en-US')} routed nowhere.`
            : 'Is the SDK configured with this source’s write key (Sources shows it), and pointed at this workbench?',
        evidence: [{ kind: 'source', label: source.name, sourceId: source.id }],
      });
      if (u.refused > 0 || mine.length > 0) {
        const last = mine[0];
        checks.push({
          id: `source.refused:${source.id}`,
          section,
          rule: 'source.refused',
          subject: source.name,
          state: 'problem',
          title: `${plural(Math.max(u.refused, mine.length), 'call')} of ${source.name} refused`,
          detail: last ? `Latest: HTTP ${last.httpStatus} ${last.code}: ${last.message}. ${refusalAdvice(last)}` : 'The ingest log has the reasons.',
          evidence: mine.slice(0, MAX_EVIDENCE).map(refusalLink),
        });
      }
    }
    // Refused before a source could be told: a write key problem (401) or a body that could not be read for one.
    const keyless = refusals.filter((r) => r.sourceId === null && r.httpStatus === 401);
    const last = keyless[0];
    checks.push({
      id: 'ingest.writeKey',
      section,
      rule: 'ingest.writeKey',
      subject: null,
      state: last ? 'problem' : 'ok',
      title: last ? `${plural(keyless.length, 'request')} refused: unknown or missing write key` : 'No request was refused for its write key',
      detail: last ? `Latest: HTTP ${last.httpStatus} ${last.code}: ${last.message}. ${refusalAdvice(last)}` : 'Every request named the write key of an existing source.',
      evidence: keyless.slice(0, MAX_EVIDENCE).map(refusalLink),
    });
    const unread = refusals.filter((r) => r.sourceId === null && r.httpStatus !== 401);
    const first = unread[0];
    if (first) {
      checks.push({
        id: 'ingest.refused',
        section,
        rule: 'ingest.refused',
        subject: null,
        state: 'problem',
        title: `${plural(unread.length, 'request')} refused before a write key could be read: ${first.code}`,
        detail: `Latest: HTTP ${first.httpStatus} ${first.code}: ${first.message}. ${refusalAdvice(first)}`,
        evidence: unread.slice(0, MAX_EVIDENCE).map(refusalLink),
      });
    }
    return checks;
  }

  // ---------------------------------------------------------------- received but not delivered

  private notDelivered(sources: Source[], destinations: Destination[], messages: RecentMessage[], attempts: Attempt[], captures: CaptureRecord[]): DiagnosticCheck[] {
    const section: DiagnosticSection = 'not-delivered';
    if (destinations.length === 0) {
      return [
        {
          id: 'destination.none',
          section,
          rule: 'destination.none',
          subject: null,
          state: messages.length > 0 ? 'problem' : 'warning',
          title: 'No destination exists',
          detail: `${messages.length ? `Messages are stored but go nowhere (${plural(messages.length, 'recent message')}).` : 'Nothing would be delivered.'} Set up a destination in Destinations, e.g. to the mock receiver (receiver:<name>).`,
          evidence: [],
        },
      ];
    }
    const checks: DiagnosticCheck[] = [];
    const sourceName = new Map(sources.map((s) => [s.id, s.name]));
    for (const d of destinations) {
      const connected = new Set(d.sourceIds);
      // Messages of its sources since it existed that it did not get.
      const missed = messages.filter((m) => m.sourceId !== null && connected.has(m.sourceId) && m.receivedAt >= d.createdAt && !m.destinationIds.includes(d.id));
      const mine = attempts.filter((a) => a.destinationId === d.id);
      checks.push(this.enabledCheck(d, missed));
      checks.push(this.sourcesCheck(d, messages, sourceName));
      checks.push(this.filteredCheck(d, missed));
      checks.push(this.failingCheck(d, mine));
      const tls = this.tlsCheck(d, mine);
      if (tls) checks.push(tls);
      const signature = this.signatureCheck(d, mine, captures);
      if (signature) checks.push(signature);
    }
    return checks;
  }

  private enabledCheck(d: Destination, missed: RecentMessage[]): DiagnosticCheck {
    return {
      id: `destination.enabled:${d.id}`,
      section: 'not-delivered',
      rule: 'destination.enabled',
      subject: d.name,
      state: d.enabled ? 'ok' : 'problem',
      title: d.enabled ? `${d.name} is enabled` : `${d.name} is disabled`,
      detail: d.enabled
        ? 'It receives the messages of its sources.'
        : `A disabled destination receives nothing${missed.length ? `: ${plural(missed.length, 'recent message')} of its sources went without it` : ''}. Turn it on in Destinations.`,
      evidence: [
        { kind: 'destination', label: d.name, destinationId: d.id },
        ...missed.slice(0, d.enabled ? 0 : MAX_EVIDENCE - 1).map((m): Evidence => ({ kind: 'message', label: `Message #${m.id} (${m.event ?? m.type})`, messageId: m.id })),
      ],
    };
  }

  private sourcesCheck(d: Destination, messages: RecentMessage[], sourceName: Map<string, string>): DiagnosticCheck {
    const base = { id: `destination.sources:${d.id}`, section: 'not-delivered' as const, rule: 'destination.sources', subject: d.name };
    const connected = new Set(d.sourceIds);
    const unconnected = new Map<string, number>();
    for (const m of messages) if (m.sourceId !== null && !connected.has(m.sourceId) && sourceName.has(m.sourceId)) unconnected.set(m.sourceId, (unconnected.get(m.sourceId) ?? 0) + 1);
    const busiest = [...unconnected].sort((a, b) => b[1] - a[1]);
    const others = busiest.map(([id, n]) => `${sourceName.get(id)} (${plural(n, 'recent message')})`);
    const evidence: Evidence[] = [
      { kind: 'destination', label: d.name, destinationId: d.id },
      ...busiest.slice(0, MAX_EVIDENCE - 1).map(([id]): Evidence => ({ kind: 'history', label: `Messages of ${sourceName.get(id)}`, filter: { sourceId: id } })),
    ];
    if (d.sourceIds.length === 0) {
      return {
        ...base,
        state: 'problem',
        title: `${d.name} is connected to no source`,
        detail: `Only messages sent to it by name reach it.${others.length ? ` Sources that sent messages: ${others.join(', ')}.` : ''} Connect it to a source in Destinations.`,
        evidence,
      };
    }
    const names = d.sourceIds.map((id) => sourceName.get(id) ?? id);
    // Being connected to some sources only is usual; none of its sources sending while others do is not.
    const ownActive = messages.some((m) => m.sourceId !== null && connected.has(m.sourceId));
    return {
      ...base,
      state: others.length && !ownActive ? 'warning' : 'ok',
      title: `${d.name} is connected to ${names.join(', ')}`,
      detail: others.length ? `Not connected to ${others.join(', ')}: those messages do not reach it.` : 'Every source that sent recent messages is connected.',
      evidence,
    };
  }

  private filteredCheck(d: Destination, missed: RecentMessage[]): DiagnosticCheck {
    // Why routing (main/contract/routing.ts) kept each missed message from this destination. The allow
    // list's refusals are one rule (its events are listed), the others one rule each.
    const byRule = new Map<string, { messages: RecentMessage[]; events: Map<string, number> }>();
    const allowRule = `not in the allow list of ${d.name} (${d.filters.allowEvents.join(', ')})`;
    for (const m of missed) {
      const refused = integrationsAllow(m.integrations, d.name) ?? eventFilterAllows(d, m.type, m.event);
      if (!refused) continue;
      const allow = m.event !== null && refused.includes('is not in the allow list');
      const rule = allow ? allowRule : refused;
      const entry = byRule.get(rule) ?? { messages: [], events: new Map<string, number>() };
      entry.messages.push(m);
      if (allow) entry.events.set(m.event!, (entry.events.get(m.event!) ?? 0) + 1);
      byRule.set(rule, entry);
    }
    const filtered = [...byRule.values()].reduce((n, e) => n + e.messages.length, 0);
    const rules = [...byRule].sort((a, b) => b[1].messages.length - a[1].messages.length);
    const describe = ([rule, e]: (typeof rules)[number]) => {
      const events = [...e.events].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} ×${n}`);
      return `${rule}: ${plural(e.messages.length, 'message')} (latest #${e.messages[0]!.id})${events.length ? ` — ${events.slice(0, 6).join(', ')}${events.length > 6 ? ', …' : ''}` : ''}`;
    };
    return {
      id: `destination.filtered:${d.id}`,
      section: 'not-delivered',
      rule: 'destination.filtered',
      subject: d.name,
      // A filter is configuration, not a fault: worth a look when a message did not arrive.
      state: filtered > 0 ? 'warning' : 'ok',
      title: filtered > 0 ? `${plural(filtered, 'recent message')} filtered out of ${d.name} by integrations or event filters` : `No recent message was filtered out of ${d.name}`,
      detail: filtered > 0 ? rules.map(describe).join('; ') : 'Neither a call’s integrations nor the destination’s event allow/block lists kept a message from it.',
      evidence: rules.slice(0, MAX_EVIDENCE).map(([rule, e]): Evidence => ({ kind: 'message', label: `Message #${e.messages[0]!.id}: ${rule}`, messageId: e.messages[0]!.id })),
    };
  }

  private failingCheck(d: Destination, all: Attempt[]): DiagnosticCheck {
    const base = { id: `destination.failing:${d.id}`, section: 'not-delivered' as const, rule: 'destination.failing', subject: d.name };
    // One finding per cause: an attempt refused at the TLS handshake never reached the receiver, and the TLS
    // finding reports it.
    const mine = all.filter((a) => a.outcome !== 'tls_error');
    const last = mine[0];
    if (!last && all.length > 0) {
      return { ...base, state: 'idle', title: `No request reached ${d.name}’s receiver`, detail: 'Every recent attempt was refused at the TLS handshake, before a request (see the TLS finding).', evidence: [] };
    }
    if (!last) return { ...base, state: 'idle', title: `No attempt to ${d.name} yet`, detail: 'Nothing has been sent to it among the recent attempts.', evidence: [] };
    const failures = mine.filter((a) => a.outcome !== 'success');
    if (failures.length === 0) {
      return { ...base, state: 'ok', title: `${d.name}’s receiver answers`, detail: `The last ${plural(mine.length, 'attempt')} succeeded (latest: ${outcomeOf(last)}).`, evidence: [attemptLink(last)] };
    }
    const failing = last.outcome !== 'success';
    return {
      ...base,
      state: failing ? 'problem' : 'warning',
      title: failing ? `${d.name}’s receiver is failing: ${outcomeOf(last)}` : `${d.name}’s receiver failed ${plural(failures.length, 'time')} recently`,
      detail: `${failures.length} of the last ${plural(mine.length, 'attempt')} failed${failing ? '' : '; the latest succeeded'}. ${failing && last.retryable ? 'Failed attempts are retried on the retry schedule.' : failing ? 'The latest failure is permanent: it is not retried.' : ''}`.trim(),
      evidence: failures.slice(0, MAX_EVIDENCE).map((a) => attemptLink(a)),
    };
  }

  private tlsCheck(d: Destination, mine: Attempt[]): DiagnosticCheck | null {
    const tls = mine.filter((a) => a.outcome === 'tls_error');
    const viaTls = d.webhooks.map((w) => parseReceiverRef(w.url)).find((r) => r?.tls);
    if (tls.length === 0) return null;
    const hint = viaTls
      ? `Use the mock receiver’s HTTP listener (receiver:${viaTls.name} instead of receiver+tls:${viaTls.name}), or give the destination a caFile with the receiver’s certificate.`
      : 'Give the destination a caFile with the CA that signed the receiver’s certificate (self-signed: the certificate itself).';
    return {
      id: `destination.tls:${d.id}`,
      section: 'not-delivered',
      rule: 'destination.tls',
      subject: d.name,
      state: 'problem',
      title: `TLS refused by ${d.name}: ${tlsCause(tls[0]!.error)}`,
      detail: `${plural(tls.length, 'attempt')} failed the TLS handshake${d.caFile ? ` (caFile ${d.caFile} is set)` : ''}. ${hint}`,
      evidence: [...tls.slice(0, MAX_EVIDENCE - 1).map((a) => attemptLink(a)), { kind: 'destination', label: `${d.name}: caFile`, destinationId: d.id }],
    };
  }

  private signatureCheck(d: Destination, mine: Attempt[], captures: CaptureRecord[]): DiagnosticCheck | null {
    // The mock receiver checked the signature: captures the engine linked to this destination's attempts,
    // and (captures from before that link) those whose X-Signature is one this destination sent.
    const deliveries = new Set(mine.map((a) => a.deliveryId));
    const linked = captures.filter((c) => c.attempt !== null && deliveries.has(c.attempt.deliveryId));
    const checks = receiverChecks(linked, {
      attempts: mine,
      deliveryOf: () => ({ destinationId: d.id, destinationName: d.name }),
      destination: (id) => (id === d.id ? d : undefined),
      receiverSecret: (name) => this.options.receiverSecret?.(name),
    }).filter((c) => c.verdict === 'invalid' || c.verdict === 'missing');
    const bySignature = new Map(mine.filter((a) => a.signature !== null).map((a) => [a.signature!, a]));
    const invalid: { capture: CaptureRecord; attempt: Attempt; explanation: string | null; fingerprints: string | null }[] = [];
    for (const check of checks) {
      const capture = linked.find((c) => c.id === check.captureId)!;
      const attempt = mine.find((a) => a.id === check.attemptId)!;
      const s = check.secrets;
      const fingerprints = s ? `Fingerprints (SHA-256, first 8 hex): destination ${s.destinationFingerprint ?? (check.verdict === 'missing' ? 'none' : 'changed since')}, receiver ${s.receiverFingerprint ?? 'changed since'}.${s.fixable ? ' Use one secret for both from the attempt’s Receiver’s verdict.' : ''}` : null;
      invalid.push({ capture, attempt, explanation: check.explanation, fingerprints });
    }
    for (const c of captures) {
      if (c.attempt !== null || c.signature?.verdict !== 'invalid' || c.signature.given === null) continue;
      const attempt = bySignature.get(c.signature.given.toLowerCase()) ?? bySignature.get(c.signature.given);
      if (attempt) invalid.push({ capture: c, attempt, explanation: c.signature.diagnosis?.explanation ?? null, fingerprints: null });
    }
    invalid.sort((a, b) => b.capture.id - a.capture.id);
    const base = { id: `destination.signature:${d.id}`, section: 'not-delivered' as const, rule: 'destination.signature', subject: d.name };
    if (invalid.length > 0) {
      const { capture, attempt, explanation, fingerprints } = invalid[0]!;
      return {
        ...base,
        state: 'problem',
        title: `The receiver found ${d.name}’s signature ${capture.signature?.verdict === 'missing' ? 'missing' : 'invalid'}`,
        detail: `${plural(invalid.length, 'request')} failed the receiver’s check. ${sentence(explanation ?? 'the receiver’s secret and the destination’s shared secret differ')}${fingerprints ? ` ${fingerprints}` : ''}`,
        evidence: [
          { kind: 'signature', label: `Signature panel of message #${attempt.messageId}, attempt ${attempt.attemptNumber}`, messageId: attempt.messageId, attemptId: attempt.id },
          { kind: 'capture', label: `Capture ${capture.id}${capture.receiver ? ` at ${capture.receiver}` : ''}`, receiver: capture.receiver, captureId: capture.id },
        ],
      };
    }
    // A receiver of ours that refused a signed request: the signature is the first suspect.
    const refused = mine.find((a) => a.signature !== null && (a.statusCode === 401 || a.statusCode === 403));
    if (refused && d.sharedSecret) {
      return {
        ...base,
        state: 'warning',
        title: `${d.name}’s receiver answered HTTP ${refused.statusCode} to a signed request`,
        detail: 'If it checks X-Signature, compare its secret with the destination’s shared secret in the Signature panel.',
        evidence: [{ kind: 'signature', label: `Signature panel of message #${refused.messageId}, attempt ${refused.attemptNumber}`, messageId: refused.messageId, attemptId: refused.id }],
      };
    }
    return null;
  }

  // ---------------------------------------------------------------- deliveries slow

  private slow(destinations: Destination[], attempts: Attempt[], overview: Overview): DiagnosticCheck[] {
    const section: DiagnosticSection = 'slow';
    const checks: DiagnosticCheck[] = [
      {
        id: 'forwarding.paused',
        section,
        rule: 'forwarding.paused',
        subject: null,
        state: overview.paused ? 'problem' : 'ok',
        title: overview.paused ? 'Forwarding is paused' : 'Forwarding is on',
        detail: overview.paused
          ? `Accepted messages wait, queued (${plural(overview.counts.queued, 'message')} now). Resume it with the Forwarding switch in the top bar.`
          : 'Accepted messages are sent as soon as they are routed.',
        evidence: overview.paused ? [{ kind: 'history', label: 'Queued messages', filter: { status: 'queued' } }] : [],
      },
      {
        id: 'deliveries.backlog',
        section,
        rule: 'deliveries.backlog',
        subject: null,
        state: overview.dueRetries > 0 ? 'warning' : 'ok',
        title:
          overview.retrying > 0
            ? `${plural(overview.retrying, 'delivery', 'deliveries')} waiting for a retry${overview.dueRetries ? `, ${overview.dueRetries.toLocaleString('en-US')} due now` : ''}`
            : 'No retry backlog',
        detail:
          overview.retrying > 0
            ? `${overview.nextDueAt === null ? 'The next retry has no set time.' : `The next retry ${dueWords(overview.nextDueAt, this.options.clock.now())}.`} ${overview.failedLastHour ? `${plural(overview.failedLastHour, 'delivery', 'deliveries')} failed for good in the last hour.` : ''}`.trim()
            : 'Every delivery is settled or on its first attempt.',
        evidence: overview.retrying > 0 ? [{ kind: 'history', label: 'Retrying messages', filter: { status: 'retrying' } }] : [],
      },
    ];
    for (const d of destinations) {
      const mine = attempts.filter((a) => a.destinationId === d.id);
      if (mine.length === 0) continue;
      const timeouts = mine.filter((a) => a.outcome === 'timeout');
      const close = mine.filter((a) => a.outcome === 'success' && a.durationMs >= d.timeoutMs * 0.8);
      // Severity by rate: a few timeouts among many answers are worth a look, not an alarm.
      const rate = timeouts.length / mine.length;
      checks.push({
        id: `deliveries.timeouts:${d.id}`,
        section,
        rule: 'deliveries.timeouts',
        subject: d.name,
        state: rate >= PROBLEM_RATE ? 'problem' : timeouts.length || close.length ? 'warning' : 'ok',
        title: timeouts.length
          ? `${timeouts.length.toLocaleString('en-US')} of the last ${plural(mine.length, 'attempt')} to ${d.name} timed out after ${seconds(d.timeoutMs)} (${percent(rate)})`
          : close.length
            ? `${plural(close.length, 'attempt')} to ${d.name} took close to its ${seconds(d.timeoutMs)} timeout`
            : `${d.name} answers within its ${seconds(d.timeoutMs)} timeout`,
        detail:
          timeouts.length || close.length
            ? `Make the receiver answer sooner (queue the work, answer 2xx at once), or raise the destination’s timeout (timeoutMs ${d.timeoutMs}).`
            : `Slowest of the last ${plural(mine.length, 'attempt')}: ${Math.round(Math.max(...mine.map((a) => a.durationMs)))} ms.`,
        evidence: [...timeouts, ...close].slice(0, MAX_EVIDENCE).map((a) => attemptLink(a)),
      });
      const waits = mine.filter((a) => a.responseHeaders && Object.keys(a.responseHeaders).some((h) => h.toLowerCase() === 'retry-after'));
      if (waits.length) {
        const header = (a: Attempt) => Object.entries(a.responseHeaders ?? {}).find(([h]) => h.toLowerCase() === 'retry-after')?.[1] ?? '';
        checks.push({
          id: `deliveries.retryAfter:${d.id}`,
          section,
          rule: 'deliveries.retryAfter',
          subject: d.name,
          state: 'warning',
          title: `${d.name}’s receiver asked to wait: Retry-After ${header(waits[0]!)}`,
          detail: `${plural(waits.length, 'answer')} carried Retry-After; the engine waits that long before the next retry when it is longer than the schedule’s delay.`,
          evidence: waits.slice(0, MAX_EVIDENCE).map((a) => attemptLink(a)),
        });
      }
    }
    return checks;
  }
}

/** At this share of recent attempts or more, a kind of failure is a problem; below it, a warning. */
const PROBLEM_RATE = 0.2;

function percent(rate: number): string {
  const p = rate * 100;
  return `${p < 10 ? p.toFixed(1).replace(/\.0$/, '') : Math.round(p)} %`;
}

/**
 * An attempt's TLS error as its cause alone: `tls: self-signed certificate: self-signed certificate; if the
 * root CA is installed locally, …` → `self-signed certificate` (the engine's reason, domain/outcome.ts, comes
 * first; Node's own message after it repeats it, with advice that does not apply here).
 */
export function tlsCause(error: string | null): string {
  if (!error) return 'certificate not trusted';
  return error.replace(/^tls:\s*/, '').split(/:\s+|;\s+/)[0]!;
}

/** What to do about a refused ingestion request, by its reason (the ingest log's code). */
export function refusalAdvice(r: Pick<IngestRefusal, 'httpStatus' | 'code' | 'field' | 'limit'>): string {
  switch (r.code) {
    case 'unauthorized':
      return 'Copy the write key from Sources into the SDK’s configuration.';
    case 'invalid_json':
      return 'The body is not JSON: check what the sender writes (a body cut short, a form encoding, a proxy rewriting it); the ingest log keeps its first 4 KiB.';
    case 'message_too_large':
      return `Send smaller messages: one message is at most ${(r.limit ?? 32_768).toLocaleString('en-US')} bytes of JSON.`;
    case 'request_too_large':
      return `Send smaller batches: one request is at most ${(r.limit ?? 512_000).toLocaleString('en-US')} bytes (SDKs split at 500 KiB).`;
    case 'unknown_type':
      return 'Use one of the message types identify, track, page, screen, group or alias.';
    case 'invalid_input':
      return `Fix the call${r.field ? ` at ${r.field}` : ''}: the whole request is refused when one of its calls is.`;
    default:
      return r.httpStatus === 401 ? 'Copy the write key from Sources into the SDK’s configuration.' : 'The ingest log has the request and its reason.';
  }
}

/** A clause as a sentence: capital first letter, full stop. */
function sentence(text: string): string {
  const t = text.trim();
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
}

function refusalLink(r: IngestRefusal): Evidence {
  return { kind: 'ingestLog', label: `Refused #${r.id}: HTTP ${r.httpStatus} ${r.code}${r.field ? ` (${r.field})` : ''}`, refusalId: r.id };
}

/** When an attempt falls due, in words relative to engine time: "falls due in 4 min 12 s (engine time)". */
function dueWords(at: number, now: number): string {
  return at - now <= 500 ? 'is due now' : `falls due in ${spanWords(at - now)} (engine time)`;
}
