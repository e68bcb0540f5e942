/**
 * The IPC messages between the benchmark and its receiver child process. IPC payloads arrive as `unknown`,
 * so each side checks the shape before trusting it.
 */

/** Counters since the previous `stats` request (the receiver resets them on each request). */
export interface ReceiverStats {
  requests: number;
  bodyBytes: number;
  /** CPU the receiver process spent, in ms. */
  cpuUserMs: number;
  cpuSystemMs: number;
}

export type ReceiverReport = { type: 'listening'; ports: number[] } | ({ type: 'stats' } & ReceiverStats);

export type ReceiverCommand = { type: 'stats' };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function isReceiverReport(v: unknown): v is ReceiverReport {
  if (!isRecord(v)) return false;
  if (v['type'] === 'listening') return Array.isArray(v['ports']) && v['ports'].length > 0 && v['ports'].every(isNumber);
  if (v['type'] === 'stats') {
    return isNumber(v['requests']) && isNumber(v['bodyBytes']) && isNumber(v['cpuUserMs']) && isNumber(v['cpuSystemMs']);
  }
  return false;
}

export function isReceiverCommand(v: unknown): v is ReceiverCommand {
  return isRecord(v) && v['type'] === 'stats';
}

// ------------------------------------------------------------------ load generator (bench/loadgen.ts)

/** What the load generator sends: `requests` /v1/batch bodies of `batchSize` events, `inFlight` at a time. */
export interface LoadPlan {
  /** e.g. http://127.0.0.1:PORT/v1/batch */
  url: string;
  writeKey: string;
  requests: number;
  batchSize: number;
  inFlight: number;
  /** The run's messageId prefix (see sdkMessageId in bench/workload.ts). */
  idPrefix: string;
}

/** `prepare` builds every body (untimed) and answers `ready`; `go` sends them and answers `done`. */
export type LoadCommand = ({ type: 'prepare' } & LoadPlan) | { type: 'go' };

export interface LoadResult {
  /** First request sent → last response read, ms, on the load generator's clock. */
  wallMs: number;
  /** Per request: request start → response body read, ms. */
  latencyMs: number[];
  /** Requests answered 200. */
  ok: number;
  /** Requests answered otherwise, or failed at the transport. */
  failed: number;
  /** The first failure: status and body, or the error. */
  firstFailure: string | null;
  /** CPU the load generator spent during the run, ms. */
  cpuMs: number;
}

export type LoadReport = { type: 'ready'; requestBytes: number; eventBytes: number } | ({ type: 'done' } & LoadResult);

export function isLoadCommand(v: unknown): v is LoadCommand {
  if (!isRecord(v)) return false;
  if (v['type'] === 'go') return true;
  return (
    v['type'] === 'prepare' &&
    typeof v['url'] === 'string' &&
    typeof v['writeKey'] === 'string' &&
    typeof v['idPrefix'] === 'string' &&
    isNumber(v['requests']) &&
    isNumber(v['batchSize']) &&
    isNumber(v['inFlight'])
  );
}

export function isLoadReport(v: unknown): v is LoadReport {
  if (!isRecord(v)) return false;
  if (v['type'] === 'ready') return isNumber(v['requestBytes']) && isNumber(v['eventBytes']);
  return (
    v['type'] === 'done' &&
    isNumber(v['wallMs']) &&
    Array.isArray(v['latencyMs']) &&
    v['latencyMs'].every(isNumber) &&
    isNumber(v['ok']) &&
    isNumber(v['failed']) &&
    (v['firstFailure'] === null || typeof v['firstFailure'] === 'string') &&
    isNumber(v['cpuMs'])
  );
}
