/**
 * The battery's signature checks (docs/check.md): forged requests (another secret, none, a changed body, the
 * pretty-printed body's) must be refused with a 4xx, and a valid signature over bytes that a JSON parser would
 * re-serialise otherwise must get in. A forgery that stops at a redirect is said to, not judged.
 */
import { randomUUID } from 'node:crypto';
import type { CheckExchange } from '../contract/check/check.js';
import { mockEndpointFix } from '../contract/check/checkFixes.js';
import { buildMessage } from '../domain/messages.js';
import { classifyStatus } from '../domain/outcome.js';
import { redirectTarget, scenario, track, USER } from './batteryParts.js';
import { RAW_BYTES_ID, refused } from './diagnosis.js';
import { judgeAccepted, scenarioRequests, signedValidly, type Check, type CheckContext, type Judgement } from './runner.js';

const FORGERY_FIX =
  'Compute HMAC-SHA1 of the raw request body bytes (before any JSON parsing) with the shared secret, compare it with X-Signature (lowercase hex; compare case-insensitively) in constant time, and answer 401 when it is missing or does not match.';

/** A forged request must be refused with a 4xx (docs/check.md, the signature checks): a 2xx lets it in, a 5xx or a 429 makes the destination retry it. */
function judgeForgery(what: string, ex: CheckExchange, ctx: CheckContext): Judgement {
  const status = ex.statusCode;
  // 429 asks the destination to slow down, not to stop: it retries it as it retries a 5xx.
  if (status !== null && status >= 400 && status < 500 && !classifyStatus(status).retryable) return { verdict: 'pass', detail: `${what}: refused with HTTP ${status}` };
  if (status !== null && status >= 200 && status < 300) {
    const mock = ctx.mockEndpoint;
    if (mock && !mock.refuseInvalidSignatures) {
      // The workbench's own endpoint answers by script: nothing in the user's code to fix, one setting to turn on.
      return {
        verdict: 'fail',
        detail: `${what}: accepted with HTTP ${status}; mock receiver endpoint '${mock.name}' answers by its script whatever the signature, so forged requests get in`,
        fix: mockEndpointFix(mock.name, mock.hasSecret),
      };
    }
    return { verdict: 'fail', detail: `${what}: accepted with HTTP ${status}; forged requests get in`, fix: FORGERY_FIX };
  }
  if (status !== null && classifyStatus(status).retryable) {
    return {
      verdict: 'fail',
      detail: `${what}: answered HTTP ${status}; the real destination would retry this forged request for 4 hours. Refuse it with 401 instead`,
      fix: `${FORGERY_FIX} A 4xx (but 429) ends the delivery; a 5xx or a 429 asks for retries.`,
    };
  }
  if (status !== null && status >= 300 && status < 400 && ctx.exchanges.some((o) => signedValidly(o) && o.statusCode !== null && o.statusCode >= 300 && o.statusCode < 400)) {
    // Valid requests are redirected too: the forgery stopped at the redirect, before any code that verifies, so the signature fix would be a guess.
    const target = redirectTarget(ex, ctx.url);
    return {
      verdict: 'fail',
      detail: `${what}: redirected (HTTP ${status}${target ? ` to ${target}` : ''}) as the valid requests are, so it never reached the code that verifies signatures: not known whether forged requests are refused`,
      fix: `Fix the redirect first (status.valid-request): point the destination at ${target ?? 'the URL the redirect names'} and run the check against it, which reaches the receiver's code.`,
    };
  }
  if (status !== null) return { verdict: 'fail', detail: `${what}: answered HTTP ${status}, not a refusal (4xx)`, fix: FORGERY_FIX };
  if (ex.outcome === 'timeout') {
    // Unanswered is retried as a 5xx is: the advice for a valid request (answer 2xx first) would let the forgery in.
    return {
      verdict: 'fail',
      detail: `${what}: ${ex.error ?? ex.outcome}, not a refusal (4xx); the real destination would retry this forged request for 4 hours`,
      fix: `Verify X-Signature first and answer 401 at once when it is missing or does not match, before any slow work: an unanswered request is retried as a 5xx is. ${FORGERY_FIX}`,
    };
  }
  return { verdict: 'fail', detail: `${what}: ${ex.error ?? ex.outcome}, not a refusal (4xx)`, fix: FORGERY_FIX };
}

