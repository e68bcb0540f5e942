/**
 * One request to the mock receiver: its body read (the first MiB kept, the whole of it signed over), the
 * endpoint's script step chosen and performed (respond, reset, close, never, after a delay), the X-Signature
 * verdict (an endpoint that refuses invalid signatures answers a bad one 401 instead of its script), and the
 * capture handed to be stored.
 */
import { createHmac, type Hmac } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { RECEIVER_LIMITS, type ScriptStep } from '../contract/receiver/receiver.js';
import { checkSignature, chooseStep, messageIdOf, receiverNameOf, refusedBody, refusedStep, responseHeaders, unmatchedStep } from '../domain/receiverScript.js';
import { signBody } from '../domain/signature.js';
import { engineSentVerdict } from '../domain/receiverVerdict.js';
import type { Sender } from './expectedRequests.js';
import type { NewCapture, StoredReceiver } from './receiverStore.js';

/** What answering a request asks of the receiver. */
export interface RequestHandlerDeps {
  /** Engine time, for arrival times. */
  clock: { now(): number };
  /** The endpoint that answers requests to a path that names none (`hookbench receive` answers every path). */
  fallbackReceiver?: string | undefined;
  /** An endpoint by name, as it is now (its script position moves as it answers). */
  endpoint: (name: string) => StoredReceiver | undefined;
  /** Who sent these bytes to this path, if the workbench did: an engine's attempt, or the check directly (expectedRequests.ts). */
  senderOf: (listener: 'http' | 'https', path: string, body: Buffer, size: number, truncated: boolean, headers: IncomingHttpHeaders) => Sender | null;
  /** Stores the capture and announces it (null: none is kept, the check's load); `position` is the endpoint's script position after this request. */
  record: (capture: NewCapture | null, position: { name: string; answered: number } | null) => number | null;
  /** The client of capture `id` closed the connection `afterMs` after it arrived, before its answer went out. */
  clientClosed: (id: number, afterMs: number) => void;
  /** The 404 body for a path that names no endpoint. */
  unknownEndpoint: (path: string) => string;
}

