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

export type ReceiverReport = { type: 'listening'; port: number } | ({ type: 'stats' } & ReceiverStats);

export type ReceiverCommand = { type: 'stats' };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function isReceiverReport(v: unknown): v is ReceiverReport {
  if (!isRecord(v)) return false;
  if (v['type'] === 'listening') return isNumber(v['port']);
  if (v['type'] === 'stats') {
    return isNumber(v['requests']) && isNumber(v['bodyBytes']) && isNumber(v['cpuUserMs']) && isNumber(v['cpuSystemMs']);
  }
  return false;
}

export function isReceiverCommand(v: unknown): v is ReceiverCommand {
  return isRecord(v) && v['type'] === 'stats';
}
