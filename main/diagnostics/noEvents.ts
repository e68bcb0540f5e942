/**
 * The checklist's first section, no events from a source: where SDKs send, the calls each write key
 * brought, and the requests refused for their write key or their body.
 */
import type { DiagnosticCheck, DiagnosticSection } from '../contract/diagnostics.js';
import type { IngestRefusal, Source } from '../contract/sources.js';
import { MAX_EVIDENCE, plural, refusalAdvice, refusalLink } from './words.js';

/** What a source's write key brought (the ingest log's usage counters). */
export interface SourceUsage {
  received: number;
  accepted: number;
  refused: number;
  filtered: number;
}

export function noEvents(sources: Source[], refusals: IngestRefusal[], ingestUrl: string | null, usageOf: (sourceId: string) => SourceUsage): DiagnosticCheck[] {
  const section: DiagnosticSection = 'no-events';
  const checks: DiagnosticCheck[] = [];
  const usage = new Map(sources.map((s) => [s.id, usageOf(s.id)]));
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
        // A request refused before its calls could be read counts no call: requests, when the log has them.
        title: mine.length > 0 ? `${plural(mine.length, 'request')} of ${source.name} refused${u.refused > 0 ? ` (${plural(u.refused, 'call')} in all)` : ''}` : `${plural(u.refused, 'call')} of ${source.name} refused`,
        detail: last ? `Latest: HTTP ${last.httpStatus} ${last.code}: ${last.message}. ${refusalAdvice(last)}` : 'The ingest log has the reasons.',
        evidence: mine.slice(0, MAX_EVIDENCE).map(refusalLink),
      });
    }
  }
  // Refused before a source could be told: a write key problem (401), or a request that named none Hookbench knows
  // (the write key of a request with Basic auth is read before its body, so its refusals are its source's).
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
      title: `${plural(unread.length, 'request')} refused without a write key of a source: ${first.code}`,
      detail: `Latest: HTTP ${first.httpStatus} ${first.code}: ${first.message}. ${refusalAdvice(first)}`,
      evidence: unread.slice(0, MAX_EVIDENCE).map(refusalLink),
    });
  }
  return checks;
}
