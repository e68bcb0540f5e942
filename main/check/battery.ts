/**
 * The built-in battery (docs/check.md lists each ID and why it matters). Each check is written as a
 * scenario (the format of `--scenarios FILE`), plus, where the battery knows more than "expect 2xx", its own
 * judgement of what the Webhooks destination would do with the answer. IDs are contracts: CI filters and
 * compares by them.
 */
import { randomUUID } from 'node:crypto';
import type { CheckExchange } from '../contract/check/check.js';
import type { CheckArea } from '../contract/check/checkInputs.js';
import { CONCURRENCY_FIX, FORGERIES_UNANSWERED_FIX, NO_ANSWER_FIX } from '../contract/check/checkFixes.js';
import { LIMITS, type MessageType } from '../contract/message/messageShapes.js';
import { maskUrl } from '../domain/secrets.js';
import { redirectFix, redirectTarget, scenario, track, USER } from './batteryParts.js';
import { refused } from './diagnosis.js';
import { bodyCut, callOfSize, judgeAccepted, scenarioRequests, TLS_FIX, type Check, type CheckContext, type Judgement } from './runner.js';
import { RAW_BYTES, SIGNATURE } from './signatureChecks.js';

/** A check that sends one valid, signed request and expects the destination to count it delivered. */
function accepted(id: string, title: string, area: CheckArea, message: { type: MessageType; call: Record<string, unknown> }): Check {
  const s = scenario({ id, title, area, message, sign: 'valid', expect: { status: '2xx' } });
  return {
    id,
    title,
    area,
    scenario: s,
    requests: () => scenarioRequests(s),
    judge: (exchanges, ctx) => {
      const judged = worst(exchanges.map((ex) => judgeAccepted(ex, ctx.timing)));
      const refusal = exchanges.map((ex) => ex.statusCode ?? 0).find((status) => status >= 400 && status < 500);
      // A 4xx to a valid call is the receiver refusing what it does not handle (a type, an event, a key): a
      // permanent refusal of real traffic. 401/403 are about the signature (the diagnosis), 413 about size, 429 is retried.
      if (area !== 'shapes' || judged.verdict !== 'fail' || judged.fix || refusal === undefined || [401, 403, 413, 429].includes(refusal)) return judged;
      return { ...judged, fix: shapeRefusalFix(message.type) };
    },
  };
}

/** What to do about a valid call of `type` refused with a 4xx (other than the signature's, size's or rate's). */
function shapeRefusalFix(type: MessageType): string {
  return `Answer 2xx to every valid call, also those the receiver does not act on: the destination sends ${CALL_TYPES} calls and any event name, and a 4xx makes it fail this ${type} call for good (never retried). Ignore (and log) what you do not handle; refuse only what fails the signature.`;
}

const CALL_TYPES = 'track, identify, page, screen, group, alias and delete';

/**
 * The max-size check says how large the body it sent was: a call at the limit makes a body somewhat larger (the
 * destination adds version, timestamp, messageId and context), and a receiver's body limit must take that.
 */
function withBodySize(check: Check): Check {
  return {
    ...check,
    judge: (exchanges, ctx, elapsedMs) => {
      const judged = check.judge(exchanges, ctx, elapsedMs);
      const ex = exchanges[0];
      if (judged.verdict === 'pass' || !ex || ex.statusCode === null || ex.statusCode < 400) return judged;
      const bytes = ex.request.bodyBytes;
      const kib = Math.ceil(bytes / 1024);
      return {
        ...judged,
        detail: `${judged.detail} (the body sent was ${bytes.toLocaleString('en-US')} bytes)`,
        fix:
          ex.statusCode === 413
            ? `Raise the receiver's request body limit to at least ${kib} KiB: a call at the ${LIMITS.messageBytes.toLocaleString('en-US')}-byte limit makes a body of ${bytes.toLocaleString('en-US')} bytes (the destination adds version, timestamp, messageId and context).`
            : (judged.fix ?? null),
      };
    },
  };
}

/** The least good of several judgements (fail over warn over pass); the first of its kind. */
function worst(judgements: Judgement[]): Judgement {
  return judgements.find((j) => j.verdict === 'fail') ?? judgements.find((j) => j.verdict === 'warn') ?? judgements[0]!;
}

