/**
 * The one runner of the built-in battery and of user scenarios: a check plans its requests (a message built
 * by the engine's own body builder, signed, or forged), the runner sends them through the forwarder's code
 * and keeps each exchange as evidence, then the check judges them.
 */
import { randomUUID } from 'node:crypto';
import type { CheckExchange, CheckVerdict } from '../contract/check/check.js';
import { CHECK_LIMITS, type CheckArea, type CheckScenario, type SignMode } from '../contract/check/checkInputs.js';
import { LIMITS, type MessageType } from '../contract/message/messageShapes.js';
import type { Webhook } from '../contract/destinations.js';
import { buildMessage } from '../domain/messages.js';
import { maskHeaders, maskUrl } from '../domain/secrets.js';
import { signBody } from '../domain/signature.js';
import { diagnoseSignature } from '../domain/signatureDiagnosis.js';
import { prepareRequest } from '../delivery/webhookRequests.js';
import { storedHeaders } from '../store/deliveryRows.js';
import type { EngineRoute, EngineSigning } from './engineRoute.js';
import type { SendResult } from '../delivery/webhookRequests.js';
import type { CheckSender, CheckTiming } from './sender.js';
import { responseText } from './responseText.js';
import { redirectFix, redirectTarget } from './batteryParts.js';

/** What every check of a run shares. */
export interface CheckContext {
  url: string;
  secret: string | null;
  headers: Record<string, string>;
  caFile: string | null;
  burst: number;
  timing: CheckTiming;
  /** Every exchange of the run so far (the time checks read them). */
  readonly exchanges: readonly CheckExchange[];
  /** Those of them that were sent all at once (the burst): a slow answer there may be queueing, not work. */
  readonly concurrentExchanges?: ReadonlySet<CheckExchange>;
  /** Sends what the destination itself can send through the engine (attempt records); null: all direct. */
  engine?: EngineRoute | null;
  /** The workbench's own mock receiver endpoint at this URL, when it is one: its answers come from its script. */
  mockEndpoint?: { name: string; refuseInvalidSignatures: boolean; hasSecret: boolean } | null;
  /** Tells the workbench's own receiver a request the check sends directly (its capture says so); returns what to call once answered. */
  expectDirect?: ((url: string, body: Uint8Array) => (() => void) | null) | null;
  /** expectDirect for the capacity run's load: the workbench's own endpoint answers it and keeps no capture of it. */
  expectLoad?: ((url: string, body: Uint8Array) => (() => void) | null) | null;
}

/** One request a check wants sent. */
export interface RequestSpec {
  label: string;
  /** A message as the destination builds it… */
  message?: { type: MessageType; call: Record<string, unknown> } | undefined;
  /** …or the exact body (a JSON value serialised once, or a string's UTF-8 bytes). */
  body?: string | Record<string, unknown> | undefined;
  headers?: Record<string, string> | undefined;
  contentType?: string | undefined;
  sign: SignMode;
  /** Send the very same bytes this many times, one after another. */
  repeat?: number | undefined;
}

export interface Judgement {
  verdict: CheckVerdict;
  detail: string;
  fix?: string | null | undefined;
}

export interface Check {
  id: string;
  title: string;
  area: CheckArea;
  /** What a user scenario would say to make this request (the built-in battery is written as scenarios). */
  scenario: CheckScenario | null;
  /** Whether it is run for this context (the forgeries need a secret; their warning needs none). */
  applies?: (ctx: CheckContext) => boolean;
  /** Requests sent one after another (repeat), or all at once when `concurrent`. */
  requests(ctx: CheckContext): RequestSpec[];
  concurrent?: boolean;
  judge(exchanges: CheckExchange[], ctx: CheckContext, elapsedMs: number): Judgement;
}

/** A call the builder refused is a mistake in the battery or the scenario: named, never sent. */
export class ScenarioError extends Error {}

export interface Prepared {
  label: string;
  headers: Record<string, string>;
  bytes: Uint8Array;
  /** What the signature diagnosis is asked about (the bytes that were signed may differ: tampered). */
  signatureSent: string | null;
  /** How the check forged it on purpose (its evidence says so, not what a receiver's mistake would be), or null. */
  forged?: string | null;
}

/** What each forgery does wrong on purpose, as its evidence says it. */
const FORGED: Partial<Record<NonNullable<RequestSpec['sign']>, string>> = {
  'wrong-secret': 'signed with another secret',
  tampered: 'the body changed after signing',
  'pretty-printed': 'signed over the body pretty-printed',
};

