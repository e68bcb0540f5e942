/**
 * The mock receiver's decisions, pure (no I/O): which step of a response script answers the n-th request,
 * what it is called, which headers it sends, what a request's X-Signature verdict is, and which engine
 * message a body belongs to. The sockets live in main/receiver.
 */
import { describeStep, sequenceIndex, type CaptureStep, type ResponseScript, type ScriptStep, type SignatureCheck } from '../contract/receiver/receiver.js';
import { signBody } from './signature.js';

export { describeScript, describeStep } from '../contract/receiver/receiver.js';
import { diagnoseSignature } from './signatureDiagnosis.js';

export interface ChosenStep {
  step: ScriptStep;
  /** What the capture records about it. */
  capture: CaptureStep;
}

/**
 * A deterministic unit-interval value for (seed, request number): a failure-rate script fails the same
 * requests every time it runs with the same seed, also after a restart.
 */
export function requestUnit(seed: number, request: number): number {
  let h = (seed ^ 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (request >>> 0), 0xcc9e2d51) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x1b873593) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return h / 0x1_0000_0000;
}

/** The step that answers the request after `answered` earlier ones under this script. */
export function chooseStep(script: ResponseScript, answered: number): ChosenStep {
  const request = answered + 1;
  if (script.mode === 'failureRate') {
    const fails = requestUnit(script.seed, request) < script.rate;
    const step = fails ? script.failure : script.success;
    return { step, capture: captureStep(step, fails ? 1 : 0, request, `${fails ? 'failure' : 'success'} (rate ${script.rate}): ${describeStep(step)}`) };
  }
  const count = script.steps.length;
  const index = sequenceIndex(script, answered);
  const step = script.steps[index]!;
  const label = count === 1 ? describeStep(step) : `step ${index + 1} of ${count}: ${describeStep(step)}`;
  return { step, capture: captureStep(step, index, request, label) };
}

function captureStep(step: ScriptStep, index: number, request: number, label: string): CaptureStep {
  return {
    index,
    request,
    label,
    action: step.action,
    status: step.action === 'respond' ? step.status : null,
    delayMs: step.delayMs,
  };
}

/** The answer to a path that names no endpoint: 404, and the list of endpoints in the body. */
export function unmatchedStep(): CaptureStep {
  return { index: null, request: null, label: 'unknown endpoint: 404', action: 'respond', status: 404, delayMs: 0 };
}

/** The answer to a request refused for its signature (Refuse invalid signatures): 401, before the script. */
export function refusedStep(verdict: 'invalid' | 'missing'): CaptureStep {
  return { index: null, request: null, label: `refused, signature ${verdict}: 401`, action: 'respond', status: 401, delayMs: 0 };
}

/**
 * The 401's JSON body: which of the two it was, and what a sender must do. Never the expected signature nor
 * the diagnosis: a receiver that told them would help a forger (the workbench shows both in the capture).
 */
export function refusedBody(verdict: 'invalid' | 'missing'): string {
  const detail =
    verdict === 'missing'
      ? 'the request has no X-Signature header; this endpoint refuses requests that are not signed with its secret'
      : "X-Signature does not match the body; this endpoint refuses requests not signed with its secret (HMAC-SHA1 of the exact body bytes, lowercase hex)";
  return JSON.stringify({ error: `${verdict} signature`, verdict, detail });
}

/** How many endpoints a 404 names: the nearest to the path asked for (a mistyped name finds its own). */
export const UNKNOWN_ENDPOINT_LISTED = 10;

export function unknownEndpointBody(path: string, endpoints: readonly { name: string; url: string | null }[]): string {
  const asked = (path.startsWith('/r/') ? path.slice(3) : path.replace(/^\//, '')).split(/[/?]/)[0]!.toLowerCase();
  const shared = (name: string) => {
    let n = 0;
    const lower = name.toLowerCase();
    while (n < lower.length && n < asked.length && lower[n] === asked[n]) n++;
    return n;
  };
  const listed = endpoints.length <= UNKNOWN_ENDPOINT_LISTED ? endpoints : [...endpoints].sort((a, b) => shared(b.name) - shared(a.name) || a.name.localeCompare(b.name)).slice(0, UNKNOWN_ENDPOINT_LISTED);
  const more = endpoints.length - listed.length;
  const known = endpoints.length
    ? `known endpoints: ${listed.map((e) => `/r/${e.name}`).join(', ')}${more > 0 ? `, and ${more.toLocaleString('en-US')} more (listReceivers lists them all)` : ''}`
    : 'no endpoints are defined yet';
  return JSON.stringify({
    error: { code: 'unknown_receiver', message: `no receiver endpoint at ${path.length > 200 ? `${path.slice(0, 200)}…` : path}: endpoints answer at /r/<name>; ${known}` },
    receivers: listed.map((e) => ({ name: e.name, url: e.url })),
    receiverCount: endpoints.length,
  });
}

/**
 * The headers a `respond` step sends: its own, Retry-After when set, and a Content-Type for a body that
 * has none (JSON when it parses as JSON).
 */
export function responseHeaders(step: ScriptStep): Record<string, string> {
  const headers: Record<string, string> = { ...step.headers };
  const names = new Set(Object.keys(headers).map((h) => h.toLowerCase()));
  if (step.retryAfter !== null) headers['Retry-After'] = String(step.retryAfter);
  if (step.body !== '' && !names.has('content-type')) headers['Content-Type'] = looksLikeJson(step.body) ? 'application/json' : 'text/plain; charset=utf-8';
  return headers;
}

function looksLikeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The X-Signature verdict for an endpoint with a secret. `fullBodyDigest` is given when the capture keeps
 * only the start of a large body: the verdict then compares with the digest of every byte received, and the
 * usual mistakes are not tried (they need the whole body).
 */
export function checkSignature(args: { secret: string; body: Uint8Array; given: string | undefined; fullBodyDigest?: string }): SignatureCheck {
  const { secret, body, given, fullBodyDigest } = args;
  if (given === undefined) {
    const expected = fullBodyDigest ?? signBody(secret, body);
    return { verdict: 'missing', given: null, expected, diagnosis: null };
  }
  if (fullBodyDigest !== undefined) {
    const matches = given.trim().toLowerCase() === fullBodyDigest;
    return {
      verdict: matches ? 'valid' : 'invalid',
      given,
      expected: fullBodyDigest,
      diagnosis: matches ? null : { mistakes: ['unknown'], explanation: 'does not match; the body is too large to try the usual mistakes' },
    };
  }
  const d = diagnoseSignature({ secret, body, signature: given });
  if (d.matches) return { verdict: 'valid', given, expected: d.expected, diagnosis: null };
  return { verdict: 'invalid', given, expected: d.expected, diagnosis: { mistakes: d.mistakes, explanation: d.explanation } };
}

/** The engine's `messageId` in a JSON object body (docs/behaviour.md §1: every message carries one). */
export function messageIdOf(body: Uint8Array): string | null {
  let i = 0;
  while (i < body.length && (body[i] === 0x20 || body[i] === 0x09 || body[i] === 0x0a || body[i] === 0x0d)) i++;
  if (body[i] !== 0x7b) return null; // not a JSON object: not worth parsing
  try {
    const parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body)) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    const id = (parsed as Record<string, unknown>)['messageId'];
    return typeof id === 'string' && id !== '' ? id : null;
  } catch {
    return null;
  }
}

/** `/r/orders/extra?x=1` → `orders`; null when the path names no endpoint. */
export function receiverNameOf(path: string): string | null {
  const m = /^\/r\/([^/?#]+)/.exec(path);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1]!;
  }
}