const SHAPES: Check[] = [
  accepted('shapes.track', 'a track call gets a 2xx', 'shapes', { type: 'track', call: track() }),
  accepted('shapes.page', 'a page call gets a 2xx', 'shapes', { type: 'page', call: { userId: USER, properties: { path: '/pricing' } } }),
  accepted('shapes.screen', 'a screen call gets a 2xx', 'shapes', { type: 'screen', call: { userId: USER, name: 'Home', context: { app: { name: 'Hookbench Check' } } } }),
  accepted('shapes.identify', 'an identify call gets a 2xx', 'shapes', { type: 'identify', call: { userId: USER, traits: { email: 'check@example.com', plan: 'pro' } } }),
  accepted('shapes.group', 'a group call gets a 2xx', 'shapes', { type: 'group', call: { userId: USER, groupId: 'hookbench-check-group', traits: { name: 'Check Inc.' } } }),
  accepted('shapes.alias', 'an alias call (keys "Previous ID" and "User ID", with spaces) gets a 2xx', 'shapes', { type: 'alias', call: { previousId: 'anon-hookbench-check', userId: USER } }),
  accepted('shapes.delete', 'a delete call (no version key) gets a 2xx', 'shapes', { type: 'delete', call: { userId: USER } }),
  accepted('shapes.page-name-category', 'a page call with name and category gets a 2xx', 'shapes', { type: 'page', call: { userId: USER, name: 'Pricing', category: 'Docs', properties: { path: '/pricing' } } }),
  accepted('shapes.anonymous-only', 'an anonymous-only call (anonymousId, no userId key) gets a 2xx', 'shapes', { type: 'track', call: { anonymousId: 'anon-hookbench-check', event: 'Hookbench Check', properties: {} } }),
  accepted('shapes.empty-objects', 'empty properties and traits ({}) get a 2xx', 'shapes', { type: 'identify', call: { userId: USER, traits: {} } }),
  accepted('shapes.unicode', 'non-ASCII text and emoji get a 2xx', 'shapes', { type: 'track', call: track({ event: 'Commande passée ✓', properties: { name: 'Zoë Ünal', city: '東京', mood: '🎉👍🏽' } }) }),
  accepted('shapes.number-edges', 'numbers at the edge of double precision get a 2xx', 'shapes', {
    type: 'track',
    call: track({ properties: { maxSafe: Number.MAX_SAFE_INTEGER, minSafe: Number.MIN_SAFE_INTEGER, max: Number.MAX_VALUE, tiny: Number.MIN_VALUE, fraction: 0.1 + 0.2 } }),
  }),
  accepted('shapes.historical-timestamp', 'a call with a historical timestamp (2015) gets a 2xx', 'shapes', { type: 'track', call: track({ timestamp: '2015-03-01T12:00:00.000Z' }) }),
  withBodySize(accepted('shapes.max-size', `a call at the ${LIMITS.messageBytes.toLocaleString('en-US')}-byte limit gets a 2xx`, 'shapes', { type: 'track', call: callOfSize(track()) })),
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * When every slow answer is the burst's while the requests sent one at a time were fast, the time went in
 * waiting: the burst queued behind a receiver that handles one request (or a few) at a time. Answering
 * before the work would not help it; handling requests concurrently would. Null when that is not the story.
 */
function queueing(slow: readonly CheckExchange[], answered: readonly CheckExchange[], ctx: CheckContext): string | null {
  const concurrent = ctx.concurrentExchanges;
  if (!concurrent || slow.length === 0 || !slow.every((ex) => concurrent.has(ex))) return null;
  const single = answered.filter((ex) => !concurrent.has(ex));
  if (single.length === 0) return null;
  const fastest = Math.max(...single.map((ex) => ex.durationMs));
  if (fastest > ctx.timing.slowMs) return null;
  return `, all of them in the burst while requests sent one at a time took at most ${Math.round(fastest)} ms: the burst queued, so the receiver handles (or accepts connections for) only one request or a few at a time`;
}

/**
 * A time check without data to judge is a warning, never a pass: nothing was sent in the run (an --only
 * without a check that sends), or nothing sent was answered (resets, garbage, oversized headers).
 */
function nothingToJudge(ctx: CheckContext, measured: string): Judgement {
  const sent = ctx.exchanges;
  if (sent.length === 0) return { verdict: 'warn', detail: `no request was sent in this run (add a check that sends, e.g. --only status.valid-request,${measured}), so there is nothing to measure`, fix: null };
  const first = sent[0]!;
  return {
    verdict: 'warn',
    detail: `none of the ${sent.length} request${sent.length === 1 ? '' : 's'} of this run got a response (first: ${first.label}: ${first.error ?? first.outcome}), so there is nothing to measure; the checks that sent them say why`,
    fix: null,
  };
}

const TIME: Check[] = [
  {
    id: 'time.latency',
    title: 'answers within 1 s (the destination gives up after 5 s)',
    area: 'time',
    scenario: null,
    requests: () => [],
    judge: (_own, ctx) => {
      const answered = ctx.exchanges.filter((ex) => ex.outcome !== 'tls_error' && ex.outcome !== 'network_error');
      if (answered.length === 0) return nothingToJudge(ctx, 'time.latency');
      const sorted = answered.map((ex) => ex.durationMs).sort((a, b) => a - b);
      const ms = (v: number) => `${Math.round(v)} ms`;
      const stats = `p50 ${ms(percentile(sorted, 50))}, p95 ${ms(percentile(sorted, 95))}, max ${ms(sorted.at(-1)!)} over ${sorted.length} requests`;
      const late = answered.filter((ex) => ex.outcome === 'timeout');
      const slow = answered.filter((ex) => ex.durationMs > ctx.timing.slowMs);
      const queued = queueing(late.length > 0 ? late : slow, answered, ctx);
      // Forgeries are refused without any work: when they got no answer either, the receiver is not slow, it waits.
      const forgeriesLate = late.filter((ex) => ex.label.startsWith('forged: '));
      // When only forgeries went unanswered, valid requests were answered in time: the work comes before verifying.
      const fix = queued
        ? CONCURRENCY_FIX
        : late.length > 0 && forgeriesLate.length === late.length
          ? FORGERIES_UNANSWERED_FIX
          : 'Answer 2xx as soon as the request is verified and stored; do the slow work after responding (a queue, a background job).';
      if (late.length === answered.length && forgeriesLate.length > 0) {
        return {
          verdict: 'fail',
          detail: `none of the ${answered.length} requests got response headers within ${ctx.timing.timeoutMs} ms, ${forgeriesLate.length === 1 ? 'the forged one' : `the ${forgeriesLate.length} forged ones`} included (a receiver refuses those without any work): the receiver does not answer at all, so the destination times out and retries every message`,
          fix: NO_ANSWER_FIX,
        };
      }
      if (late.length > 0) {
        return {
          verdict: 'fail',
          detail: `${stats}; ${late.length} got no response headers within ${ctx.timing.timeoutMs} ms (first: ${late[0]!.label})${queued ?? ''}: the destination times out and retries`,
          fix,
        };
      }
      if (slow.length > 0) return { verdict: 'warn', detail: `${stats}; ${slow.length} took more than ${ctx.timing.slowMs} ms (slowest: ${[...slow].sort((a, b) => b.durationMs - a.durationMs)[0]!.label})${queued ?? ''}`, fix };
      return { verdict: 'pass', detail: stats };
    },
  },
  {
    id: 'time.body-stall',
    title: 'the response body arrives after its headers (no stall)',
    area: 'time',
    scenario: null,
    requests: () => [],
    judge: (_own, ctx) => {
      const responses = ctx.exchanges.filter((ex) => ex.response !== null);
      if (responses.length === 0) return nothingToJudge(ctx, 'time.body-stall');
      const stalled = responses.filter((ex) => bodyCut(ex, ctx.timing.timeoutMs) === 'stalled');
      // A keep-alive answer with neither Content-Length nor chunked encoding has a body that ends only with the
      // connection: the receiver never said where its body ends (http.server with HTTP/1.1 and no Content-Length).
      const unframed = stalled.filter((ex) => ex.response!.headers['content-length'] === undefined && ex.response!.headers['transfer-encoding'] === undefined);
      const stalls = stalled.filter((ex) => !unframed.includes(ex));
      const closes = responses.filter((ex) => bodyCut(ex, ctx.timing.timeoutMs) === 'closed');
      if (stalled.length === 0 && closes.length === 0) return { verdict: 'pass', detail: `every response body arrived in full (${responses.length} response${responses.length === 1 ? '' : 's'})` };
      const said: string[] = [];
      if (unframed.length > 0) said.push(`${unframed.length} response(s) had neither Content-Length nor chunked encoding, so their body ends only when the connection closes, and the receiver kept it open (first: ${unframed[0]!.label}); the destination records the status and cuts the body after ${ctx.timing.timeoutMs} ms, holding a connection meanwhile`);
      if (stalls.length > 0) said.push(`${stalls.length} response(s) sent headers, then stalled the body (first: ${stalls[0]!.label}); the destination records the status and cuts the body after ${ctx.timing.timeoutMs} ms, holding a connection meanwhile`);
      // A socket closed after the status is not a stall: nothing is held, but the answer is cut and the connection lost.
      if (closes.length > 0) said.push(`${closes.length} response(s) sent headers, then closed the connection before the body ended (first: ${closes[0]!.label}); the destination records the status with the body cut short, and opens a new connection for the next request`);
      const fixes: string[] = [];
      if (unframed.length > 0) fixes.push("Say where each response ends: send Content-Length (Content-Length: 0 when there is no body) or chunked encoding (Python's http.server with protocol_version = 'HTTP/1.1': self.send_header('Content-Length', '0') before self.end_headers()).");
      if (stalls.length > 0) fixes.push('End the response (res.end()) right after writing the status; stream nothing after it.');
      if (closes.length > 0) fixes.push("Finish each response you start: end it (res.end()) instead of closing the socket after the status (res.socket.destroy(), a process that exits right after answering), and send as many body bytes as its Content-Length says (Python's http.server: self.send_header('Content-Length', str(len(body))), then self.wfile.write(body)).");
      return { verdict: 'warn', detail: said.join('; '), fix: fixes.join(' ') };
    },
  },
];

const redeliveryScenario = scenario({
  id: 'redelivery.same-message',
  title: 'the same message (same messageId, same bytes) delivered twice gets a 2xx both times',
  area: 'redelivery',
  message: { type: 'track', call: track({ messageId: 'hookbench-check-redelivery' }) },
  sign: 'valid',
  repeat: 2,
});

const REDELIVERY: Check[] = [
  {
    id: redeliveryScenario.id,
    title: redeliveryScenario.title,
    area: 'redelivery',
    scenario: redeliveryScenario,
    // A messageId of its own each run: a receiver that remembers ids across runs would answer the "first" delivery as a duplicate.
    requests: () => [{ ...scenarioRequests(redeliveryScenario)[0]!, message: { type: 'track', call: track({ messageId: `hookbench-check-redelivery-${randomUUID()}` }) }, label: 'delivery' }],
    judge: (exchanges, ctx) => {
      const [first, second] = exchanges as [CheckExchange, CheckExchange];
      const firstJudged = judgeAccepted(first, ctx.timing);
      if (firstJudged.verdict !== 'pass') return { ...firstJudged, detail: `first delivery: ${firstJudged.detail}` };
      const status = second.statusCode;
      if (status !== null && status >= 200 && status < 300) return { verdict: 'pass', detail: `HTTP ${first.statusCode}, then HTTP ${status} for the duplicate` };
      const fix = 'De-duplicate by messageId: when it was seen already, answer 2xx again (the same answer as the first time) without doing the work twice.';
      if (status === 409) {
        return { verdict: 'fail', detail: 'the duplicate got HTTP 409: the destination counts the redelivery as failed (permanent: HTTP 409), though the message was handled', fix };
      }
      if (status !== null && status >= 500) return { verdict: 'fail', detail: `the duplicate got HTTP ${status}: the destination retries it for up to 4 hours`, fix };
      return { ...judgeAccepted(second, ctx.timing), detail: `the duplicate: ${judgeAccepted(second, ctx.timing).detail}`, fix };
    },
  },
];

const BURST: Check[] = [
  {
    id: 'burst.concurrent',
    title: 'a burst of concurrent deliveries gets no 5xx, reset or timeout',
    area: 'burst',
    scenario: scenario({ id: 'burst.concurrent', title: 'a burst of concurrent deliveries', area: 'burst', message: { type: 'track', call: track() }, sign: 'valid' }),
    concurrent: true,
    requests: (ctx) => Array.from({ length: ctx.burst }, (_, i) => ({ label: `burst ${i + 1}/${ctx.burst}`, message: { type: 'track' as const, call: track({ properties: { n: i + 1 } }) }, sign: 'valid' as const })),
    judge: (exchanges, ctx, elapsedMs) => {
      const rate = `${exchanges.length} deliveries in ${Math.round(elapsedMs)} ms (${(exchanges.length / Math.max(elapsedMs / 1000, 0.001)).toFixed(1)}/s, at most 16 at once per origin, as the destination sends)`;
      const broken = exchanges.filter((ex) => ex.outcome === 'timeout' || ex.outcome === 'network_error' || (ex.statusCode !== null && ex.statusCode >= 500));
      if (broken.length > 0) {
        const kinds = [...new Set(broken.map((ex) => (ex.statusCode !== null ? `HTTP ${ex.statusCode}` : ex.outcome === 'timeout' ? 'timeout' : (ex.error ?? ex.outcome))))].join(', ');
        // The run's single requests (never at once) that got a 5xx: then the burst only repeats what they show.
        const alone = ctx.exchanges.filter((ex) => !ctx.concurrentExchanges?.has(ex) && ex.statusCode !== null && ex.statusCode >= 500).length;
        const fix = alone > 0
          ? `Single requests of this run got a 5xx too (${alone}): the receiver fails without a burst, so fix that first (the failing checks above show its answers); then run the check again.`
          : 'Accept bursts: queue the work and answer 2xx at once, and size the server for at least 16 concurrent requests per sender.';
        return { verdict: 'fail', detail: `${broken.length} of ${rate} failed (${kinds}): the destination retries each for up to 4 hours`, fix };
      }
      const limited = exchanges.filter((ex) => ex.statusCode === 429);
      if (limited.length > 0) return { verdict: 'warn', detail: `${limited.length} of ${rate} got HTTP 429: retried later by the destination` };
      const refused = exchanges.filter((ex) => ex.statusCode !== null && (ex.statusCode < 200 || ex.statusCode >= 300));
      // A 3xx is no refusal: the destination never follows a redirect, and the message fails.
      const status = refused[0]?.statusCode ?? 0;
      if (refused.length > 0 && status >= 300 && status < 400) {
        // Every message of the burst is lost to the redirect: say where it points, as a single request's fix does.
        const target = redirectTarget(refused[0]!, ctx.url);
        return {
          verdict: 'fail',
          detail: `${refused.length} of ${rate} were redirected, which the destination never follows (HTTP ${status}${target ? ` to ${target}` : ''})`,
          fix: redirectFix(target),
        };
      }
      if (refused.length > 0) return { verdict: 'fail', detail: `${refused.length} of ${rate} were refused (HTTP ${status})` };
      return { verdict: 'pass', detail: rate };
    },
  },
];

const statusScenario = scenario({ id: 'status.valid-request', title: 'a valid, signed request gets a 2xx (not a redirect, 429 or other 4xx)', area: 'status', message: { type: 'track', call: track() }, sign: 'valid' });

const STATUS: Check[] = [
  {
    id: statusScenario.id,
    title: statusScenario.title,
    area: 'status',
    scenario: statusScenario,
    requests: () => scenarioRequests(statusScenario),
    judge: (exchanges, ctx) => judgeAccepted(exchanges[0]!, ctx.timing),
  },
];

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|::1)$/i;

