/**
 * Sources and what ingestion records of them: the source record, refused requests (the ingest log) and the
 * usage counters per source.
 */

export const SOURCE_KINDS = ['web', 'mobile', 'server'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export interface Source {
  id: string;
  name: string;
  kind: SourceKind;
  writeKey: string;
  createdAt: number;
}

/** A refused ingestion request: not a message, kept with its reason (docs/behaviour.md §2). */
export interface IngestRefusal {
  id: number;
  receivedAt: number;
  sourceId: string | null;
  route: string;
  clientIp: string | null;
  httpStatus: number;
  code: string;
  message: string;
  field: string | null;
  index: number | null;
  /** The limit that was exceeded (bytes, levels), when the refusal is about one. */
  limit: number | null;
  bodyBytes: number | null;
  /** The first 4 KiB of the decoded body. */
  bodyPreview: string | null;
}

export const USAGE_COUNTERS = ['received', 'accepted', 'refused', 'filtered'] as const;
export type UsageCounter = (typeof USAGE_COUNTERS)[number];

/**
 * A source's counters per minute of engine time over the last hour, oldest first (60 each; the last is
 * the minute now, still counting). Kept in memory: they start at zero after a restart.
 */
export interface SourceUsageMinutes {
  /** Engine time at which the first minute starts. */
  from: number;
  minuteMs: number;
  received: number[];
  accepted: number[];
  refused: number[];
  filtered: number[];
}

export interface SourceUsage {
  sourceId: string;
  name: string;
  /** Calls received, accepted (stored as messages), refused (in refused requests), filtered (routed nowhere). */
  received: number;
  accepted: number;
  refused: number;
  filtered: number;
  lastHour: SourceUsageMinutes;
}
