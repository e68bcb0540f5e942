/**
 * The checklist's third section, deliveries slow: forwarding paused, the retry backlog, and per destination
 * its timeouts and the receiver's requests to wait (Retry-After).
 */
import type { DiagnosticCheck, DiagnosticSection } from '../contract/diagnostics.js';
import type { Destination } from '../contract/destinations.js';
import type { Overview } from '../contract/overview.js';
import { severalWebhooks } from '../contract/message/deliveryWords.js';
import { attemptLink, dueWords, MAX_EVIDENCE, percent, plural, PROBLEM_RATE, seconds, type Attempt } from './words.js';

export function slow(destinations: Destination[], attempts: Attempt[], overview: Overview, now: number): DiagnosticCheck[] {
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
          ? `${overview.nextDueAt === null ? 'The next retry has no set time.' : `The next retry ${dueWords(overview.nextDueAt, now)}.`} ${overview.failedLastHour ? `${plural(overview.failedLastHour, 'delivery', 'deliveries')} failed for good in the last hour.` : ''}`.trim()
          : 'Every delivery is settled or on its first attempt.',
      evidence: overview.retrying > 0 ? [{ kind: 'history', label: 'Retrying messages', filter: { status: 'retrying' } }] : [],
    },
  ];
  for (const d of destinations) {
    const mine = attempts.filter((a) => a.destinationId === d.id);
    if (mine.length === 0) continue;
    const several = severalWebhooks(mine);
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
      evidence: [...timeouts, ...close].slice(0, MAX_EVIDENCE).map((a) => attemptLink(a, several)),
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
        title: `${d.name}’s endpoint asked to wait: Retry-After ${header(waits[0]!)}`,
        detail: `${plural(waits.length, 'answer')} carried Retry-After; the engine waits that long before the next retry when it is longer than the schedule’s delay.`,
        evidence: waits.slice(0, MAX_EVIDENCE).map((a) => attemptLink(a, several)),
      });
    }
  }
  return checks;
}
