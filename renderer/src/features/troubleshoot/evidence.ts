/**
 * Where a piece of the checklist's evidence opens (pure: unit-tested). Messages and attempts open in Live's
 * detail pane (an attempt shows its Signature panel); History links carry their filter; refused requests
 * open in Sources' ingest log.
 */
import type { CheckState, DiagnosticCheck, Evidence } from '../../../../main/contract/diagnostics';
import { formatHash, parseHash } from '../../stores/router';

export function evidenceHash(e: Evidence): string | null {
  const base = parseHash('');
  switch (e.kind) {
    case 'message':
    case 'signature':
      return formatHash({ ...base, view: 'live', messageId: e.messageId, attemptId: e.attemptId ?? null });
    case 'destination':
      return formatHash({ ...base, view: 'destinations', sub: [e.destinationId] });
    case 'source':
      return formatHash({ ...base, view: 'sources', sub: [e.sourceId] });
    case 'ingestLog':
      return formatHash({ ...base, view: 'sources', query: { refusal: String(e.refusalId) } });
    case 'history':
      return formatHash({ ...base, view: 'history', query: Object.fromEntries(Object.entries(e.filter).filter(([, v]) => v !== undefined)) as Record<string, string> });
    case 'capture':
      return formatHash({ ...base, view: 'receiver', receiver: e.receiver, captureId: e.receiver === null ? null : e.captureId });
    case 'url':
      return null;
  }
}

const ORDER: Record<CheckState, number> = { problem: 0, warning: 1, idle: 2, ok: 3 };

/** Problems first, then warnings, then the rest, keeping the server's order within each. */
export function byUrgency(checks: readonly DiagnosticCheck[]): DiagnosticCheck[] {
  return checks
    .map((c, i) => ({ c, i }))
    .sort((a, b) => ORDER[a.c.state] - ORDER[b.c.state] || a.i - b.i)
    .map(({ c }) => c);
}

export function countStates(checks: readonly DiagnosticCheck[]): Record<CheckState, number> {
  const counts: Record<CheckState, number> = { problem: 0, warning: 0, ok: 0, idle: 0 };
  for (const c of checks) counts[c.state]++;
  return counts;
}

const WORST: CheckState[] = ['problem', 'warning', 'idle', 'ok'];

/**
 * Checks of one section grouped by what they are about: the workbench-wide ones (subject null) first, then
 * one group per source or destination, those with problems first.
 */
export function groupBySubject(checks: readonly DiagnosticCheck[]): { subject: string | null; checks: DiagnosticCheck[] }[] {
  const groups = new Map<string | null, DiagnosticCheck[]>();
  for (const c of checks) groups.set(c.subject, [...(groups.get(c.subject) ?? []), c]);
  const rank = (list: DiagnosticCheck[]) => Math.min(...list.map((c) => WORST.indexOf(c.state)));
  return [...groups]
    .map(([subject, list], i) => ({ subject, checks: byUrgency(list), i, rank: subject === null ? -1 : rank(list) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map(({ subject, checks: list }) => ({ subject, checks: list }));
}
