/**
 * Receivers with known faults for the endpoint check's tests: one that does everything right, and one
 * fault each (accepts any signature, 500 on a bad signature, 409 on a duplicate, chokes on keys with
 * spaces, never answers one shape, requires a charset, verifies the signature a classic wrong way, handles
 * one request at a time, ...). All are handlers for test/helpers/receiver.ts.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Captured, Respond } from './receiver.js';

/** The classic ways a receiver computes X-Signature wrong (each a SignatureMistake the check names). */
export type ReceiverMistake = 'sha256' | 'base64' | 'sha1-prefix' | 'reserialised' | 'trailing-newline-added' | 'secret-whitespace' | 'secret-newline' | 'uppercase-hex';

export const SECRET = 'whsec-check-test';

export interface Faults {
  /** Answer 2xx whatever the signature. */
  acceptsAnySignature?: boolean;
  /** Answer 500 (not 401) when the signature is wrong or missing. */
  serverErrorOnBadSignature?: boolean;
  /** Answer 409 to a messageId seen before. */
  conflictOnDuplicate?: boolean;
  /** Answer 500 when any key of the body has a space in it (alias's "Previous ID"). */
  chokesOnKeysWithSpaces?: boolean;
  /** Answer 400 to messages of any other type (a receiver that handles a few types and refuses the rest). */
  handlesOnlyTypes?: string[];
  /** Never answer anything, forgeries included (a receiver reading the body until the connection closes). */
  neverAnswers?: boolean;
  /** Never answer a request whose X-Signature does not verify (slow work before verifying), and answer valid ones. */
  leavesForgeriesUnanswered?: boolean;
  /** Never answer messages of this type (the check's timeout ends them). */
  neverAnswersType?: string;
  /** Answer 415 unless Content-Type says charset=utf-8. */
  requiresCharset?: boolean;
  /** Answer 503 to burst requests past this one (their properties.n). */
  overloadedPast?: number;
  /** Send headers, then never finish the body. */
  stallsBody?: boolean;
  /** Answer 200 with neither Content-Length nor chunked encoding, and keep the connection open (http.server with HTTP/1.1). */
  unframedAnswer?: boolean;
  /** Send headers and part of the body its Content-Length announces, then close the connection. */
  closesMidBody?: boolean;
  /** Verify X-Signature this wrong way (401 when it does not match). */
  signatureMistake?: ReceiverMistake;
  /** Answer the requests one at a time, each taking this many ms (a single-threaded server doing its work before answering). */
  oneAtATimeMs?: number;
  /** Answer 500 to the first request without charset=utf-8 (a receiver failing now and then, not one that needs a charset). */
  failsOnceWithoutCharset?: boolean;
  /** Answer 413 to a body larger than this many bytes (a body parser's limit), with express's HTML error page. */
  bodyLimit?: number;
  /** Answer every request 429 (Retry-After: 120) before looking at it: a rate limiter in front of everything. */
  rateLimitsEverything?: boolean;
  /** Answer every request 301 to this Location before looking at it (a router that wants a trailing slash). */
  redirectsTo?: string;
  /** Answer every valid request with this status (and headers). */
  status?: number;
  headers?: Record<string, string>;
  body?: string;
}

function signatureValid(secret: string, req: Captured): boolean {
  const given = req.headers['x-signature'];
  if (typeof given !== 'string' || !/^[0-9a-fA-F]{40}$/.test(given)) return false;
  const expected = createHmac('sha1', secret).update(req.body).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}

