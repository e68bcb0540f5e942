/** The forwarder's worker thread: sends the rounds it is given and answers their results in batches. */
import { InlineForwarder, type InvalidateMessage, type RoundRequest } from './forwarderPool.js';
import type { SendResult } from './forwarder.js';
import { serveJobs } from './jobWorker.js';

const forwarder = new InlineForwarder();
serveJobs<RoundRequest, SendResult[], InvalidateMessage>({
  // sendRound reports every failure as a result; a rejection is a bug, passed on to the engine.
  handle: (request) => forwarder.sendRound(request),
  other: (message) => forwarder.invalidate(message.caFile),
  close: () => forwarder.close(),
});
