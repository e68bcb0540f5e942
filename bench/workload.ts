/** What every contender sends: the same representative track call, to the same receiver. */
import { randomUUID } from 'node:crypto';
import { buildMessage } from '../main/core/messages.js';

export const SHARED_SECRET = 'bench-shared-secret';
/** Deliveries in flight at once for the engine (its default) and the raw loop. */
export const ENGINE_IN_FLIGHT = 256;
/** SPEC-NOTES §2 / forwarder.ts: connections per origin. */
export const CONNECTIONS = 16;
/** The naive forwarder's "modest concurrency". */
export const NAIVE_CONCURRENCY = 16;

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
