/** The forwarder's worker thread: sends the (already signed) rounds it is given and answers their results. */
import { RoundSender, type InvalidateMessage, type PreparedRound, type SentResult } from './forwarders.js';
import { serveJobs } from '../platform/jobWorker.js';

const sender = new RoundSender();
serveJobs<PreparedRound, SentResult[], InvalidateMessage>({
  // The sender keeps the request headers and signature it computed: only the headers as written travel back.
  handle: (round) =>
    sender.send(round).then((results) =>
      results.map((r): SentResult => ({
        outcome: r.outcome,
        retryable: r.retryable,
        permanentReason: r.permanentReason,
        statusCode: r.statusCode,
        error: r.error,
        retryAfterMs: r.retryAfterMs,
        durationMs: r.durationMs,
        requestHeaders: r.headersOnWire ? r.requestHeaders : null,
        headersOnWire: r.headersOnWire,
        responseHeaders: r.responseHeaders,
        responseBody: r.responseBody,
        responseTruncated: r.responseTruncated,
      })),
    ),
  other: (message) => sender.invalidate(message.caFile),
  close: () => sender.close(),
});
