/**
 * The checklist's second section, received but not delivered: per destination, whether it is enabled, its
 * sources, what routing filtered out of it, its receiver's failures, TLS, and the signature.
 */
import type { DiagnosticCheck, DiagnosticSection, Evidence } from '../contract/diagnostics.js';
import type { Destination } from '../contract/destinations.js';
import type { Source } from '../contract/sources.js';
import { parseReceiverRef, type CaptureRecord } from '../contract/receiver/receiver.js';
import { eventFilterAllows, integrationsAllow } from '../contract/message/routing.js';
import { receiverChecks } from '../domain/receiverVerdict.js';
import type { RecentMessage } from './diagnosticsQueries.js';
import { listWords, severalWebhooks } from '../contract/message/deliveryWords.js';
import { attemptLink, MAX_EVIDENCE, outcomeOf, plural, sentence, tlsCause, type Attempt } from './words.js';

export function notDelivered(
  sources: Source[],
  destinations: Destination[],
  messages: RecentMessage[],
  attempts: Attempt[],
  captures: CaptureRecord[],
  receiverSecret: (name: string) => string | null | undefined,
): DiagnosticCheck[] {
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
    checks.push(enabledCheck(d, missed));
    checks.push(sourcesCheck(d, messages, sourceName));
    checks.push(filteredCheck(d, missed));
    checks.push(failingCheck(d, mine));
    const tls = tlsCheck(d, mine);
    if (tls) checks.push(tls);
    const signature = signatureCheck(d, mine, captures, receiverSecret);
    if (signature) checks.push(signature);
  }
  return checks;
}