/** Another secret, for the forgery that signs with the wrong one. */
export const otherSecret = (secret: string): string => `${secret}-but-not-the-shared-secret`;

/** A body changed after signing: one more property the signer never saw. */
function tamper(body: Record<string, unknown>): Uint8Array {
  const props = (body['properties'] ?? body['traits']) as Record<string, unknown> | undefined;
  const changed = props ? { ...body, [body['properties'] ? 'properties' : 'traits']: { ...props, amount: 1_000_000 } } : { ...body, tampered: true };
  return Buffer.from(JSON.stringify(changed), 'utf8');
}

export function prepare(spec: RequestSpec, ctx: CheckContext): Prepared {
  let bytes: Uint8Array;
  let object: Record<string, unknown> | null = null;
  if (spec.message) {
    const built = buildMessage(spec.message.type, spec.message.call, { receivedAt: Date.now(), newMessageId: randomUUID });
    if (!built.ok) throw new ScenarioError(`${spec.label}: the message cannot be built: ${built.error.field ? `${built.error.field}: ` : ''}${built.error.message}`);
    bytes = built.value.bytes;
    object = built.value.body;
  } else if (typeof spec.body === 'string') {
    bytes = Buffer.from(spec.body, 'utf8');
  } else {
    object = spec.body ?? {};
    bytes = Buffer.from(JSON.stringify(object), 'utf8');
  }
  const webhook: Webhook = { url: ctx.url, headers: { ...ctx.headers, ...spec.headers } };
  // The destination's own headers, signed as it signs; a forgery replaces what a forger would get wrong.
  const signing = spec.sign === 'none' ? null : ctx.secret;
  let sent = bytes;
  const headers = prepareRequest(webhook, signing, bytes).headers;
  if (signing) {
    switch (spec.sign) {
      case 'wrong-secret':
        headers['x-signature'] = signBody(otherSecret(signing), bytes);
        break;
      case 'tampered':
        sent = object ? tamper(object) : Buffer.concat([bytes, Buffer.from(' ')]);
        headers['content-length'] = String(sent.byteLength);
        break;
      case 'pretty-printed':
        headers['x-signature'] = signBody(signing, Buffer.from(JSON.stringify(object ?? jsonOf(spec.label, bytes), null, 2), 'utf8'));
        break;
      case 'uppercase-hex':
        headers['x-signature'] = headers['x-signature']!.toUpperCase();
        break;
      default:
        break;
    }
  }
  if (spec.contentType !== undefined) headers['content-type'] = spec.contentType;
  const forged = signing && spec.sign ? (FORGED[spec.sign] ?? null) : null;
  return { label: spec.label, headers, bytes: sent, signatureSent: headers['x-signature'] ?? null, forged };
}

/** A string body read as JSON (to sign it pretty-printed); one that is not JSON is the scenario's mistake, named. */
function jsonOf(label: string, bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
  } catch {
    throw new ScenarioError(`${label}: sign "pretty-printed" re-serialises the body as JSON, and this body is not JSON; give the body as an object, or another sign`);
  }
}

const clip = (text: string): { text: string; truncated: boolean } =>
  text.length > CHECK_LIMITS.evidenceBodyChars ? { text: text.slice(0, CHECK_LIMITS.evidenceBodyChars), truncated: true } : { text, truncated: false };

/** What the signature diagnosis makes of the X-Signature sent (null without a secret to check it against). */
function signatureEvidence(secret: string | null, bytes: Uint8Array, sent: string | null, forged: string | null = null): CheckExchange['signature'] {
  if (secret === null) return null;
  if (sent === null) return { sent: null, expected: signBody(secret, bytes), explanation: 'no X-Signature header was sent' };
  if (forged) return { sent, expected: signBody(secret, bytes), explanation: `forged on purpose (${forged}): a receiver must refuse it` };
  const d = diagnoseSignature({ secret, body: bytes, signature: sent });
  return { sent, expected: d.expected, explanation: d.explanation };
}

/** The destination itself can send it: a built message, its own headers and Content-Type, signed right, wrong or not at all. */
function engineSigning(spec: RequestSpec, ctx: CheckContext): EngineSigning | null {
  if (!spec.message || (spec.repeat ?? 1) !== 1 || spec.contentType !== undefined || (spec.headers && Object.keys(spec.headers).length > 0)) return null;
  if (spec.sign === 'none' || ctx.secret === null) return 'none';
  return spec.sign === 'valid' || spec.sign === 'wrong-secret' ? spec.sign : null;
}