export class RequestHandler {
  /** Answers waiting out their step's delay. */
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly deps: RequestHandlerDeps) {}

  /** Answers not given yet, and those the receiver's stop dropped (their clients did not close them). */
  private readonly unanswered = new Set<ServerResponse>();
  private readonly dropped = new WeakSet<ServerResponse>();

  /** Drops the answers still waiting on a delay (the receiver stops). */
  clearTimers(): void {
    for (const res of this.unanswered) this.dropped.add(res);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** Answers one request by its endpoint's script, and has it captured. */
  handle(listener: 'http' | 'https', req: IncomingMessage, res: ServerResponse): void {
    const arrivedAt = this.deps.clock.now();
    const path = req.url ?? '/';
    const named = receiverNameOf(path);
    const fallback = this.deps.fallbackReceiver;
    const endpointName = named !== null && this.deps.endpoint(named) ? named : fallback && this.deps.endpoint(fallback) ? fallback : null;
    const secretAtArrival = endpointName === null ? null : (this.deps.endpoint(endpointName)?.secret ?? null);
    // The whole body is signed over even when only its first MiB is kept.
    const hmac = secretAtArrival === null ? null : createHmac('sha1', secretAtArrival);
    const cap = RECEIVER_LIMITS.captureBodyBytes;
    const chunks: Buffer[] = [];
    let size = 0;
    let kept = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      hmac?.update(chunk);
      if (kept < cap) {
        const part = chunk.length > cap - kept ? chunk.subarray(0, cap - kept) : chunk;
        chunks.push(part);
        kept += part.length;
      }
    });
    req.on('error', () => res.destroy()); // the client went away mid-body: nothing complete to capture
    req.on('end', () => {
      // One request must never take the process down: whatever goes wrong is logged, and the
      // request is answered 500 if its script could not answer it.
      try {
        this.onBody(listener, req, res, { path, named, endpointName, secretAtArrival, hmac, arrivedAt, body: Buffer.concat(chunks, kept), size });
      } catch (e) {
        // The path without its query string: a query may carry a credential (docs/behaviour.md §9 Logs).
        console.error(`hookbench receiver: handling ${req.method ?? ''} ${path.split('?')[0]} failed`, e);
        if (!res.headersSent && !res.destroyed) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('hookbench receiver: internal error; see its log\n');
      }
    });
  }

  private onBody(
    listener: 'http' | 'https',
    req: IncomingMessage,
    res: ServerResponse,
    r: { path: string; named: string | null; endpointName: string | null; secretAtArrival: string | null; hmac: Hmac | null; arrivedAt: number; body: Buffer; size: number },
  ): void {
    const { path, named, endpointName, secretAtArrival, hmac, arrivedAt, body, size } = r;
    const truncated = size > body.length;
    const endpoint = endpointName === null ? undefined : this.deps.endpoint(endpointName);
    const given = req.headers['x-signature'];
    const signature =
      endpoint?.secret != null
        ? guardedSignatureCheck({
            secret: endpoint.secret,
            body,
            given: Array.isArray(given) ? given[0] : given,
            ...(truncated && hmac && endpoint.secret === secretAtArrival ? { fullBodyDigest: hmac.digest('hex') } : {}),
          })
        : null;
    // A correct receiver turns a forgery away before doing anything else: the script neither answers it nor moves on.
    const refused = endpoint?.refuseInvalidSignatures && signature && signature.verdict !== 'valid' ? signature.verdict : null;
    let step: ScriptStep | null = null;
    let position: { name: string; answered: number } | null = null;
    let captureStep = unmatchedStep();
    if (refused) {
      captureStep = refusedStep(refused);
    } else if (endpoint) {
      const chosen = chooseStep(endpoint.script, endpoint.answered);
      endpoint.answered += 1;
      position = { name: endpoint.name, answered: endpoint.answered };
      step = chosen.step;
      captureStep = chosen.capture;
    }
    const sender = this.deps.senderOf(listener, path, body, size, truncated, req.headers);
    const verdict = endpoint ? engineSentVerdict(signature, sender?.attempt ?? null, endpoint.name) : signature;
    const capture: NewCapture = {
      receiver: endpoint?.name ?? named,
      matched: endpoint !== undefined,
      listener,
      method: req.method ?? '',
      path,
      rawHeaders: pairs(req.rawHeaders),
      body,
      bodySize: size,
      bodyTruncated: truncated,
      arrivedAt,
      remoteAddress: req.socket.remoteAddress ?? null,
      step: captureStep,
      signature: verdict,
      messageId: truncated ? null : messageIdOf(body),
      attempt: sender?.attempt ?? null,
      sentBy: sender?.sentBy ?? null,
    };
    const id = this.deps.record(sender?.sentBy === 'check' && sender.load === true ? null : capture, position);
    if (refused) res.writeHead(401, { 'Content-Type': 'application/json' }).end(refusedBody(refused));
    else if (step) {
      const arrived = performance.now();
      // An answer the client did not wait for was never given: the capture says so rather than what was planned.
      if (id !== null && step.action !== 'reset' && step.action !== 'close') {
        this.unanswered.add(res);
        res.once('close', () => {
          this.unanswered.delete(res);
          if (!res.writableFinished && !this.dropped.has(res)) this.deps.clientClosed(id, Math.round(performance.now() - arrived));
        });
      }
      this.perform(step, req, res);
    }
    else res.writeHead(404, { 'Content-Type': 'application/json' }).end(this.deps.unknownEndpoint(path));
  }

  private perform(step: ScriptStep, req: IncomingMessage, res: ServerResponse): void {
    if (step.action === 'never') return; // the connection stays open until the client gives up or stop()
    const act = () => {
      if (res.destroyed) return;
      switch (step.action) {
        case 'respond':
          res.writeHead(step.status, responseHeaders(step)).end(step.body);
          return;
        case 'reset':
          // TCP RST: the client sees ECONNRESET.
          try {
            req.socket.resetAndDestroy();
          } catch {
            req.socket.destroy();
          }
          return;
        case 'close':
          req.socket.destroy(); // FIN without a response
          return;
      }
    };
    const guardedAct = () => {
      try {
        act();
      } catch (e) {
        console.error('hookbench receiver: answering a request failed', e);
        res.destroy();
      }
    };
    if (step.delayMs <= 0) return guardedAct();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      guardedAct();
    }, step.delayMs);
    this.timers.add(timer);
    res.on('close', () => {
      // The client gave up (its timeout) or the receiver stopped: nothing left to answer.
      clearTimeout(timer);
      this.timers.delete(timer);
    });
  }
}

/**
 * The X-Signature verdict, isolated: should the diagnosis fail on some body, the verdict still stands (a
 * plain comparison) and the capture says that the diagnosis failed.
 */
function guardedSignatureCheck(args: Parameters<typeof checkSignature>[0]): ReturnType<typeof checkSignature> {
  try {
    return checkSignature(args);
  } catch (e) {
    console.error('hookbench receiver: the signature diagnosis failed', e);
    const expected = args.fullBodyDigest ?? signBody(args.secret, args.body);
    if (args.given === undefined) return { verdict: 'missing', given: null, expected, diagnosis: null };
    const matches = args.given.trim().toLowerCase() === expected;
    return {
      verdict: matches ? 'valid' : 'invalid',
      given: args.given,
      expected,
      diagnosis: matches ? null : { mistakes: ['unknown'], explanation: `does not match; the diagnosis failed (${e instanceof Error ? e.message : String(e)})` },
    };
  }
}

function pairs(raw: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}
