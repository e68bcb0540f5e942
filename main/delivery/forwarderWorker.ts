/** The forwarder's worker thread: signs the rounds it is given, sends them and answers their results. */
import { prepareRound, resultsToWire, roundFromWire, RoundSender, type InvalidateMessage, type RoundOnWire } from './forwarders.js';
import type { SendResult } from './webhookRequests.js';
import { serveJobs } from '../platform/jobWorker.js';

const sender = new RoundSender();
serveJobs<RoundOnWire, SendResult[], InvalidateMessage>({
  handle: (round, done, failed) => sender.sendThen(prepareRound(roundFromWire(round)), done, failed),
  encode: resultsToWire,
  other: (message) => sender.invalidate(message.caFile),
  close: () => sender.close(),
});