/** Through the engine when it can (an attempt record to link), else null. */
async function viaEngine(spec: RequestSpec, ctx: CheckContext): Promise<CheckExchange | null> {
  const signing = ctx.engine ? engineSigning(spec, ctx) : null;
  if (!signing || !spec.message) return null;
  const ex = await ctx.engine!.deliver(spec.label, spec.message, signing);
  if (!ex) return null;
  return changed(ex, { signature: signatureEvidence(ctx.secret, Buffer.from(ex.request.body, 'utf8'), ex.request.headers['x-signature'] ?? null, signing === 'wrong-secret' ? FORGED['wrong-secret']! : null) });
}

/** A request signed with a given X-Signature over exactly `bytes`, with the destination's own headers: a diagnosis probe. */
export function prepareSigned(label: string, bytes: Uint8Array, signature: string, ctx: CheckContext): Prepared {
  const headers = prepareRequest({ url: ctx.url, headers: ctx.headers }, ctx.secret, bytes).headers;
  headers['x-signature'] = signature;
  return { label, headers, bytes, signatureSent: signature };
}

/** The exact bytes each direct exchange sent (its evidence keeps at most CHECK_LIMITS.evidenceBodyChars of them). */
const sentBodies = new WeakMap<CheckExchange, Uint8Array>();

/** The exact body bytes an exchange sent (what a probe re-signs). */
export function sentBytes(ex: CheckExchange): Uint8Array {
  return sentBodies.get(ex) ?? Buffer.from(ex.request.body, 'utf8');
}

/** Whether the request carried the correct X-Signature of the bytes it sent (hex case is not significant). */
export function signedValidly(ex: CheckExchange): boolean {
  return ex.signature !== null && ex.signature.sent !== null && ex.signature.sent.toLowerCase() === ex.signature.expected;
}

/** The response headers as they came, behind the masked ones the evidence keeps: a scenario's `header` expectation judges these. */
const receivedHeaders = new WeakMap<Record<string, string>, Record<string, string>>();

/** Response headers as evidence shows them: credential-like values masked, as request headers are. */
export function maskResponseHeaders(headers: Record<string, string>): Record<string, string> {
  const masked = maskHeaders(headers);
  if (masked !== headers) receivedHeaders.set(masked, headers);
  return masked;
}

/** Milliseconds from sending each exchange to its end (its body in, cut or given up), where known. */
const exchangeEnds = new WeakMap<CheckExchange, number>();

/** Records when an exchange ended, `ms` after it was sent. */
export function endedAfter(ex: CheckExchange, ms: number): CheckExchange {
  exchangeEnds.set(ex, ms);
  return ex;
}

/**
 * Why a response body is cut short: `stalled` when nothing more came until the body timeout (which starts
 * at the headers), `closed` when the connection ended before the body did. Null when the body is whole, or
 * cut where the destination stops keeping it (64 KiB). Without a recorded end, a cut body counts as stalled.
 */
export function bodyCut(ex: CheckExchange, timeoutMs: number): 'stalled' | 'closed' | null {
  if (ex.response === null || !ex.response.bodyTruncated || ex.response.body.length >= LIMITS.responseBodyBytes) return null;
  const ended = exchangeEnds.get(ex);
  return ended === undefined || ended - ex.durationMs >= timeoutMs ? 'stalled' : 'closed';
}

/** Sends one prepared request and keeps what happened as evidence. */
export async function exchange(sender: CheckSender, p: Prepared, ctx: CheckContext): Promise<CheckExchange> {
  const answered = ctx.expectDirect?.(ctx.url, p.bytes) ?? null;
  const started = performance.now();
  try {
    const result = await sender.send({ url: ctx.url, headers: p.headers, body: p.bytes, caFile: ctx.caFile });
    return endedAfter(evidenceOf(p, result, ctx), performance.now() - started);
  } finally {
    answered?.();
  }
}

/** What a sent request and its answer are as evidence (the capacity run keeps only a few of its requests so). */
export function evidenceOf(p: Prepared, result: SendResult, ctx: CheckContext): CheckExchange {
  const body = clip(Buffer.from(p.bytes).toString('utf8'));
  const responseBody = result.responseBody === null ? null : clip(result.responseBody);
  const signature = signatureEvidence(ctx.secret, p.bytes, p.signatureSent, p.forged ?? null);
  const ex: CheckExchange = {
    label: p.label,
    request: { method: 'POST', url: maskUrl(ctx.url), headers: maskHeaders(storedHeaders(result.requestHeaders)), body: body.text, bodyBytes: p.bytes.byteLength, bodyTruncated: body.truncated },
    outcome: result.outcome,
    statusCode: result.statusCode,
    error: result.error,
    durationMs: result.durationMs,
    response:
      result.responseHeaders === null
        ? null
        : { headers: maskResponseHeaders(storedHeaders(result.responseHeaders)), body: responseBody?.text ?? '', bodyTruncated: result.responseTruncated || (responseBody?.truncated ?? false) },
    attempt: null,
    signature,
  };
  sentBodies.set(ex, p.bytes);
  return ex;
}

