/**
 * serve's log of requests refused at the door that an SDK would never report: an unknown or missing write
 * key, a path that is not an ingestion route. One line the first time each one is seen, then a count of its
 * repeats at most once a minute, so that an SDK sending with a wrong key is visible without flooding the log.
 */
import type { IngestRefusal } from '../contract/sources.js';

/** Refusals reported by serve: the ones a misconfigured SDK produces on every call. */
export function isDoorRefusal(r: Pick<IngestRefusal, 'code'>): boolean {
  return r.code === 'unauthorized' || r.code === 'not_found';
}

export interface RefusalReportOptions {
  /** How long repeats are counted before their count is printed (default one minute). */
  summaryMs?: number;
  /** Distinct refusals given a line of their own; past that they are only counted together. */
  maxDistinct?: number;
  /** Timers (tests inject their own). */
  schedule?: (fn: () => void, ms: number) => () => void;
}

const defaultSchedule = (fn: () => void, ms: number) => {
  const t = setTimeout(fn, ms);
  t.unref();
  return () => clearTimeout(t);
};

export class RefusalReport {
  /** Repeats since the last summary, by what was refused (the message: it names the masked key or the path). */
  private readonly repeats = new Map<string, number>();
  /** Distinct refusals past maxDistinct, and their requests, since the last summary. */
  private overflow = { kinds: 0, requests: 0 };
  private readonly overflowSeen = new Set<string>();
  private cancel: (() => void) | null = null;
  private readonly summaryMs: number;
  private readonly maxDistinct: number;
  private readonly schedule: (fn: () => void, ms: number) => () => void;

  constructor(
    private readonly print: (line: string) => void,
    options: RefusalReportOptions = {},
  ) {
    this.summaryMs = options.summaryMs ?? 60_000;
    this.maxDistinct = options.maxDistinct ?? 20;
    this.schedule = options.schedule ?? defaultSchedule;
  }

  refused(r: IngestRefusal): void {
    if (!isDoorRefusal(r)) return;
    const seen = this.repeats.get(r.message);
    if (seen !== undefined) {
      this.repeats.set(r.message, seen + 1);
      this.arm();
      return;
    }
    if (this.repeats.size >= this.maxDistinct) {
      // Bounded: past this many, kinds are no longer told apart (a flood of random keys stays one line).
      if (this.overflowSeen.size < 10_000 && !this.overflowSeen.has(r.message)) {
        this.overflowSeen.add(r.message);
        this.overflow.kinds++;
      }
      this.overflow.requests++;
      this.arm();
      return;
    }
    this.repeats.set(r.message, 0);
    const from = r.clientIp ? ` from ${r.clientIp}` : '';
    // A 401 that names its source had that source's key, sent where it is not read: its message says where, and giving a key is not the fix.
    const advice =
      r.code === 'unauthorized' && r.sourceId === null
        ? 'nothing of it was kept; give the SDK the write key of one of your sources (Sources in the UI)'
        : 'nothing of it was kept';
    this.print(`refused a request to ${r.route}${from} (HTTP ${r.httpStatus}): ${r.message.replace(/\.$/, '')}; ${advice}. Repeats are counted, not printed.`);
  }

  /** Prints the counts of repeats since the last summary, if any. */
  flush(): void {
    this.cancel?.();
    this.cancel = null;
    for (const [message, count] of this.repeats) {
      if (count === 0) continue;
      this.print(`refused ${count} more request${count === 1 ? '' : 's'}: ${message}`);
      this.repeats.set(message, 0);
    }
    if (this.overflow.requests > 0) {
      const { requests, kinds } = this.overflow;
      this.print(`refused ${requests} more request${requests === 1 ? '' : 's'} for ${kinds} other unknown write key${kinds === 1 ? '' : 's'} or path${kinds === 1 ? '' : 's'}; see the ingest log (Sources in the UI, or listIngestLog)`);
      this.overflow = { kinds: 0, requests: 0 };
      this.overflowSeen.clear();
    }
  }

  /** Says what is still counted, and stops. */
  close(): void {
    this.flush();
  }

  private arm(): void {
    this.cancel ??= this.schedule(() => {
      this.cancel = null;
      this.flush();
    }, this.summaryMs);
  }
}