const TRANSPORT: Check[] = [
  {
    id: 'transport.https',
    title: 'https with a certificate the destination accepts (http only to this machine)',
    area: 'transport',
    scenario: scenario({ id: 'transport.https', title: 'transport', area: 'transport', message: { type: 'track', call: track() }, sign: 'valid' }),
    requests: () => [{ label: 'connection', message: { type: 'track', call: track() }, sign: 'valid' }],
    judge: (exchanges, ctx) => {
      const ex = exchanges[0]!;
      if (ex.outcome === 'tls_error') return { verdict: 'fail', detail: `${ex.error}: the destination refuses it and sends nothing`, fix: TLS_FIX };
      const url = new URL(ctx.url);
      if (url.protocol === 'https:' && ex.outcome === 'network_error') {
        // No answer over TLS: nothing says the certificate would be trusted, and a plain-http port is the usual cause.
        const plainHttp = /ERR_SSL_WRONG_VERSION_NUMBER/.test(ex.error ?? '');
        const http = new URL(ctx.url);
        http.protocol = 'http:';
        return {
          verdict: 'fail',
          detail: `https: no TLS connection (${ex.error ?? 'network error'})`,
          fix: plainHttp ? `The port answers plain http, not TLS: check ${maskUrl(http.toString())} instead, or serve TLS on it.` : 'Make the receiver accept TLS connections on this port.',
        };
      }
      if (url.protocol === 'https:') return { verdict: 'pass', detail: `https; the certificate is trusted${ctx.caFile ? ` (with caFile ${ctx.caFile})` : ''}` };
      if (LOOPBACK.test(url.hostname)) return { verdict: 'pass', detail: 'http to this machine (loopback): nothing crosses a network' };
      return { verdict: 'warn', detail: `http to ${url.hostname}: message bodies (user data) cross the network in clear`, fix: 'Serve the receiver over https.' };
    },
  },
];

