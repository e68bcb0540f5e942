/**
 * Receivers with known faults for the endpoint check's tests: one that does everything right, and one
 * fault each (accepts any signature, 500 on a bad signature, 409 on a duplicate, chokes on keys with
 * spaces, never answers one shape, requires a charset, ...). All are handlers for test/helpers/receiver.ts.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Captured, Respond } from './receiver.js';

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
  /** Never answer messages of this type (the check's timeout ends them). */
  neverAnswersType?: string;
  /** Answer 415 unless Content-Type says charset=utf-8. */
  requiresCharset?: boolean;
  /** Answer 503 to burst requests past this one (their properties.n). */
  overloadedPast?: number;
  /** Send headers, then never finish the body. */
  stallsBody?: boolean;
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

const hasKeyWithSpace = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && Object.entries(v).some(([k, inner]) => k.includes(' ') || hasKeyWithSpace(inner));

/** A receiver that verifies X-Signature, answers 2xx to duplicates, and has the faults asked for. */
export function checkReceiver(faults: Faults = {}, secret: string = SECRET): Respond {
  const seen = new Set<string>();
  return (req, res) => {
    if (faults.requiresCharset && !/charset=utf-8/i.test(String(req.headers['content-type']))) {
      res.writeHead(415, { 'content-type': 'text/plain' }).end('charset=utf-8 required');
      return;
    }
    if (!faults.acceptsAnySignature && !signatureValid(secret, req)) {
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
    if (faults.stallsBody) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('accepted, still writing…');
      return;
    }
    res.writeHead(faults.status ?? 200, { 'content-type': 'text/plain', ...faults.headers }).end(faults.body ?? 'ok');
  };
}
