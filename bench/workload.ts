/** What every contender sends: the same representative track call, to the same receiver. */
import { randomUUID } from 'node:crypto';
import { buildMessage } from '../main/domain/messages.js';

export const SHARED_SECRET = 'bench-shared-secret';
/** Requests in flight at once for the raw loop; the engine's window starts here (and stays, with --fixed-window). */
export const ENGINE_IN_FLIGHT = 256;
/**
 * The slow-webhook case (`--only latency`): the receiver listens on this many ports (origins, each with
 * its own 16 connections) and answers each request after LATENCY_MS. A window of 256 rounds then allows
 * at most 256 ÷ (50 ms + the wait for the next tick) ≈ 4,000 deliveries a second, while the connections
 * allow 32 × 16 ÷ 50 ms ≈ 10,000.
 */
export const LATENCY_ORIGINS = 32;
export const LATENCY_MS = 50;
/** docs/behaviour.md §2 / delivery/webhookRequests.ts: connections per origin. */
export const CONNECTIONS = 16;
/** The naive forwarder's "modest concurrency". */
export const NAIVE_CONCURRENCY = 16;

/**
 * Messages each forwarding contender sends before it is measured: as many as it is measured on, at most 20,000.
 * Steady state is what the engine is judged in (it lives as long as the app), and its forwarder thread is a
 * new isolate for every core: after 2,000 messages V8 was still compiling the engine's path in the measured
 * run, a quarter of a core (`--trace-opt`).
 */
export function forwardingWarmUpMessages(measured: number): number {
  return Math.max(1_000, Math.min(20_000, measured));
}

/** A typical analytics track call (~600 bytes once built). */
export function trackCall(i: number): Record<string, unknown> {
  return {
    userId: `user-${i % 5000}`,
    event: 'Order Completed',
    properties: {
      orderId: `order-${i}`,
      total: 42.5 + (i % 100),
      currency: 'EUR',
      products: [
        { sku: 'sku-1', name: 'Espresso beans 1kg', price: 24.5, quantity: 1 },
        { sku: 'sku-2', name: 'Paper filters', price: 3.0, quantity: 6 },
      ],
    },
    context: {
      library: { name: 'analytics-node', version: '2.1.0' },
      ip: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
    },
  };
}

/** The exact body bytes the engine would build for message `i` (used by the raw and naive contenders). */
export function trackBody(i: number): Buffer {
  const built = buildMessage('track', trackCall(i), { receivedAt: Date.now(), newMessageId: randomUUID });
  if (!built.ok) throw new Error(`bench workload does not build: ${built.error.message}`);
  return built.value.bytes;
}

// ------------------------------------------------------------------ ingestion (/v1/batch)

/** Events per /v1/batch request (an SDK flushing a full batch). */
export const INGEST_BATCH = 100;
/** /v1/batch requests in flight at once from the load generator, one keep-alive connection each. */
export const INGEST_IN_FLIGHT = 4;
/** The benchmark source's write key (sent as Basic auth, as the SDKs do). */
export const INGEST_WRITE_KEY = 'wk_bench_ingest_0123456789';

/**
 * The messageId of event `i` of a run: analytics-node's shape (`node-next-<ms>-<uuid>`) with the run's
 * prefix (`node-next-<ms>-<8 hex>`) and the event's index in the uuid's last group, so the harness can
 * check afterwards that exactly the events sent were stored, each once.
 */
export function sdkMessageId(idPrefix: string, i: number): string {
  return `${idPrefix}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
}

/**
 * Track event `i` as analytics-node puts it in a batch: the call of trackCall(i) (properties, context with
 * library, ip and userAgent) plus messageId, timestamp, integrations and _metadata: about 665 bytes of JSON.
 */
export function sdkTrackEvent(i: number, idPrefix: string, timestampMs: number): Record<string, unknown> {
  return {
    type: 'track',
    ...trackCall(i),
    integrations: {},
    messageId: sdkMessageId(idPrefix, i),
    timestamp: new Date(timestampMs).toISOString(),
    _metadata: { nodeVersion: 'v20.20.2', jsRuntime: 'node' },
  };
}

/** The body of one /v1/batch request carrying events `first` .. `first + count - 1`, as analytics-node sends it. */
export function sdkBatchBody(first: number, count: number, idPrefix: string, sentAtMs: number): Buffer {
  const batch = [];
  for (let i = first; i < first + count; i++) batch.push(sdkTrackEvent(i, idPrefix, sentAtMs - (first + count - i) * 7));
  return Buffer.from(JSON.stringify({ batch, writeKey: INGEST_WRITE_KEY, sentAt: new Date(sentAtMs).toISOString() }), 'utf8');
}
