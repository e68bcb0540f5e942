/**
 * The checklist's words and links, shared by its checks and by Why? (explainMessage): counts, durations,
 * an attempt's outcome, links to the evidence, advice on a refused request.
 */
import type { Evidence } from '../contract/diagnostics.js';
import { spanWords } from '../contract/message/deliveryWords.js';
import type { AttemptRecord } from '../contract/deliveries.js';
import type { IngestRefusal } from '../contract/sources.js';

/** Links per check: enough to open the evidence, few enough to read. */
export const MAX_EVIDENCE = 3;
/** At this share of recent attempts or more, a kind of failure is a problem; below it, a warning. */
export const PROBLEM_RATE = 0.2;

/** An attempt with the destination it went to. */
export type Attempt = AttemptRecord & { destinationId: string };

export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
export const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);
export const outcomeOf = (a: AttemptRecord) => (a.statusCode !== null ? `HTTP ${a.statusCode}` : a.outcome === 'tls_error' ? `TLS refused, ${tlsCause(a.error)}` : (a.error ?? a.outcome));
/**
 * An attempt by its round's number, and its webhook's when the destination's attempts went to several (their
 * links would otherwise read alike: three "attempt 4" links of one round).
 */
export const attemptName = (a: Pick<AttemptRecord, 'attemptNumber' | 'webhookIndex'>, several: boolean) => `attempt ${a.attemptNumber}${several ? `, webhook ${a.webhookIndex + 1}` : ''}`;
export const attemptLink = (a: AttemptRecord, several: boolean): Evidence => ({
  kind: 'message',
  label: `Message #${a.messageId}, ${attemptName(a, several)}: ${outcomeOf(a)}`,
  messageId: a.messageId,
  attemptId: a.id,
});

export function percent(rate: number): string {
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
export function sentence(text: string): string {
  const t = text.trim();
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
}

export function refusalLink(r: IngestRefusal): Evidence {
  return { kind: 'ingestLog', label: `Refused #${r.id}: HTTP ${r.httpStatus} ${r.code}${r.field ? ` (${r.field})` : ''}`, refusalId: r.id };
}

/** When an attempt falls due, in words relative to engine time: "falls due in 4 min 12 s (engine time)". */
export function dueWords(at: number, now: number): string {
  return at - now <= 500 ? 'is due now' : `falls due in ${spanWords(at - now)} (engine time)`;
}
