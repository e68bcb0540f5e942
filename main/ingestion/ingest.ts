/**
 * The ingestion API that real analytics SDKs point at, unmodified (docs/behaviour.md §7). HTTP-agnostic: the
 * server hands it the route, headers and raw body; it answers status, headers and a JSON body.
 * A request is accepted whole or refused whole; refusals are logged with their reason, never stored as
 * messages. Accepted messages are committed before the answer.
 *
 * The work is split in two. Parsing, checking and building the calls (ingestPrepare.ts) is pure CPU and
 * runs on a thread of its own for large requests, so that a burst of batches uses both cores; what needs
 * the store (the source, dedupe, routing, the commit) runs here, on the engine's thread, where requests
 * that are ready at the same moment share one commit.
 */
import { eachProblem } from '../contract/problems.js';
import type { ApiError } from '../contract/result.js';
import type { Source } from '../contract/sources.js';
import { maskKeyEdges, redactJsonCredentials, secretFingerprint } from '../domain/secrets.js';
import { corruptionError, isCorruptionError, isWriteFailure } from '../store/integrity.js';
import type { IngestionPort } from './ingestionPort.js';
import { CORS, prepareIngest, type Prepared, type PrepareRequest } from './ingestPrepare.js';
import { misplacedWriteKey } from './ingestBody.js';
import { JobWorker } from '../platform/jobWorker.js';

export interface IngestRequest {
  method: string;
  /** Path without query, e.g. `/v1/batch`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body as received (possibly gzip). */
  body: Buffer;
  /**
   * The same bytes again, from what the server read (its chunks). Given, a large body's own buffer is moved
   * to the ingestion thread rather than copied there, and this reads it again should that thread die.
   */
  bodyAgain?: () => Buffer;
  clientIp: string | null;
}

export interface IngestResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface IngestOptions {
  /**
   * Where calls are parsed and built: `worker` (the default) hands requests of at least `workerMinBytes` to
   * the ingestion thread and does smaller ones here; `inline` does all of them here.
   */
  thread?: 'worker' | 'inline';
  /** Smaller bodies cost less to parse than to hand over (default 8 KiB: about a dozen calls). */
  workerMinBytes?: number;
}

export function isIngestPath(path: string): boolean {
  return path.startsWith('/v1/');
}

/** A request whose calls are ready to store, waiting for the turn's commit. */
interface ReadyRequest {
  source: Source;
  receivedAt: number;
  prepared: Extract<Prepared, { kind: 'calls' }>;
  done: (response: IngestResponse) => void;
}

const ACCEPTED: IngestResponse = { status: 200, headers: CORS, body: { success: true } };

export class IngestService {
  private readonly worker: JobWorker<PrepareRequest, Prepared> | null;
  private readonly workerMinBytes: number;
  /** Requests ready in this turn: committed together, so that concurrent batches share one commit. */
  private ready: ReadyRequest[] = [];

  constructor(
    private readonly core: IngestionPort,
    options: IngestOptions = {},
  ) {
    this.worker = options.thread === 'inline' ? null : new JobWorker<PrepareRequest, Prepared>({ name: 'ingestion/ingestWorker' });
    this.workerMinBytes = options.workerMinBytes ?? 8 * 1024;
  }

  async handle(req: IngestRequest): Promise<IngestResponse> {
    const request: PrepareRequest = {
      method: req.method,
      path: req.path,
      contentType: header(req.headers['content-type']),
      contentEncoding: header(req.headers['content-encoding']),
      authorization: header(req.headers['authorization']),
      body: req.body,
      clientIp: req.clientIp,
      receivedAt: this.core.clock.now(),
    };
    let prepared: Prepared;
    if (this.worker && req.body.length >= this.workerMinBytes) {
      // A body in a buffer of its own is moved, not copied: a large body's copy costs both threads.
      const body = req.body;
      const own = body.buffer instanceof ArrayBuffer && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body.buffer : null;
      const movable = req.bodyAgain !== undefined && own !== null;
      try {
        prepared = await this.worker.run(request, movable ? [own] : []);
      } catch (e) {
        // The thread died (it is restarted with the next request); the body can still be read: do it here.
        console.warn(`hookbench: the ingestion thread failed (${(e as Error).message}); this request is handled on the main thread`);
        prepared = prepareIngest(movable ? { ...request, body: req.bodyAgain!() } : request);
      }
    } else {
      prepared = prepareIngest(request);
    }
    return this.complete(req, request.receivedAt, prepared);
  }

