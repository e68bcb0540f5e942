/**
 * How precisely the engine's 5 s timeout fires: attempts against a local server that never answers, each
 * attempt's duration as the engine recorded it. Target: every one between 5.0 s and 5.1 s.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCore, internalsOf } from '../main/app/createCore.js';
import { summarize, type LatencySummary } from './stats.js';

export const TIMEOUT_MS = 5_000;
/** Fired within [TIMEOUT_MS, TIMEOUT_MS + TOLERANCE_MS]. */
export const TOLERANCE_MS = 100;

export interface TimeoutPrecision {
  attempts: number;
  timeoutMs: number;
  firedMs: LatencySummary & { min: number };
  withinTarget: number;
}

export async function measureTimeoutPrecision(dataDir: string, attempts = 32): Promise<TimeoutPrecision> {
  const server = createServer(() => undefined); // never answers
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/never`;
  const core = createCore({ dataDir, seed: 1 });
  try {
    const d = core.createDestination({ name: 'never answers', enabled: true, url, timeoutMs: TIMEOUT_MS, retry: { maxAttempts: 1 } });
    if (!d.ok) throw new Error(d.error.message);
    const sent = core.sendMessages({ messages: Array.from({ length: attempts }, (_, i) => ({ type: 'track' as const, call: { userId: `u${i}`, event: 'Timeout' } })) });
    if (!sent.ok) throw new Error(sent.error.message);
    // At most 16 (the connections per origin), so no attempt waits for a slot and each is timed alone.
    await core.idle();
    const rows = internalsOf(core).store.db.prepare<[], { outcome: string; duration_ms: number }>('SELECT outcome, duration_ms FROM attempts').all();
    const wrong = rows.filter((r) => r.outcome !== 'timeout');
    if (rows.length !== attempts || wrong.length) throw new Error(`timeout bench: expected ${attempts} timeouts, got ${rows.length} attempts (${wrong.length} not timeouts)`);
    const durations = Float64Array.from(rows.map((r) => r.duration_ms));
    const withinTarget = rows.filter((r) => r.duration_ms >= TIMEOUT_MS && r.duration_ms <= TIMEOUT_MS + TOLERANCE_MS).length;
    const min = Math.min(...durations);
    return { attempts, timeoutMs: TIMEOUT_MS, firedMs: { ...summarize(durations), min }, withinTarget };
  } finally {
    await core.close();
    server.closeAllConnections();
    server.close();
  }
}
