/** The ingestion thread: parses and builds the calls of large ingestion requests (see ingestPrepare.ts). */
import { serveJobs } from '../platform/jobWorker.js';
import { prepareIngest, type Prepared, type PrepareRequest } from './ingestPrepare.js';

serveJobs<PrepareRequest, Prepared>({
  handle: (request, done) => done(prepareIngest(request)),
  transfer: (prepared) => (prepared.kind === 'calls' ? [prepared.bodies.buffer] : []),
});
