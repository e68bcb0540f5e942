/** The forwarder's worker thread: signs the rounds it is given, sends them and answers their results. */
import { prepareRound, RoundSender, type InvalidateMessage, type RoundJob, type SentResult } from './forwarders.js';
import { serveJobs } from '../platform/jobWorker.js';

const sender = new RoundSender();
serveJobs<RoundJob, SentResult[], InvalidateMessage>({
  handle: (round) => sender.send(prepareRound(round)),
  other: (message) => sender.invalidate(message.caFile),
  close: () => sender.close(),
});
