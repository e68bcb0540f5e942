/** Why an attempt did not succeed, in plain words a user can act on. */
import { isFastForwarded, type AttemptRecord } from '../../../main/contract/deliveries';

export function failureReason(attempt: Pick<AttemptRecord, 'outcome' | 'statusCode' | 'error' | 'retryable'> & { responseHeaders?: Record<string, string> | null }): string | null {
  const error = attempt.error ?? '';
  switch (attempt.outcome) {
    case 'success':
      return null;
    case 'timeout': {
      if (isFastForwarded(attempt)) {
        const ms = /the timeout is (\d+) ms/.exec(error)?.[1];
        const timeout = ms ? `${Number(ms) / 1000} s` : 'its timeout';
        return `Fast-forwarded: during a clock jump with Fast-forward unanswered attempts on, no response headers had come after 1 s, so the attempt was ended as a timeout instead of waiting ${timeout}. The endpoint might still have answered in time. Retried.`;
      }
      const ms = /within (\d+) ms/.exec(error)?.[1];
      const seconds = ms ? `${Number(ms) / 1000} s` : 'the timeout';
      return `No response headers within ${seconds}: the request was sent, but the endpoint did not start answering in time. Retried.`;
    }
    case 'http_error': {
      const code = attempt.statusCode ?? 0;
      const wait = retryAfterOf(attempt.responseHeaders);
      const honoured = wait ? ` It asked to wait (Retry-After: ${wait}), so the next attempt waits at least that long.` : '';
      if (code === 429) return `HTTP 429 Too Many Requests: the endpoint asked to slow down. Retried.${honoured}`;
      if (code >= 500) return `HTTP ${code}: the endpoint had a server error. Retried.${honoured}`;
      if (code >= 300 && code < 400) return `HTTP ${code}: redirects are never followed. Not retried: answer 2xx at this URL.`;
      return `HTTP ${code}: a client error is permanent. Not retried: fix the endpoint (or its URL) and replay.`;
    }
    case 'network_error': {
      if (error.includes('ECONNREFUSED')) return 'Connection refused: nothing is listening at that host and port. Retried.';
      if (error.includes('ECONNRESET')) return 'The connection was reset before a response arrived. Retried.';
      if (error.includes('ENOTFOUND') || error.includes('EAI_AGAIN')) return 'DNS lookup failed: the host name does not resolve. Retried.';
      if (error.includes('UND_ERR_SOCKET') || error.includes('other side closed')) return 'The endpoint closed the connection without a response. Retried.';
      return `Network error${error ? `: ${error}` : ''}. ${attempt.retryable ? 'Retried.' : 'Not retried.'}`;
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
