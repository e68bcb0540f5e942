/**
 * The Destinations screens' pure parts: the form a destination is edited in and the input it becomes,
 * where a server error belongs in the form, and the event filters' preview over recent messages (with the
 * engine's own rule from main/contract/routing.ts).
 */
import { LIMITS } from '../../../../main/contract/messageShapes';
import type { Destination, EventFilters, MessageSummary } from '../../../../main/contract/models';
import { eventFilterAllows } from '../../../../main/contract/routing';

export const MAX_WEBHOOKS = LIMITS.webhooksPerDestination;
export const MAX_HEADERS = LIMITS.headersPerWebhook;

export interface HeaderRow {
  name: string;
  value: string;
}

export interface WebhookRow {
  url: string;
  headers: HeaderRow[];
}

export function webhookRows(destination: Pick<Destination, 'webhooks'> | null): WebhookRow[] {
  if (!destination || destination.webhooks.length === 0) return [{ url: '', headers: [] }];
  return destination.webhooks.map((w) => ({ url: w.url, headers: Object.entries(w.headers).map(([name, value]) => ({ name, value })) }));
}

/** The webhooks as the API takes them: rows without a URL left out, headers without a name too. */
export function webhooksInput(rows: readonly WebhookRow[]): { url: string; headers: Record<string, string> }[] {
  return rows
    .filter((r) => r.url.trim() !== '' || r.headers.some((h) => h.name.trim() !== ''))
    .map((r) => ({ url: r.url.trim(), headers: Object.fromEntries(r.headers.filter((h) => h.name.trim() !== '').map((h) => [h.name.trim(), h.value])) }));
}

/** Why "Add webhook" / "Add header" is disabled, or null. */
export function webhookLimitReason(count: number): string | null {
  return count >= MAX_WEBHOOKS ? `A destination has at most ${MAX_WEBHOOKS} webhook URLs (${count} of ${MAX_WEBHOOKS})` : null;
}
export function headerLimitReason(count: number): string | null {
  return count >= MAX_HEADERS ? `A webhook has at most ${MAX_HEADERS} static headers (${count} of ${MAX_HEADERS})` : null;
}

/**
 * Where a server error's field belongs in the form: `patch.webhooks[1].headers.X-Env` → `webhooks[1].headers`,
 * `webhooks[5]` (one too many) → `webhooks`, `sources[0]` → `sources`, `retry.schedule[2]` → `retry.schedule`.
 * Null when the form has no place for it (the error is then a notice).
 */
export function formSlot(field: string | undefined): string | null {
  if (!field) return null;
  const f = field.replace(/^patch\./, '');
  const webhook = /^webhooks\[(\d+)\](?:\.(url|headers))?/.exec(f);
  if (webhook) {
    const i = Number(webhook[1]);
    if (i >= MAX_WEBHOOKS) return 'webhooks';
    return webhook[2] ? `webhooks[${i}].${webhook[2]}` : `webhooks[${i}].url`;
  }
  if (/^webhooks$|^url$/.test(f)) return 'webhooks';
  const top = /^(name|enabled|sources|sharedSecret|caFile|timeoutMs|retry\.(?:schedule|windowMs|jitter|maxAttempts)|filters\.(?:allowEvents|blockEvents))(?:$|[[.])/.exec(f);
  if (top) return top[1]!;
  if (f === 'retry') return 'retry.schedule';
  if (f === 'filters') return 'filters.blockEvents';
  return null;
}

/** One event name per line (or comma), trimmed, without blanks or repeats. */
export function eventList(text: string): string[] {
  return [...new Set(text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean))];
}

export interface FilterPreview {
  /** Messages looked at (the newest, at most 1,000). */
  looked: number;
  /** Of those, the ones this destination receives or would (from its sources, or sent to it). */
  relevant: number;
  /** What the given filters would drop, by event, most first. */
  dropped: { event: string; count: number; reason: string }[];
  droppedTotal: number;
  /** What the destination's current filters drop of the same messages. */
  droppedNow: number;
}

/**
 * What event filters would have dropped among recent messages: those from the destination's sources (or
 * that had a delivery to it), checked with the engine's own rule (eventFilterAllows). Integrations and
 * the enabled switch are not part of it: they do not change with the filters.
 */
export function previewFilters(destination: Pick<Destination, 'id' | 'name' | 'sourceIds' | 'filters'>, filters: EventFilters, messages: readonly MessageSummary[]): FilterPreview {
  const relevant = messages.filter((m) => (m.sourceId !== null && destination.sourceIds.includes(m.sourceId)) || m.destinationIds.includes(destination.id));
  const byEvent = new Map<string, { count: number; reason: string }>();
  let droppedNow = 0;
  for (const m of relevant) {
    if (eventFilterAllows(destination, m.type, m.event) !== null) droppedNow++;
    const reason = eventFilterAllows({ name: destination.name, filters }, m.type, m.event);
    if (reason === null) continue;
    const key = m.event ?? '';
    const entry = byEvent.get(key) ?? { count: 0, reason };
    entry.count++;
    byEvent.set(key, entry);
  }
  const dropped = [...byEvent.entries()].map(([event, v]) => ({ event, ...v })).sort((a, b) => b.count - a.count || a.event.localeCompare(b.event));
  return { looked: messages.length, relevant: relevant.length, dropped, droppedTotal: dropped.reduce((n, d) => n + d.count, 0), droppedNow };
}

/** A destination name not taken yet: `Webhooks`, `Webhooks 2`, ... */
export function freeName(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base;
  for (let i = 2; ; i++) if (!taken.includes(`${base} ${i}`)) return `${base} ${i}`;
}