  /** The engine's half: the write key's source, the refusal log and usage, then the commit. */
  private complete(req: IngestRequest, receivedAt: number, prepared: Prepared): IngestResponse | Promise<IngestResponse> {
    if (prepared.kind === 'answer') return prepared;
    const core = this.core;
    const refuse = (source: Source | null, status: number, error: ApiError): IngestResponse => {
      core.logRefusal({
        receivedAt: core.clock.now(),
        sourceId: source?.id ?? null,
        route: req.path,
        clientIp: req.clientIp,
        httpStatus: status,
        code: error.code,
        message: loggedMessage(error),
        field: error.field ?? null,
        index: error.index ?? null,
        limit: error.limit ?? null,
        bodyBytes: prepared.bodyBytes,
        bodyPreview: previewOf(prepared.preview),
      });
      return { status, headers: CORS, body: { error } };
    };
    // A body that could not be read still came with the write key of its Authorization header, if any: its source's refusal.
    if (prepared.kind === 'refused' && prepared.stage === 'request') return refuse(prepared.writeKey ? core.sourceByWriteKey(prepared.writeKey) : null, prepared.status, prepared.error);

    const { writeKey } = prepared;
    if (!writeKey) {
      // A key sent where ingestion does not read it is named as such (and its source, when it is one's): "missing" alone sends the user looking for a key they did send.
      const misplaced = misplacedWriteKey(header(req.headers['authorization']));
      const owner = misplaced ? core.sourceByWriteKey(misplaced.key) : null;
      const sent = misplaced ? `the request has ${misplaced.sent}${owner ? ` (the write key of source ${JSON.stringify(owner.name)})` : ''}; ` : '';
      return refuse(owner ?? null, 401, { code: 'unauthorized', message: `missing write key: ${sent}send Basic auth with the write key as the user name and an empty password, or "writeKey" in the body` });
    }
    const source = core.sourceByWriteKey(writeKey);
    if (!source) return refuse(null, 401, { code: 'unauthorized', message: unknownWriteKey(writeKey) });
    if (prepared.kind === 'refused') {
      // Refusals after the source is known count toward its usage.
      core.countRefused(source.id, prepared.calls);
      return refuse(source, prepared.status, prepared.error);
    }
    return new Promise((done) => {
      this.ready.push({ source, receivedAt, prepared, done });
      if (this.ready.length === 1) setImmediate(() => this.commitReady());
    });
  }

  /**
   * One transaction for every request that became ready in this turn; each is answered only after it. Should
   * that transaction fail, each request is committed on its own, so that one bad request fails alone.
   */
  private commitReady(): void {
    const batch = this.ready;
    this.ready = [];
    const health = this.core.health;
    // Never a 200 for what cannot be kept (docs/behaviour.md §10): a database gone, replaced or damaged
    // takes nothing. One stat() before the commit (so nothing is written to a deleted file) and one after it
    // (the file was still the one written): per commit, not per message, so the cost is negligible.
    const unavailable = (error: ApiError): IngestResponse => ({ status: 503, headers: { ...CORS, 'retry-after': '60' }, body: { error } });
    const answer = (r: ReadyRequest, stored: boolean) => {
      const problem = health.problem ?? (stored ? health.verify() : null);
      r.done(problem ? unavailable(problem) : ACCEPTED);
    };
    if (health.verify()) {
      for (const r of batch) r.done(unavailable(health.problem!));
      return;
    }
    const store = (r: ReadyRequest) => this.core.ingest({ source: r.source, receivedAt: r.receivedAt, calls: r.prepared.calls, bodies: r.prepared.bodies });
    try {
      this.core.transaction(() => batch.forEach(store));
      health.verify();
      for (const r of batch) answer(r, false);
    } catch {
      for (const r of batch) {
        try {
          store(r);
          answer(r, true);
        } catch (e) {
          if (isCorruptionError(e)) health.fail(corruptionError(health.file, (e as Error).message));
          if (health.problem) {
            r.done(unavailable(health.problem));
            continue;
          }
          if (isWriteFailure(e)) {
            // A full disk (or an I/O error): this request is refused, the next one may fit (docs/behaviour.md §10).
            r.done(unavailable(health.writeFailed(e)));
            continue;
          }
          console.error('hookbench: storing an ingestion request failed', e);
          r.done({ status: 500, headers: CORS, body: { error: { code: 'internal', message: 'the calls could not be stored; nothing of this request was kept' } } });
        }
      }
    }
  }

  close(): Promise<void> {
    return this.worker?.close() ?? Promise.resolve();
  }
}

function header(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/**
 * The refused body as the ingest log keeps it: its write keys and Authorization values shown only by their
 * edges (docs/behaviour.md §9 Logs). Only refusals pay for this; accepted requests keep no preview.
 */
function previewOf(preview: Uint8Array): Buffer {
  const bytes = Buffer.from(preview.buffer, preview.byteOffset, preview.byteLength);
  const text = bytes.toString('utf8');
  const redacted = redactJsonCredentials(text);
  return redacted === text ? bytes : Buffer.from(redacted, 'utf8');
}

/**
 * The refusal of a key no source has. A short key shows nothing of itself, so two of them would read alike (and
 * the log would count the second as a repeat of the first): its length and fingerprint tell them apart.
 */
function unknownWriteKey(writeKey: string): string {
  const shown = maskKeyEdges(writeKey);
  return shown.includes('…') ? `unknown write key "${shown}"` : `unknown write key "${shown}" (${writeKey.length} characters, fingerprint ${secretFingerprint(writeKey)})`;
}

/** Problems a refusal's log row spells out; past them it counts the rest. */
const LOGGED_PROBLEMS = 10;

/**
 * A refusal as its ingest-log row says it: every problem of a batch, not only the first, since the log is where
 * a user reads what an SDK's refused batch held (SDKs seldom show the answer's `problems`).
 */
export function loggedMessage(error: ApiError): string {
  const problems = eachProblem(error);
  if (problems.length === 1) return error.message;
  const shown = problems.slice(0, LOGGED_PROBLEMS).map((p) => p.message);
  const rest = problems.length - shown.length;
  return `${problems.length} problems: ${shown.join('; ')}${rest > 0 ? `; and ${rest} more` : ''}`;
}