/** What a receiver making `mistake` expects in X-Signature for this request. */
function mistakenSignature(mistake: ReceiverMistake, secret: string, body: Buffer): string {
  switch (mistake) {
    case 'sha256':
      return createHmac('sha256', secret).update(body).digest('hex');
    case 'base64':
      return createHmac('sha1', secret).update(body).digest('base64');
    case 'sha1-prefix':
      return `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;
    case 'reserialised':
      return createHmac('sha1', secret).update(JSON.stringify(JSON.parse(body.toString('utf8')))).digest('hex');
    case 'trailing-newline-added':
      return createHmac('sha1', secret).update(Buffer.concat([body, Buffer.from('\n')])).digest('hex');
    case 'secret-whitespace':
      return createHmac('sha1', secret.trim()).update(body).digest('hex');
    case 'secret-newline':
      return createHmac('sha1', `${secret}\n`).update(body).digest('hex');
    case 'uppercase-hex':
      return createHmac('sha1', secret).update(body).digest('hex').toUpperCase();
  }
}

const hasKeyWithSpace = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && Object.entries(v).some(([k, inner]) => k.includes(' ') || hasKeyWithSpace(inner));

/** What express.json() answers (outside production) to a body over its limit: an HTML page with the stack. */
const EXPRESS_413 =
  '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n' +
  '<pre>PayloadTooLargeError: request entity too large<br> &nbsp; &nbsp;at readStream (/app/node_modules/raw-body/index.js:163:17)</pre>\n</body>\n</html>\n';

/** A receiver that verifies X-Signature, answers 2xx to duplicates, and has the faults asked for. */
export function checkReceiver(faults: Faults = {}, secret: string = SECRET): Respond {
  const seen = new Set<string>();
  let failedOnce = false;
  let queue: Promise<void> = Promise.resolve();
  const respond: Respond = (req, res) => {
    if (faults.neverAnswers) return;
    if (faults.bodyLimit !== undefined && req.body.length > faults.bodyLimit) {
      res.writeHead(413, { 'content-type': 'text/html; charset=utf-8' }).end(EXPRESS_413);
      return;
    }
    if (faults.redirectsTo !== undefined) {
      res.writeHead(301, { location: faults.redirectsTo }).end();
      return;
    }
    if (faults.rateLimitsEverything) {
      res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '120' }).end('slow down');
      return;
    }
    if (faults.failsOnceWithoutCharset && !failedOnce && !/charset=utf-8/i.test(String(req.headers['content-type']))) {
      failedOnce = true;
      res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
      return;
    }
    if (faults.requiresCharset && !/charset=utf-8/i.test(String(req.headers['content-type']))) {
      res.writeHead(415, { 'content-type': 'text/plain' }).end('charset=utf-8 required');
      return;
    }
    if (faults.signatureMistake) {
      const given = String(req.headers['x-signature'] ?? '');
      if (given !== mistakenSignature(faults.signatureMistake, secret, req.body)) {
        res.writeHead(401, { 'content-type': 'text/plain' }).end('invalid signature');
        return;
      }
    } else if (!faults.acceptsAnySignature && !signatureValid(secret, req)) {
      if (faults.leavesForgeriesUnanswered) return;
      res.writeHead(faults.serverErrorOnBadSignature ? 500 : 401, { 'content-type': 'text/plain' }).end('invalid signature');
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(req.body.toString('utf8')) as Record<string, unknown>;
    } catch {
      res.writeHead(400).end('not JSON');
      return;
    }
    if (faults.neverAnswersType === body['type']) return;
    if (faults.handlesOnlyTypes && !faults.handlesOnlyTypes.includes(String(body['type']))) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `unsupported event type ${String(body['type'])}` }));
      return;
    }
    if (faults.chokesOnKeysWithSpaces && hasKeyWithSpace(body)) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('TypeError: cannot read "Previous ID"');
      return;
    }
    const n = (body['properties'] as { n?: number } | undefined)?.n;
    if (faults.overloadedPast !== undefined && typeof n === 'number' && n > faults.overloadedPast) {
      res.writeHead(503).end('overloaded');
      return;
    }
    const id = String(body['messageId']);
    if (seen.has(id) && faults.conflictOnDuplicate) {
      res.writeHead(409, { 'content-type': 'application/json' }).end('{"error":"duplicate messageId"}');
      return;
    }
    seen.add(id);
    if (faults.unframedAnswer) {
      // Written on the socket itself: Node's own response would add chunked encoding.
      res.socket?.write('HTTP/1.1 200 OK\r\nServer: BaseHTTP/0.6 Python/3.11\r\n\r\n');
      return;
    }
    if (faults.closesMidBody) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"ok":', () => res.socket?.destroy());
      return;
    }
    if (faults.stallsBody) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('accepted, still writing…');
      return;
    }
    res.writeHead(faults.status ?? 200, { 'content-type': 'text/plain', ...faults.headers }).end(faults.body ?? 'ok');
  };
  const ms = faults.oneAtATimeMs;
  if (ms === undefined) return respond;
  // Each request waits for the one before it, then takes `ms`: concurrent requests queue up.
  return (req, res) => {
    queue = queue.then(() => new Promise<void>((done) => setTimeout(() => {
      respond(req, res);
      done();
    }, ms)));
  };
}
