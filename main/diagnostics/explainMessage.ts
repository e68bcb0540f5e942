/**
 * Why? (explainMessage): the checklist's rules applied to one message, per destination: the destinations it
 * was routed to with what their delivery met, then every other destination with the routing rule that kept
 * the message from it (judged by the destinations as they are now).
 */
import type { DestinationExplanation, Evidence, MessageExplanation, WhyReason } from '../contract/diagnostics.js';
import { listWords, pastWindowClause, recordTriesWords, severalWebhooks } from '../contract/message/deliveryWords.js';
import { REASONS, type AttemptRecord, type DeliveryRecord } from '../contract/deliveries.js';
import { destinationOwner, type Destination } from '../contract/destinations.js';
import type { MessageDetail } from '../contract/messages.js';
import type { ReceiverCheck } from '../contract/receiver/receiver.js';
import { eventFilterAllows, integrationsAllow } from '../contract/message/routing.js';
import { attemptLink, attemptName, dueWords, outcomeOf, tlsCause } from './words.js';

/**
 * Why one message was or was not delivered, per destination: the destinations it was routed to with what
 * their delivery met, then every other destination with the routing rule that kept the message from it
 * (judged by the destinations as they are now).
 */
export function explainMessage(detail: MessageDetail, sources: Map<string, string>, destinations: Destination[], now: number): MessageExplanation {
  const m = detail.message;
  const out: DestinationExplanation[] = [];
  for (const delivery of detail.deliveries) {
    const d = destinations.find((x) => x.id === delivery.destinationId);
    out.push(explainDelivery(detail, delivery, d, now));
  }
  const routed = new Set(detail.deliveries.map((d) => d.destinationId));
  for (const d of destinations) {
    if (routed.has(d.id) || destinationOwner(d.name) !== 'user') continue;
    const reasons: WhyReason[] = [];
    const link: Evidence = { kind: 'destination', label: d.name, destinationId: d.id };
    const source = m.sourceId === null ? null : (sources.get(m.sourceId) ?? m.sourceId);
    if (m.statusReason === REASONS.duplicateMessageId) {
      reasons.push({ rule: 'message.duplicate', state: 'problem', text: `the message was a duplicate (its messageId was seen within 24 h), so it went nowhere`, evidence: [] });
    } else if (m.sourceId === null) {
      // Sent on purpose to others: nothing about this destination went wrong.
      out.push({ destinationId: d.id, destinationName: d.name, outcome: 'not sent to it', status: null, reasons: [{ rule: 'destination.sources', state: 'ok', text: `the message was sent to named destinations only, and ${d.name} was not among them`, evidence: [link] }] });
      continue;
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
  return { messageId: m.id, destinations: out };
}

function explainDelivery(detail: MessageDetail, delivery: DeliveryRecord, d: Destination | undefined, now: number): DestinationExplanation {
  const attempts = detail.attempts.filter((a) => a.deliveryId === delivery.id).sort((a, b) => b.id - a.id);
  const last = attempts[0];
  const reasons: WhyReason[] = [];
  const name = delivery.destinationName;
  const several = severalWebhooks(attempts);
  const link = (a: AttemptRecord) => attemptLink(a, several);
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
      reasons.push({ rule: 'delivery.delivered', state: 'ok', text: `delivered after ${recordTriesWords(delivery, attempts)}${ok ? ` (${outcomeOf(ok)})` : ''}`, evidence: ok ? [link(ok)] : [] });
      if (refused) reasons.unshift(signatureReason(refused, 'warning'));
      return { ...base, outcome: 'delivered', reasons };
    }
    case 'failed': {
      const why = delivery.reason ?? 'failed';
      if (why === REASONS.windowExhausted) {
        const past = pastWindowClause(delivery, severalWebhooks(attempts));
        reasons.push({ rule: 'retry.window', state: 'problem', text: `retry window exhausted after ${recordTriesWords(delivery, attempts)}${past ? `: ${past}` : ''}`, evidence: [] });
        if (last) reasons.push(lastFailure(name, last, several));
      } else if (last?.outcome === 'tls_error') {
        reasons.push({ rule: 'destination.tls', state: 'problem', text: `TLS refused by ${name}: ${tlsCause(last.error)}; no request was sent`, evidence: [link(last)] });
      } else if (last) {
        const failure = lastFailure(name, last, several);
        reasons.push({ ...failure, text: `${why}: ${failure.text}` });
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
      // A destination that is off holds its deliveries: no attempt is due, whatever the row's due time says.
      const held = d && (d.webhooks.length === 0 ? `${name} has no webhook URL: add one, then turn it on` : !d.enabled ? `${name} is disabled: its retries are held until it is enabled` : null);
      if (held) reasons.push({ rule: 'destination.enabled', state: 'problem', text: held, evidence: [{ kind: 'destination', label: name, destinationId: d.id }] });
      for (const failure of webhookFailures(attempts)) reasons.push(lastFailure(name, failure[0]!, several, failure));
      if (refused) reasons.push(signatureReason(refused, 'problem'));
      reasons.push({
        rule: 'delivery.waiting',
        state: 'warning',
        text:
          held && delivery.status !== 'delivering'
            ? `${delivery.status}: held until ${name} is turned on`
            : delivery.nextAttemptAt !== null
              ? `${delivery.status}: the next attempt ${dueWords(delivery.nextAttemptAt, now)}`
              : delivery.status === 'delivering'
                ? 'an attempt is in flight'
                : `${delivery.status}`,
        evidence: [],
      });
      return { ...base, outcome: 'waiting', reasons };
    }
  }
}

/**
 * Each webhook's newest attempt that failed, those alike (one round, one outcome) together: a waiting delivery
 * with several webhooks is held back by each of them (a 500 on webhook 2, a refused connection on webhook 3, a
 * 410 on webhook 1 that is no longer sent to), and its newest attempt alone named one. Newest round first, then by webhook.
 */
function webhookFailures(newestFirst: AttemptRecord[]): AttemptRecord[][] {
  const newest = new Map<number, AttemptRecord>();
  for (const a of newestFirst) if (!newest.has(a.webhookIndex)) newest.set(a.webhookIndex, a);
  const groups = new Map<string, AttemptRecord[]>();
  for (const a of [...newest.values()].sort((x, y) => x.webhookIndex - y.webhookIndex)) {
    if (a.outcome === 'success') continue;
    const key = `${a.attemptNumber} ${a.outcome} ${outcomeOf(a)}`;
    groups.set(key, [...(groups.get(key) ?? []), a]);
  }
  return [...groups.values()].sort((x, y) => y[0]!.attemptNumber - x[0]!.attemptNumber || x[0]!.webhookIndex - y[0]!.webhookIndex);
}

/** `alike`: the attempts of one round that failed as `a` did, on other webhooks ("attempt 3, webhooks 2 and 3"). */
function lastFailure(name: string, a: AttemptRecord, several: boolean, alike: AttemptRecord[] = [a]): WhyReason {
  const which = alike.length > 1 ? `attempt ${a.attemptNumber}, webhooks ${listWords(alike.map((x) => String(x.webhookIndex + 1)))}` : attemptName(a, several);
  const what =
    a.outcome === 'timeout'
      ? `no response headers within the timeout (${which})`
      : a.outcome === 'tls_error'
        ? `TLS refused: ${tlsCause(a.error)}`
        : a.outcome === 'network_error'
          ? `${name}’s endpoint could not be reached: ${a.error ?? 'network error'} (${which})`
          : `${name}’s endpoint answered ${outcomeOf(a)} (${which})`;
  return { rule: a.outcome === 'tls_error' ? 'destination.tls' : a.outcome === 'timeout' ? 'deliveries.timeouts' : 'destination.failing', state: 'problem', text: what, evidence: alike.map((x) => attemptLink(x, several)) };
}