const CONTENT_TYPE: Check[] = [
  {
    id: 'content-type.no-charset',
    title: 'Content-Type: application/json without a charset parameter is accepted',
    area: 'content-type',
    scenario: scenario({ id: 'content-type.no-charset', title: 'application/json without charset', area: 'content-type', message: { type: 'track', call: track() }, sign: 'valid', contentType: 'application/json' }),
    requests: () => [
      { label: 'application/json (as the destination sends)', message: { type: 'track', call: track() }, sign: 'valid', contentType: 'application/json' },
      { label: 'application/json; charset=utf-8 (for comparison)', message: { type: 'track', call: track() }, sign: 'valid', contentType: 'application/json; charset=utf-8' },
    ],
    judge: (exchanges, ctx) => {
      const [plain, charset] = exchanges as [CheckExchange, CheckExchange];
      const plainJudged = judgeAccepted(plain, ctx.timing);
      if (plainJudged.verdict === 'pass') return { verdict: 'pass', detail: `application/json: HTTP ${plain.statusCode}` };
      const charsetOk = charset.statusCode !== null && charset.statusCode >= 200 && charset.statusCode < 300;
      // Only a refusal says the receiver wants a charset: a 5xx or a timeout beside a 2xx is the receiver failing now and then.
      if (charsetOk && refused(plain)) {
        return {
          verdict: 'fail',
          detail: `application/json got ${plain.statusCode === null ? plain.error : `HTTP ${plain.statusCode}`}, but application/json; charset=utf-8 got HTTP ${charset.statusCode}: the receiver requires a charset the destination never sends`,
          fix: 'Parse the body as JSON (UTF-8) whatever the Content-Type parameters; JSON is UTF-8 by definition (RFC 8259).',
        };
      }
      // Only a 415 to both says the receiver wants another media type; any other answer to both is not about the Content-Type.
      const mediaType = plain.statusCode === 415 && charset.statusCode === 415;
      return { ...plainJudged, detail: `application/json: ${plainJudged.detail}`, fix: plainJudged.fix ?? (mediaType ? 'Accept application/json bodies (not only form encoding).' : null) };
    },
  },
];

/**
 * The battery in run order: signature.raw-bytes comes right after the valid request, so that a diagnosis
 * (which either of them may set off) is known before the rest is reported; the time checks come last, since
 * they read every exchange of the run.
 */
export const BATTERY: readonly Check[] = [...STATUS, RAW_BYTES, ...SHAPES, ...SIGNATURE, ...REDELIVERY, ...CONTENT_TYPE, ...TRANSPORT, ...BURST, ...TIME];

/** The check a run starts with: a URL that cannot be reached at all ends the run there (CLI exit 2). */
export const PREFLIGHT_ID = 'status.valid-request';
