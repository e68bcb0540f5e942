/**
 * How a check's requests go out: through the engine's own forwarder code (forwarder.ts: the same undici
 * pools, the same 16 connections per origin, the same timeout to response headers and the same outcome
 * classification), so a verdict is what the Webhooks destination would see.
 */
import type { Dispatcher } from 'undici';
import { DEFAULT_TIMEOUT_MS } from '../contract/destinations.js';
import { Dispatchers, sendToWebhook, type SendResult } from '../delivery/webhookRequests.js';

export interface CheckRequest {
  url: string;
  headers: Record<string, string>;
  body: Uint8Array;
  caFile: string | null;
}

export interface CheckSender {
  send(request: CheckRequest): Promise<SendResult>;
  close(): Promise<void>;
}

/**
 * When a check calls an answer slow or late. The destination's 5 s timeout is the default `timeoutMs`;
 * tests shorten both so that "late" costs them milliseconds.
 */
export interface CheckTiming {
  timeoutMs: number;
  slowMs: number;
}

export const DEFAULT_CHECK_TIMING: CheckTiming = { timeoutMs: DEFAULT_TIMEOUT_MS, slowMs: 1_000 };

export function createCheckSender(options: { timeoutMs: number; dispatcher?: Dispatcher | undefined }): CheckSender {
  let dispatchers: Dispatchers | null = null;
  return {
    send(request) {
      dispatchers ??= new Dispatchers(options.dispatcher);
      return sendToWebhook({
        request: { url: request.url, headers: request.headers, signature: request.headers['x-signature'] ?? null },
        body: request.body,
        timeoutMs: options.timeoutMs,
        dispatcher: dispatchers.for({ caFile: request.caFile }),
        gate: dispatchers.gate,
        realNow: Date.now,
      });
    },
    async close() {
      await dispatchers?.close();
      dispatchers = null;
    },
  };
}
