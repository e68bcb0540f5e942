/** The forwarder's worker thread: signs the rounds it is given, sends them and answers their results. */
import { prepareRound, RoundSender, type InvalidateMessage, type RoundRequest } from './forwarders.js';
import type { SendResult } from './webhookRequests.js';
import { serveJobs } from '../platform/jobWorker.js';

const sender = new RoundSender();
serveJobs<RoundRequest, SendResult[], InvalidateMessage>({
  handle: (round) => sender.send(prepareRound(round)),
  other: (message) => sender.invalidate(message.caFile),
  close: () => sender.close(),
});
