/** Why an attempt did not succeed, in plain words a user can act on, and what came of it. */
import { isFastForwarded, type AttemptRecord, type DeliveryRecord } from '../../../main/contract/deliveries';

/**
 * What came of a retryable attempt, as a sentence: retried (a later attempt of its webhook exists), a retry
 * to come, or why not (its delivery failed for good, was cancelled or delivered through another webhook).
 */
export function retryFate(
  attempt: Pick<AttemptRecord, 'deliveryId' | 'webhookIndex' | 'attemptNumber'>,
  attempts: readonly Pick<AttemptRecord, 'deliveryId' | 'webhookIndex' | 'attemptNumber'>[],
  delivery: Pick<DeliveryRecord, 'status' | 'reason'> | undefined,
  /** Its destination is off (or has no webhook URL): a retry waits until it is turned on. */
  held = false,
): string {
  if (attempts.some((a) => a.deliveryId === attempt.deliveryId && a.webhookIndex === attempt.webhookIndex && a.attemptNumber > attempt.attemptNumber)) return 'Retried.';
  switch (delivery?.status) {
    case 'retrying':
    case 'queued':
      return held ? 'Its retry is held: the destination is off, and nothing is sent until it is turned on.' : 'A retry is scheduled.';
    case 'delivering':
      return 'Being retried now.';
    case 'delivered':
      return 'Not retried: the delivery succeeded through another webhook.';
    case 'failed':
    case 'cancelled':
      return `Not retried: ${delivery.reason ?? delivery.status}.`;
    default:
      return 'Retried.';
  }
}

/** `fate`: what came of the attempt when it could be retried (retryFate); retried, when not said. */
export function failureReason(attempt: Pick<AttemptRecord, 'outcome' | 'statusCode' | 'error' | 'retryable'> & { responseHeaders?: Record<string, string> | null }, fate = 'Retried.'): string | null {
  const error = attempt.error ?? '';
  switch (attempt.outcome) {
    case 'success':
      return null;
    case 'timeout': {
      if (isFastForwarded(attempt)) {
        const ms = /the timeout is (\d+) ms/.exec(error)?.[1];
        const timeout = ms ? `${Number(ms) / 1000} s` : 'its timeout';
        return `Fast-forwarded: during a clock jump with Fast-forward unanswered attempts on, no response headers had come after 1 s, so the attempt was ended as a timeout instead of waiting ${timeout}. The endpoint might still have answered in time. ${fate}`;
      }
      const ms = /within (\d+) ms/.exec(error)?.[1];
      const seconds = ms ? `${Number(ms) / 1000} s` : 'the timeout';
      return `No response headers within ${seconds}: the request was sent, but the endpoint did not start answering in time. ${fate}`;
    }
    case 'http_error': {
      const code = attempt.statusCode ?? 0;
      const wait = retryAfterOf(attempt.responseHeaders);
      const honoured = !wait ? '' : fate.startsWith('Not retried') ? ` It asked to wait (Retry-After: ${wait}).` : ` It asked to wait (Retry-After: ${wait}), so the next attempt waits at least that long.`;
      if (code === 429) return `HTTP 429 Too Many Requests: the endpoint asked to slow down. ${fate}${honoured}`;
      if (code >= 500) return `HTTP ${code}: the endpoint had a server error. ${fate}${honoured}`;
      if (code >= 300 && code < 400) return `HTTP ${code}: redirects are never followed. Not retried: answer 2xx at this URL.`;
      return `HTTP ${code}: a client error is permanent. Not retried: fix the endpoint (or its URL) and replay.`;
    }
    case 'network_error': {
      if (error.includes('ECONNREFUSED')) return `Connection refused: nothing is listening at that host and port. ${fate}`;
      if (error.includes('ECONNRESET')) return `The connection was reset before a response arrived. ${fate}`;
      if (error.includes('ENOTFOUND') || error.includes('EAI_AGAIN')) return `DNS lookup failed: the host name does not resolve. ${fate}`;
      if (error.includes('UND_ERR_SOCKET') || error.includes('other side closed')) return `The endpoint closed the connection without a response. ${fate}`;
      return `Network error${error ? `: ${error}` : ''}. ${attempt.retryable ? fate : 'Not retried.'}`;
    }
    case 'tls_error':
      if (error.includes('self-signed')) {
        return "Self-signed certificate: no request was sent. HTTPS endpoints must have a trusted certificate; give the destination a caFile (e.g. mkcert's root) or use the receiver's HTTP listener.";
      }
      return `The endpoint's certificate is not trusted, so no request was sent${error ? ` (${error})` : ''}. Not retried.`;
  }
}

function retryAfterOf(headers: Record<string, string> | null | undefined): string | null {
  const entry = headers ? Object.entries(headers).find(([name]) => name.toLowerCase() === 'retry-after') : undefined;
  if (!entry) return null;
  return /^\d+$/.test(entry[1].trim()) ? `${entry[1].trim()} s` : entry[1];
}