function forgery(id: string, title: string, sign: 'wrong-secret' | 'none' | 'tampered' | 'pretty-printed', what: string): Check {
  const s = scenario({ id, title, area: 'signature', message: { type: 'track', call: track() }, sign, expect: { status: '4xx' } });
  return {
    id,
    title,
    area: 'signature',
    scenario: s,
    applies: (ctx) => ctx.secret !== null,
    requests: () => [{ ...scenarioRequests(s)[0]!, label: `forged: ${what}` }],
    judge: (exchanges, ctx) => judgeForgery(what, exchanges[0]!, ctx),
  };
}

export const SIGNATURE: Check[] = [
  forgery('signature.wrong-secret', 'a request signed with another secret is refused with a 4xx', 'wrong-secret', 'signed with another secret'),
  forgery('signature.missing', 'a request without X-Signature is refused with a 4xx', 'none', 'no X-Signature'),
  forgery('signature.tampered', 'a body changed after signing is refused with a 4xx', 'tampered', 'body changed after signing'),
  forgery('signature.pretty-printed', 'a signature of the pretty-printed body is refused with a 4xx', 'pretty-printed', 'signature of the pretty-printed body'),
  {
    id: 'signature.unverified',
    title: 'requests are signed and verified (it takes a shared secret: --secret)',
    area: 'signature',
    scenario: null,
    applies: (ctx) => ctx.secret === null,
    requests: () => [],
    judge: () => ({
      verdict: 'warn',
      detail: 'no shared secret was given, so the forged-request checks did not run: requests to this receiver are not being verified',
      fix: 'Give the destination a shared secret, verify X-Signature in the receiver, and run the check with --secret.',
    }),
  },
];

/**
 * JSON as another encoder writes it: `<`, `>` and `&` in strings as \u003c, \u003e and \u0026 (Go's
 * encoding/json), `/` as \/ (PHP's json_encode, many others). Valid JSON with the same value, but
 * JSON.parse + JSON.stringify gives other bytes. Compact JSON has these characters only inside strings.
 */
export function escapedSerialisation(json: string): string {
  return json.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\//g, '\\/');
}

const rawBytesCall = () => track({ properties: { plan: 'pro', amount: 42, page: 'https://example.com/pricing?plan=pro&seats=5', note: '<b>Pro</b> & more' } });

/** A track call serialised with those escapes: a fresh messageId each time (a receiver may remember ids). */
export function rawBytesBody(): string {
  const built = buildMessage('track', rawBytesCall(), { receivedAt: Date.now(), newMessageId: randomUUID });
  if (!built.ok) throw new Error(`the raw-bytes call cannot be built: ${built.error.message}`);
  return escapedSerialisation(Buffer.from(built.value.bytes).toString('utf8'));
}

const RAW_BYTES_FIX =
  'Verify X-Signature over the raw request body bytes, before any JSON parsing (express.raw, request.get_data(), io.ReadAll): a destination may serialise JSON otherwise than your parser would re-serialise it (\\u003c, \\/), and then the re-serialised bytes are not the signed ones.';

export const RAW_BYTES: Check = {
  id: RAW_BYTES_ID,
  title: 'a valid signature over bytes that JSON.parse and JSON.stringify would change (\\u003c, \\/ escapes) gets a 2xx',
  area: 'signature',
  scenario: scenario({
    id: RAW_BYTES_ID,
    title: 'a valid signature over bytes that do not survive re-serialisation',
    area: 'signature',
    body: escapedSerialisation(JSON.stringify({ type: 'track', userId: USER, event: 'Hookbench Check', properties: { page: 'https://example.com/pricing?plan=pro&seats=5', note: '<b>Pro</b> & more' } })),
    sign: 'valid',
  }),
  applies: (ctx) => ctx.secret !== null,
  requests: () => [{ label: 'signed over its exact bytes (\\u003c, \\u0026, \\/ escapes)', body: rawBytesBody(), sign: 'valid' }],
  judge: (exchanges, ctx) => {
    const ex = exchanges[0]!;
    const judged = judgeAccepted(ex, ctx.timing);
    if (judged.verdict === 'pass') return { verdict: 'pass', detail: `HTTP ${ex.statusCode}: the signature is verified over the bytes received` };
    // Only beside valid requests that got in is the refusal about these bytes; otherwise it is the refusal every valid request gets.
    const othersIn = ctx.exchanges.some((other) => signedValidly(other) && other.statusCode !== null && other.statusCode >= 200 && other.statusCode < 300);
    if (!refused(ex) || !othersIn) return judged;
    return {
      verdict: 'fail',
      detail: `HTTP ${ex.statusCode}: a valid signature over bytes that JSON.parse and JSON.stringify would change was refused; the destination fails such a message for good (permanent: HTTP ${ex.statusCode})`,
      fix: RAW_BYTES_FIX,
    };
  },
};
