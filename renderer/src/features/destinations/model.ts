/**
 * The Destinations screens' pure parts: the webhook rows a destination is edited in and the input they
 * become, where an API field belongs in the form and how the form labels it (destinationForm.ts checks the
 * whole form with them), and the event filters' preview over recent messages (with the engine's own rule
 * from main/contract/message/routing.ts).
 */
import { LIMITS } from '../../../../main/contract/message/messageShapes';
import type { RoutingInputs } from '../../../../main/contract/diagnostics';
import type { Destination, EventFilters } from '../../../../main/contract/destinations';
import { eventFilterAllows, integrationsAllow } from '../../../../main/contract/message/routing';

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

/** The webhooks as the API takes them: rows without a URL left out, headers without a name too (the form names those with a value). */
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
  /** Of those, the ones this destination receives or would: from its sources, and routed to it by their integrations. */
  relevant: number;
  /** From its sources, but kept from it by their integrations (they never reach its filters). */
  skipped: number;
  /** What the given filters would drop, by event, most first. */
  dropped: { event: string; count: number; reason: string }[];
  droppedTotal: number;
  /** What the destination's current filters drop of the same messages. */
  droppedNow: number;
}

/**
 * What event filters would have dropped among recent messages (listRoutingInputs): those from the
 * destination's sources whose integrations route them to it, checked with the engine's own rules
 * (routing.ts). A message its integrations keep from the destination never reaches the filters; the
 * enabled switch is not part of it: it does not change with the filters.
 */
export function previewFilters(destination: Pick<Destination, 'name' | 'sourceIds' | 'filters'>, filters: EventFilters, recent: RoutingInputs): FilterPreview {
  const ofItsSources = recent.items.filter((m) => m.sourceId !== null && destination.sourceIds.includes(m.sourceId));
  const relevant = ofItsSources.filter((m) => integrationsAllow(m.integrations, destination.name) === null);
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
  return { looked: recent.looked, relevant: relevant.length, skipped: ofItsSources.length - relevant.length, dropped, droppedTotal: dropped.reduce((n, d) => n + d.count, 0), droppedNow };
}

/** A destination name not taken yet: `Webhooks`, `Webhooks 2`, ... */
export function freeName(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base;
  for (let i = 2; ; i++) if (!taken.includes(`${base} ${i}`)) return `${base} ${i}`;
}

/** The fields' labels in the forms, by the API's field name (patch. prefix left out). */
const LABELS: Record<string, string> = {
  name: 'Name',
  enabled: 'Enabled',
  sources: 'Sources',
  sharedSecret: 'Shared secret',
  caFile: 'CA file',
  timeoutMs: 'Timeout',
  'retry.schedule': 'Retry schedule',
  'retry.windowMs': 'Retry window',
  'retry.jitter': 'Jitter',
  'retry.maxAttempts': 'Max attempts',
  'filters.allowEvents': 'Allow events',
  'filters.blockEvents': 'Block events',
};

/**
 * An API field as the form labels it: `webhooks[1].url` → `Webhook 2 URL`, `webhooks[0].headers.X-Env` →
 * `Webhook 1 header X-Env`, `patch.retry.schedule[2]` → `Retry schedule`. Unknown fields stay as they are.
 */
export function fieldLabel(field: string): string {
  const f = field.replace(/^patch\./, '');
  const webhook = /^webhooks\[(\d+)\](?:\.(url|headers)(?:\.(.+)|\[(".*")\])?)?$/.exec(f);
  if (webhook) {
    const n = Number(webhook[1]) + 1;
    if (n > MAX_WEBHOOKS) return 'Webhook URLs';
    if (webhook[2] === 'url') return `Webhook ${n} URL`;
    if (webhook[2] === 'headers') {
      const name = webhook[3] ?? (webhook[4] ? (JSON.parse(webhook[4]) as string) : null);
      return name === null ? `Webhook ${n} headers` : `Webhook ${n} header ${name}`;
    }
    return `Webhook ${n}`;
  }
  if (f === 'webhooks' || f === 'url') return 'Webhook URLs';
  const top = /^(sources|retry\.\w+|filters\.\w+|\w+)/.exec(f)?.[1] ?? f;
  return LABELS[top] ?? field;
}

/**
 * The test event a destination lets through: `Test Event`, unless its event filters drop it; then the first
 * event its allow list names that is not blocked (filters apply to track calls only). `filteredAnyway`: no
 * track event passes these filters.
 */
export function testEventName(destination: Pick<Destination, 'name' | 'filters'>): { event: string; filteredAnyway: boolean } {
  const fallback = 'Test Event';
  if (eventFilterAllows(destination, 'track', fallback) === null) return { event: fallback, filteredAnyway: false };
  const allowed = destination.filters.allowEvents.find((e) => eventFilterAllows(destination, 'track', e) === null);
  if (allowed !== undefined) return { event: allowed, filteredAnyway: false };
  if (destination.filters.allowEvents.length === 0) {
    for (let i = 2; ; i++) if (eventFilterAllows(destination, 'track', `${fallback} ${i}`) === null) return { event: `${fallback} ${i}`, filteredAnyway: false };
  }
  return { event: fallback, filteredAnyway: true };
}