function enabledCheck(d: Destination, allMissed: RecentMessage[]): DiagnosticCheck {
  // Went without it because it is off: not the ones its integrations or event filters keep from it anyway
  // (filteredCheck names those).
  const missed = allMissed.filter((m) => !(integrationsAllow(m.integrations, d.name) ?? eventFilterAllows(d, m.type, m.event)));
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

function sourcesCheck(d: Destination, messages: RecentMessage[], sourceName: Map<string, string>): DiagnosticCheck {
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

function filteredCheck(d: Destination, missed: RecentMessage[]): DiagnosticCheck {
  // Why routing (main/contract/message/routing.ts) kept each missed message from this destination. The allow
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

/**
 * The webhooks of the newest round's delivery that are no longer in its rounds, their last attempt having
 * failed for good (a 410 beside a retried 500): without them "failed attempts are retried" reads as if every
 * webhook were. Empty when none was dropped.
 */
function droppedWords(all: Attempt[], round: Attempt[]): string {
  const inRound = new Set(round.map((a) => a.webhookIndex));
  const newest = new Map<number, Attempt>();
  for (const a of all) if (a.deliveryId === round[0]!.deliveryId && !newest.has(a.webhookIndex)) newest.set(a.webhookIndex, a);
  const dropped = [...newest.values()].filter((a) => !inRound.has(a.webhookIndex) && a.outcome !== 'success' && !a.retryable).sort((a, b) => a.webhookIndex - b.webhookIndex);
  if (dropped.length === 0) return '';
  const each = dropped.map((a) => `webhook ${a.webhookIndex + 1} (${a.statusCode !== null ? `HTTP ${a.statusCode}` : a.outcome === 'tls_error' ? 'TLS refused' : a.outcome.replace('_', ' ')})`);
  return `, except ${listWords(each)}: ${dropped.length === 1 ? 'it' : 'they'} failed for good and ${dropped.length === 1 ? 'is' : 'are'} no longer sent to`;
}

function failingCheck(d: Destination, all: Attempt[]): DiagnosticCheck {
  const base = { id: `destination.failing:${d.id}`, section: 'not-delivered' as const, rule: 'destination.failing', subject: d.name };
  // One finding per cause: an attempt refused at the TLS handshake never reached the receiver, and the TLS
  // finding reports it.
  const mine = all.filter((a) => a.outcome !== 'tls_error');
  const last = mine[0];
  const several = severalWebhooks(all);
  if (!last && all.length > 0) {
    return { ...base, state: 'idle', title: `No request reached ${d.name}’s endpoint`, detail: 'Every recent attempt was refused at the TLS handshake, before a request (see the TLS finding).', evidence: [] };
  }
  if (!last) return { ...base, state: 'idle', title: `No attempt to ${d.name} yet`, detail: 'Nothing has been sent to it among the recent attempts.', evidence: [] };
  const failures = mine.filter((a) => a.outcome !== 'success');
  if (failures.length === 0) {
    return { ...base, state: 'ok', title: `${d.name}’s endpoint answers`, detail: `The last ${plural(mine.length, 'attempt')} succeeded (latest: ${outcomeOf(last)}).`, evidence: [attemptLink(last, several)] };
  }
  // Judged by the newest round, not its newest attempt: with several webhooks one 2xx delivers the message,
  // and a webhook failing beside it (often the slowest, so recorded last) is not retried.
  const round = all.filter((a) => a.deliveryId === last.deliveryId && a.attemptNumber === last.attemptNumber);
  const delivering = round.find((a) => a.outcome === 'success');
  const failing = delivering === undefined;
  const latest = failing ? '' : several ? `; the latest round was delivered by webhook ${delivering.webhookIndex + 1}` : '; the latest succeeded';
  const retried = round.some((a) => a.outcome !== 'success' && a.retryable);
  const after = !failing
    ? several
      ? 'Webhooks that fail beside a 2xx are not retried: one success delivers the message.'
      : ''
    : retried
      ? `Failed attempts are retried on the retry schedule${droppedWords(all, round)}.`
      : 'The latest failure is permanent: it is not retried.';
  return {
    ...base,
    state: failing ? 'problem' : 'warning',
    title: failing ? `${d.name}’s endpoint is failing: ${outcomeOf(last)}` : `${d.name}’s endpoint failed ${plural(failures.length, 'time')} recently`,
    detail: `${failures.length} of the last ${plural(mine.length, 'attempt')} failed${latest}. ${after}`.trim(),
    evidence: failures.slice(0, MAX_EVIDENCE).map((a) => attemptLink(a, several)),
  };
}

function tlsCheck(d: Destination, mine: Attempt[]): DiagnosticCheck | null {
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
    evidence: [...tls.slice(0, MAX_EVIDENCE - 1).map((a) => attemptLink(a, severalWebhooks(mine))), { kind: 'destination', label: `${d.name}: caFile`, destinationId: d.id }],
  };
}

function signatureCheck(d: Destination, mine: Attempt[], captures: CaptureRecord[], receiverSecret: (name: string) => string | null | undefined): DiagnosticCheck | null {
  // The mock receiver checked the signature: captures the engine linked to this destination's attempts,
  // and (captures from before that link) those whose X-Signature is one this destination sent.
  const deliveries = new Set(mine.map((a) => a.deliveryId));
  const linked = captures.filter((c) => c.attempt !== null && deliveries.has(c.attempt.deliveryId));
  const verdicts = receiverChecks(linked, {
    attempts: mine,
    deliveryOf: () => ({ destinationId: d.id, destinationName: d.name }),
    destination: (id) => (id === d.id ? d : undefined),
    receiverSecret,
  });
  const checks = verdicts.filter((c) => c.verdict === 'invalid' || c.verdict === 'missing');
  // Captures are numbered as they arrive: the newest the receiver found valid.
  const newestValid = Math.max(0, ...verdicts.filter((c) => c.verdict === 'valid').map((c) => c.captureId));
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
  if (invalid.length > 0 && newestValid > invalid[0]!.capture.id) {
    // Fixed since: what the receiver checks now is what counts; the failures before stay as history.
    return {
      ...base,
      state: 'ok',
      title: `The receiver finds ${d.name}’s signature valid`,
      detail: `Its newest request passed the receiver’s check (capture ${newestValid}); ${plural(invalid.length, 'earlier request')} failed it.`,
      evidence: linked.filter((c) => c.id === newestValid).map((c) => ({ kind: 'capture' as const, label: `Capture ${c.id}${c.receiver ? ` at ${c.receiver}` : ''}`, receiver: c.receiver, captureId: c.id })),
    };
  }
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
  const refusedAt = mine.findIndex((a) => a.signature !== null && (a.statusCode === 401 || a.statusCode === 403));
  const refused = refusedAt >= 0 ? mine[refusedAt] : undefined;
  // Attempts are newest first: a success after the refusal means it was fixed since.
  const acceptedSince = mine.slice(0, Math.max(0, refusedAt)).some((a) => a.outcome === 'success');
  if (refused && d.sharedSecret && !acceptedSince) {
    return {
      ...base,
      state: 'warning',
      title: `${d.name}’s endpoint answered HTTP ${refused.statusCode} to a signed request`,
      detail: 'If it checks X-Signature, compare its secret with the destination’s shared secret in the Signature panel.',
      evidence: [{ kind: 'signature', label: `Signature panel of message #${refused.messageId}, attempt ${refused.attemptNumber}`, messageId: refused.messageId, attemptId: refused.id }],
    };
  }
  return null;
}
