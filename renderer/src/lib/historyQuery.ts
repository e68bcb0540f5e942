/**
 * History's filter lives in the hash's query (`#/history?status=failed&userId=ada`), so a view can be
 * bookmarked or shared. Keys are listMessages' own names; `from` and `to` are local date-times as a
 * datetime-local input writes them (`2026-11-22T09:30`). Pure: unit-tested in test/unit/renderer/.
 */
import type { ListMessagesInput } from '../../../main/contract/api';
import { API_LIMITS } from '../../../main/contract/apiLimits';
import { MESSAGE_TYPES, type MessageType } from '../../../main/contract/message/messageShapes';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../../main/contract/deliveries';
import { MESSAGE_ORIGINS, MESSAGE_STATUSES, type MessageOrigin, type MessageStatus } from '../../../main/contract/messages';
import { formatCount } from './format';

export type HistoryFilter = Omit<ListMessagesInput, 'cursor' | 'limit'>;

/** Messages in a page of History's list: the first one and each one loaded as the list scrolls. */
export const HISTORY_PAGE = 200;

/** The query keys History reads, in the order the filter bar shows them. */
export const FILTER_KEYS = ['text', 'status', 'delivery', 'deliverySince', 'failedSince', 'type', 'sourceId', 'destinationId', 'userId', 'event', 'from', 'to', 'origin'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
export type FilterQuery = Partial<Record<FilterKey, string>>;

/** A local date-time (`2026-11-22T09:30`) as ms since the epoch, or null when it is not one. */
export function localDateTimeMs(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?)?$/.test(value)) return null;
  const ms = new Date(value.includes('T') ? value : `${value}T00:00`).getTime();
  return Number.isFinite(ms) ? ms : null;
}

/** The end of what a To value shows, exclusive: the next minute (or day) for a value to the minute (or day); a precise value as it is. */
function endOfShown(raw: string, ms: number): number {
  if (!raw.includes('T')) {
    const next = new Date(ms);
    next.setDate(next.getDate() + 1);
    return next.getTime();
  }
  return /T\d{2}:\d{2}$/.test(raw) ? ms + 60_000 : ms;
}

/** ms since the epoch as a datetime-local value, to the minute (`precise`: to the millisecond). */
export function toLocalDateTime(ms: number, precise = false): string {
  const d = new Date(ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const minute = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return precise ? `${minute}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}` : minute;
}

/**
 * listMessages' filter as History's query: the inverse of parseFilterQuery. Times keep their milliseconds, so
 * a counter's filter opens exactly the messages it counted.
 */
export function filterToQuery(filter: HistoryFilter): FilterQuery {
  const out: FilterQuery = {};
  for (const key of FILTER_KEYS) {
    const value = filter[key];
    if (value === undefined) continue;
    out[key] = typeof value === 'number' ? toLocalDateTime(value, true) : value;
  }
  return out;
}

export interface ParsedFilter {
  filter: HistoryFilter;
  /** Problems with the query, by key: shown next to the field; the rest of the filter still applies. */
  errors: Partial<Record<FilterKey, string>>;
}

/** The hash's query as listMessages' filter. Unknown keys are ignored; bad values are named, not dropped silently. */
export function parseFilterQuery(query: Record<string, string>): ParsedFilter {
  const filter: HistoryFilter = {};
  const errors: ParsedFilter['errors'] = {};
  for (const key of FILTER_KEYS) {
    const raw = query[key];
    if (raw === undefined || raw === '') continue;
    switch (key) {
      case 'status':
        if ((MESSAGE_STATUSES as readonly string[]).includes(raw)) filter.status = raw as MessageStatus;
        else errors.status = `"${raw}" is not a status (one of ${MESSAGE_STATUSES.join(', ')})`;
        break;
      case 'delivery':
        if ((DELIVERY_STATUSES as readonly string[]).includes(raw)) filter.delivery = raw as DeliveryStatus;
        else errors.delivery = `"${raw}" is not a delivery status (one of ${DELIVERY_STATUSES.join(', ')})`;
        break;
      case 'origin':
        if ((MESSAGE_ORIGINS as readonly string[]).includes(raw)) filter.origin = raw as MessageOrigin;
        else errors.origin = `"${raw}" is not a kind of traffic (${MESSAGE_ORIGINS.join(', ')}; leave it empty for yours)`;
        break;
      case 'type':
        if ((MESSAGE_TYPES as readonly string[]).includes(raw)) filter.type = raw as MessageType;
        else errors.type = `"${raw}" is not a type (one of ${MESSAGE_TYPES.join(', ')})`;
        break;
      case 'deliverySince':
      case 'failedSince':
      case 'from':
      case 'to': {
        const ms = localDateTimeMs(raw);
        if (ms === null) errors[key] = `"${raw}" is not a date and time (like 2026-11-22T09:30)`;
        // listMessages' `to` is exclusive; To as the picker shows it (a minute, or a day) includes all of it.
        else filter[key] = key === 'to' ? endOfShown(raw, ms) : ms;
        break;
      }
      default:
        if (raw.length > API_LIMITS.filterChars) errors[key] = `at most ${formatCount(API_LIMITS.filterChars)} characters (this is ${formatCount(raw.length)})`;
        else filter[key] = raw;
    }
  }
  if (filter.deliverySince !== undefined && filter.delivery === undefined) {
    errors.deliverySince = 'applies to a delivery status: pick one under Status';
    delete filter.deliverySince;
  }
  if (filter.from !== undefined && filter.to !== undefined && filter.from >= filter.to) {
    errors.to = 'must be after From';
    delete filter.to;
  }
  return { filter, errors };
}

/** Only History's own keys of a query, without empty values (what a saved filter keeps). */
export function filterQueryOf(query: Record<string, string>): FilterQuery {
  const out: FilterQuery = {};
  for (const key of FILTER_KEYS) if (query[key]) out[key] = query[key];
  return out;
}

/** A stable key for a filter: a new one starts the list again. */
export function filterKey(filter: HistoryFilter): string {
  return JSON.stringify(FILTER_KEYS.map((k) => filter[k] ?? null));
}

export function isEmptyFilter(filter: HistoryFilter): boolean {
  return FILTER_KEYS.every((k) => filter[k] === undefined);
}