/** A copy of an exchange with some of its evidence changed, and what the run knows of it beside its evidence (its bytes, its end). */
function changed(ex: CheckExchange, changes: Partial<CheckExchange>): CheckExchange {
  const copy = { ...ex, ...changes };
  const bytes = sentBodies.get(ex);
  if (bytes) sentBodies.set(copy, bytes);
  const ended = exchangeEnds.get(ex);
  if (ended !== undefined) exchangeEnds.set(copy, ended);
  return copy;
}

/** Runs one check: its requests, in order or at once, then its judgement. */
export async function runOne(check: Check, sender: CheckSender, ctx: CheckContext): Promise<{ exchanges: CheckExchange[]; judgement: Judgement }> {
  const specs = check.requests(ctx);
  const started = performance.now();
  const exchanges: CheckExchange[] = [];
  if (check.concurrent) {
    const prepared = specs.map((s) => prepare(s, ctx));
    exchanges.push(...(await Promise.all(prepared.map((p) => exchange(sender, p, ctx)))));
  } else {
    for (const spec of specs) {
      const routed = await viaEngine(spec, ctx);
      if (routed) {
        exchanges.push(routed);
        continue;
      }
      const p = prepare(spec, ctx);
      for (let i = 0; i < (spec.repeat ?? 1); i++) {
        const ex = await exchange(sender, p, ctx);
        exchanges.push(spec.repeat && spec.repeat > 1 ? changed(ex, { label: `${p.label} (${ordinal(i + 1)} time)` }) : ex);
      }
    }
  }
  const elapsedMs = performance.now() - started;
  return { exchanges, judgement: check.judge(exchanges, ctx, elapsedMs) };
}

