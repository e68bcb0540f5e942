import type { SendResult } from '../../main/delivery/webhookRequests.js';

/** A request's result as the forwarder answers it: a 200 with empty headers and body, unless `patch` says otherwise. */
export function sendResult(patch: Partial<SendResult> = {}): SendResult {
  return {
    outcome: 'success',
    retryable: false,
    permanentReason: null,
    statusCode: 200,
    error: null,
    retryAfterMs: null,
    durationMs: 0,
    requestHeaders: '{}',
    signature: null,
    responseHeaders: '{}',
    responseBody: '',
    responseTruncated: false,
    ...patch,
  };
}