const ordinal = (n: number): string => (n === 1 ? '1st' : n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`);

// ---------------------------------------------------------------- judging a valid request's answer

const seconds = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

function bodyShown(ex: CheckExchange): string {
  const text = responseText(ex, 200);
  return text ? `: ${text}` : '';
}

// Printed before time.latency can tell slow work from a receiver that answers nothing (Python's rfile.read() with no
// length), so it names both causes.
const TIMEOUT_FIX =
  'Answer 2xx as soon as the request is verified and stored; do the slow work after responding (a queue, a background job). A receiver that does no slow work and still does not answer waits for the body to end with the connection: read exactly Content-Length bytes (time.latency says which).';

/**
 * What the Webhooks destination makes of the answer to a valid, signed request (docs/behaviour.md §3): a 2xx passes;
 * a 3xx (never followed) and a 429 (retried) warn; anything else fails, saying what the destination does.
 */
export function judgeAccepted(ex: CheckExchange, timing: CheckTiming): Judgement {
  const status = ex.statusCode;
  if (ex.outcome === 'timeout') {
    return {
      verdict: 'fail',
      detail: `no response headers within ${seconds(timing.timeoutMs)}: the destination times out and retries for up to 4 hours`,
      fix: TIMEOUT_FIX,
    };
  }
  if (ex.outcome === 'tls_error') return { verdict: 'fail', detail: `${ex.error}: the destination sends nothing to this URL`, fix: TLS_FIX };
  if (status === null) return { verdict: 'fail', detail: `${ex.error ?? 'no answer'}: the destination retries for up to 4 hours`, fix: null };
  if (status >= 200 && status < 300) return { verdict: 'pass', detail: `HTTP ${status} in ${Math.round(ex.durationMs)} ms`, fix: null };
  if (status >= 300 && status < 400) {
    const location = ex.response?.headers['location'];
    return {
      verdict: 'warn',
      detail: `HTTP ${status}${location ? ` to ${location}` : ''}: redirects are not followed, so the message counts as failed (redirect not followed (${status}))`,
      fix: redirectFix(redirectTarget(ex, ex.request.url)),
    };
  }
  if (status === 429) {
    const retryAfter = ex.response?.headers['retry-after'];
    return {
      verdict: 'warn',
      detail: retryAfter
        ? `HTTP 429 with Retry-After: ${retryAfter}: the destination waits that long (when longer than its next delay) and retries, within the 4-hour window`
        : 'HTTP 429 without Retry-After: the destination retries on its schedule (5 s, 30 s, 2 min, …) within the 4-hour window',
      fix: 'Rate-limit with Retry-After so retries come when you can take them, or raise the limit for webhook traffic.',
    };
  }
  if (status >= 500) return { verdict: 'fail', detail: `HTTP ${status}${bodyShown(ex)}: the destination retries this message for up to 4 hours`, fix: SERVER_ERROR_FIX };
  return { verdict: 'fail', detail: `HTTP ${status}${bodyShown(ex)}: a valid request refused; the destination fails the message for good (permanent: HTTP ${status})`, fix: null };
}

/** A valid request answered with a 5xx: the receiver failed on it (its own log says why). */
export const SERVER_ERROR_FIX =
  "Find what fails in the receiver on this call (its log has the error; the response body above may name it) and fix it: every 5xx is retried for up to 4 hours. Answer 2xx once the message is stored, and do work that may fail after answering.";

export const TLS_FIX =
  "Use a certificate from a public CA. For a local one (mkcert, self-signed, a company CA), trust its root CA's PEM file: hookbench check --ca-file FILE (runCheck's caFile), and the destination's caFile for deliveries (mkcert -CAROOT shows where mkcert keeps it).";

/** A user scenario's expectations, judged on each of its exchanges. */
export function judgeExpectations(scenario: CheckScenario, exchanges: CheckExchange[]): Judgement {
  const expect = scenario.expect;
  for (const ex of exchanges) {
    const status = ex.statusCode;
    if (expect.status !== undefined) {
      const wanted = expect.status;
      const ok = status !== null && (typeof wanted === 'number' ? status === wanted : Math.floor(status / 100) === Number(wanted[0]));
      if (!ok) return { verdict: 'fail', detail: `${ex.label}: expected ${typeof wanted === 'number' ? `HTTP ${wanted}` : wanted}, got ${status === null ? (ex.error ?? ex.outcome) : `HTTP ${status}`}${bodyShown(ex)}` };
    }
    if (expect.maxLatencyMs !== undefined && ex.durationMs > expect.maxLatencyMs) {
      return { verdict: 'fail', detail: `${ex.label}: answered in ${Math.round(ex.durationMs)} ms, more than maxLatencyMs ${expect.maxLatencyMs}` };
    }
    if (expect.header) {
      const name = expect.header.name.toLowerCase();
      const shown = ex.response?.headers[name];
      const value = ex.response ? (receivedHeaders.get(ex.response.headers) ?? ex.response.headers)[name] : undefined;
      if (value === undefined) return { verdict: 'fail', detail: `${ex.label}: the response has no ${expect.header.name} header` };
      if (expect.header.contains !== undefined && !value.includes(expect.header.contains)) {
        return { verdict: 'fail', detail: `${ex.label}: ${expect.header.name} is "${shown ?? value}", which does not contain "${expect.header.contains}"` };
      }
    }
    if (expect.bodyContains !== undefined && !(ex.response?.body ?? '').includes(expect.bodyContains)) {
      return { verdict: 'fail', detail: `${ex.label}: the response body does not contain "${expect.bodyContains}"${bodyShown(ex)}` };
    }
  }
  const last = exchanges.at(-1);
  return { verdict: 'pass', detail: last ? `${exchanges.length === 1 ? '' : `${exchanges.length} requests; `}${last.statusCode === null ? (last.error ?? last.outcome) : `HTTP ${last.statusCode}`} as expected` : 'nothing to send' };
}

/** The requests a scenario makes (built-in or the user's): one spec, sent `repeat` times. */
export function scenarioRequests(s: CheckScenario): RequestSpec[] {
  return [{ label: s.title, message: s.message, body: s.body, headers: s.headers, contentType: s.contentType, sign: s.sign, repeat: s.repeat }];
}

/** A user scenario as a check of the runner. */
export function scenarioCheck(s: CheckScenario): Check {
  return { id: s.id, title: s.title, area: s.area, scenario: s, requests: () => scenarioRequests(s), judge: (exchanges) => judgeExpectations(s, exchanges) };
}

/** A call whose JSON is exactly `bytes` long (the 32 KiB limit is on the call as received). */
export function callOfSize(base: Record<string, unknown>, bytes: number = LIMITS.messageBytes): Record<string, unknown> {
  const probe = { ...base, properties: { ...(base['properties'] as object), padding: '' } };
  const missing = bytes - Buffer.byteLength(JSON.stringify(probe), 'utf8');
  return { ...probe, properties: { ...(probe.properties as object), padding: 'x'.repeat(Math.max(0, missing)) } };
}
