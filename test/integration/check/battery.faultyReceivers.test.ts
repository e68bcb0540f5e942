/**
 * The endpoint check's battery against receivers with known faults: each check fails on a receiver that
 * breaks it and passes on one that does not. Requests go through the forwarder's own send, so "late" is
 * the check's injected timeout (milliseconds here, the destination's 5 s by default).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult, CheckRun } from '../../../main/contract/check/check.js';
import type { EngineEvent } from '../../../main/contract/events.js';
import { BATTERY } from '../../../main/check/battery.js';
import { FORGERIES_UNANSWERED_FIX, fixSnippetsFor, NO_ANSWER_FIX } from '../../../main/contract/check/checkFixes.js';
import { createCore, type Core } from '../../../main/app/createCore.js';
import { checkReceiver, SECRET, type Faults } from '../../helpers/checkReceivers.js';
import { startReceiver, type TestReceiver } from '../../helpers/receiver.js';
import { tempDir } from '../../helpers/tempDir.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A core of its own; `started`: its engine runs, so the check's sends go through it and leave attempt records. */
function newCore(timing: { timeoutMs: number; slowMs: number }, started = false): Core {
  const { dir, cleanup } = tempDir('hookbench-check-');
  const core = createCore({ dataDir: dir, autoStart: started, forwarder: 'inline', checkTiming: timing });
  cleanups.push(async () => {
    await core.close();
    cleanup();
  });
  return core;
}

/** Generous limits: nothing a busy machine does makes a healthy localhost receiver "slow". */
let core: Core;
/** A short timeout (a never-answered request costs 300 ms) and every answer counted slow. */
let tight: Core;
let receiver: TestReceiver;

beforeAll(async () => {
  core = newCore({ timeoutMs: 10_000, slowMs: 5_000 });
  tight = newCore({ timeoutMs: 300, slowMs: 0 });
  receiver = await startReceiver(checkReceiver());
  cleanups.push(() => receiver.close());
});
afterEach(() => {
  receiver.respond = checkReceiver();
});

async function run(faults: Faults, options: { secret?: string | null; only?: string[]; burst?: number; on?: Core } = {}): Promise<CheckRun> {
  receiver.respond = checkReceiver(faults);
  const secret = options.secret === undefined ? SECRET : options.secret;
  const r = await (options.on ?? core).checks.runCheck({ url: receiver.url, ...(secret !== null ? { secret } : {}), burst: options.burst ?? 10, ...(options.only ? { only: options.only } : {}), wait: true });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const verdicts = (r: CheckRun): Record<string, string> => Object.fromEntries(r.checks.map((c) => [c.id, c.verdict]));
const check = (r: CheckRun, id: string): CheckResult => {
  const found = r.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id} in ${r.checks.map((c) => c.id).join(', ')}`);
  return found;
};
const failing = (r: CheckRun) => r.checks.filter((c) => c.verdict !== 'pass').map((c) => c.id);

describe('hookbench check: the battery', () => {
  it('a receiver that does everything right passes every check, each with its evidence', async () => {
    const r = await run({});
    expect(r.status).toBe('finished');
    expect(failing(r)).toEqual([]);
    expect(r.checks.map((c) => c.id)).toEqual(BATTERY.filter((c) => c.id !== 'signature.unverified').map((c) => c.id));
    expect(r.summary).toEqual({ passed: r.checks.length, failed: 0, warnings: 0 });
    expect(r.diagnosis).toBeNull();
    const alias = check(r, 'shapes.alias').evidence[0]!;
    expect(JSON.parse(alias.request.body)).toMatchObject({ version: 1, type: 'alias', 'Previous ID': 'anon-hookbench-check', 'User ID': 'hookbench-check-user' });
    expect(alias.request.headers['x-signature']).toMatch(/^[0-9a-f]{40}$/);
    expect(alias.signature).toMatchObject({ explanation: 'signature matches' });
    const anonymous = JSON.parse(check(r, 'shapes.anonymous-only').evidence[0]!.request.body) as Record<string, unknown>;
    expect(anonymous).not.toHaveProperty('userId');
    const deleted = JSON.parse(check(r, 'shapes.delete').evidence[0]!.request.body) as Record<string, unknown>;
    expect(Object.keys(deleted).slice(0, 3)).toEqual(['type', 'userId', 'timestamp']);
    expect(check(r, 'shapes.max-size').evidence[0]!.request.bodyBytes).toBeGreaterThan(32_000);
    expect(JSON.parse(receiver.captured.at(-1)!.body.toString('utf8'))).toHaveProperty('type');
  });

  it('a receiver that accepts any signature fails every forgery check, saying forged requests get in', async () => {
    const r = await run({ acceptsAnySignature: true });
    expect(failing(r)).toEqual(['signature.wrong-secret', 'signature.missing', 'signature.tampered', 'signature.pretty-printed']);
    expect(check(r, 'signature.wrong-secret').detail).toBe('signed with another secret: accepted with HTTP 200; forged requests get in');
    const pretty = check(r, 'signature.pretty-printed').evidence[0]!;
    expect(pretty.signature?.explanation).toMatch(/pretty-printed/);
    expect(check(r, 'signature.missing').evidence[0]!.request.headers).not.toHaveProperty('x-signature');
    expect(check(r, 'signature.missing').fix).toMatch(/HMAC-SHA1 of the raw request body/);
  });

  it('a receiver that answers a forgery with 500 fails, saying the destination would retry it for 4 hours', async () => {
    const r = await run({ serverErrorOnBadSignature: true });
    expect(failing(r)).toEqual(['signature.wrong-secret', 'signature.missing', 'signature.tampered', 'signature.pretty-printed']);
    expect(check(r, 'signature.tampered').detail).toBe(
      'body changed after signing: answered HTTP 500; the real destination would retry this forged request for 4 hours. Refuse it with 401 instead',
    );
  });

  it('a receiver that answers 429 to everything refuses no forgery: the destination retries a 429 as it retries a 5xx', async () => {
    const r = await run({ rateLimitsEverything: true }, { only: ['signature.wrong-secret', 'signature.missing', 'signature.tampered', 'signature.pretty-printed'] });
    expect(r.checks.map((c) => c.verdict)).toEqual(['fail', 'fail', 'fail', 'fail']);
    expect(check(r, 'signature.missing').detail).toBe('no X-Signature: answered HTTP 429; the real destination would retry this forged request for 4 hours. Refuse it with 401 instead');
  });

  it('an upper-case hex digest of the right bytes is the same signature: accepting it is no fault', async () => {
    receiver.respond = checkReceiver();
    const r = await core.checks.runCheck({
      url: receiver.url,
      secret: SECRET,
      only: ['my.upper-hex'],
      scenarios: { scenarios: [{ id: 'my.upper-hex', title: 'upper-case hex accepted', message: { type: 'track', call: { userId: 'u', event: 'E' } }, sign: 'uppercase-hex' }] },
      wait: true,
    });
    expect(r.ok && r.value.checks[0]).toMatchObject({ id: 'my.upper-hex', verdict: 'pass' });
    expect(receiver.captured.at(-1)!.headers['x-signature']).toMatch(/^[0-9A-F]{40}$/);
  });

  it('without a secret, the signature area is one warning that requests are not verified', async () => {
    const r = await run({ acceptsAnySignature: true }, { secret: null });
    const signature = r.checks.filter((c) => c.area === 'signature');
    expect(signature.map((c) => [c.id, c.verdict])).toEqual([['signature.unverified', 'warn']]);
    expect(signature[0]!.detail).toMatch(/not being verified/);
    expect(receiver.captured.at(-1)!.headers).not.toHaveProperty('x-signature');
    expect(r.summary.failed).toBe(0);
  });

  it('a receiver that answers 409 to a duplicate fails redelivery (and only redelivery)', async () => {
    const r = await run({ conflictOnDuplicate: true });
    expect(failing(r)).toEqual(['redelivery.same-message']);
    const redelivery = check(r, 'redelivery.same-message');
    expect(redelivery.detail).toMatch(/^the duplicate got HTTP 409/);
    const [first, second] = redelivery.evidence;
    expect(first!.request.body).toBe(second!.request.body);
    expect(JSON.parse(first!.request.body)).toMatchObject({ messageId: expect.stringMatching(/^hookbench-check-redelivery-[0-9a-f-]{36}$/) });
    expect([first!.statusCode, second!.statusCode]).toEqual([200, 409]);
  });

  it('a receiver that chokes on keys with spaces fails the alias shape, with the body it answered', async () => {
    const r = await run({ chokesOnKeysWithSpaces: true });
    expect(failing(r)).toEqual(['shapes.alias']);
    expect(check(r, 'shapes.alias').detail).toBe('HTTP 500: TypeError: cannot read "Previous ID": the destination retries this message for up to 4 hours');
  });

  it('a receiver that fails now and then (a 500 to every third request) gets the 5xx fix on each failing check, and the burst does not blame concurrency', async () => {
    const healthy = checkReceiver();
    let n = 0;
    receiver.respond = (req, res) => (++n % 3 === 0 ? res.writeHead(500, { 'content-type': 'text/plain' }).end('oops') : healthy(req, res));
    const result = await core.checks.runCheck({ url: receiver.url, secret: SECRET, burst: 9, only: ['shapes.track', 'shapes.identify', 'shapes.page', 'burst.concurrent'], wait: true });
    if (!result.ok) throw new Error(result.error.message);
    const r = result.value;
    const shapes = r.checks.filter((c) => c.area === 'shapes' && c.verdict === 'fail');
    expect(shapes).toHaveLength(1);
    expect(shapes[0]).toMatchObject({ detail: 'HTTP 500: oops: the destination retries this message for up to 4 hours', fix: expect.stringMatching(/^Find what fails in the receiver on this call/) });
    expect(check(r, 'burst.concurrent')).toMatchObject({ verdict: 'fail', fix: expect.stringMatching(/^Single requests of this run got a 5xx too \(1\): the receiver fails without a burst/) });
    // Failing only under the burst, it is the burst's advice.
    const burstOnly = await run({ overloadedPast: 2 }, { burst: 9, only: ['shapes.track', 'burst.concurrent'] });
    expect(check(burstOnly, 'burst.concurrent').fix).toMatch(/^Accept bursts/);
  });

  it('a receiver that never answers one shape fails that shape and the latency check (timeout injected: 300 ms)', async () => {
    const r = await run({ neverAnswersType: 'screen' }, { on: tight, only: ['shapes.screen', 'shapes.track', 'time.latency'] });
    expect(verdicts(r)).toEqual({ 'shapes.track': 'pass', 'shapes.screen': 'fail', 'time.latency': 'fail' });
    expect(check(r, 'shapes.screen').detail).toBe('no response headers within 300 ms: the destination times out and retries for up to 4 hours');
    expect(check(r, 'time.latency').detail).toMatch(/^p50 \d+ ms, p95 \d+ ms, max \d+ ms over 2 requests; 1 got no response headers within 300 ms \(first: a screen call gets a 2xx\)/);
  });

  it('a receiver that answers nothing, forgeries included, is told it does not answer at all (reading to EOF), not to answer before slow work (timeout injected: 300 ms)', async () => {
    const r = await run({ neverAnswers: true }, { on: tight, only: ['shapes.track', 'signature.wrong-secret', 'time.latency'] });
    const c = check(r, 'time.latency');
    expect(c.verdict).toBe('fail');
    expect(c.detail).toBe('none of the 2 requests got response headers within 300 ms, the forged one included (a receiver refuses those without any work): the receiver does not answer at all, so the destination times out and retries every message');
    expect(c.fix).toBe(NO_ANSWER_FIX);
    // The forgery's own check does not advise answering 2xx first: that would let it in.
    const forged = check(r, 'signature.wrong-secret');
    expect(forged.detail).toMatch(/^signed with another secret: .*, not a refusal \(4xx\); the real destination would retry this forged request for 4 hours$/);
    expect(forged.fix).toMatch(/^Verify X-Signature first and answer 401 at once when it is missing or does not match, before any slow work/);
    const python = fixSnippetsFor('time.latency', c.fix)?.find((f) => f.language === 'Python')?.code;
    expect(python).toContain('self.rfile.read(length)');
    // Followed under protocol_version HTTP/1.1, an answer without Content-Length would never end (time.body-stall).
    expect(python).toMatch(/self\.send_header\("Content-Length", "0"\)\nself\.end_headers\(\)/);
    // A Node handler with a path that never ends its response is the same symptom in the other language.
    expect(c.fix).toContain('a handler path that never ends its response (Node: returning without res.end())');
    // The valid request's own check, printed before time.latency knows that nothing answered, names that cause too.
    expect(check(r, 'shapes.track').fix).toMatch(/does no slow work and still does not answer waits for the body to end with the connection: read exactly Content-Length bytes \(time\.latency says which\)\.$/);
  });

  it('a receiver that answers valid requests but leaves forgeries unanswered is told by time.latency to answer those 401 at once, not to answer 2xx before slow work (timeout injected: 300 ms)', async () => {
    const r = await run({ leavesForgeriesUnanswered: true }, { on: tight, only: ['shapes.track', 'signature.missing', 'time.latency'] });
    expect(verdicts(r)).toEqual({ 'shapes.track': 'pass', 'signature.missing': 'fail', 'time.latency': 'fail' });
    const c = check(r, 'time.latency');
    expect(c.detail).toMatch(/; 1 got no response headers within 300 ms \(first: forged: no X-Signature\): the destination times out and retries$/);
    expect(c.fix).toBe(FORGERIES_UNANSWERED_FIX);
    expect(c.fix).not.toMatch(/Answer 2xx/);
    expect(fixSnippetsFor('time.latency', c.fix)).toEqual(fixSnippetsFor('signature.missing'));
  });

  it('answers slower than the threshold are a warning naming p50, p95 and max (threshold injected: 0 ms)', async () => {
    const r = await run({}, { on: tight, only: ['shapes.track', 'shapes.page', 'time.latency'] });
    expect(check(r, 'time.latency')).toMatchObject({ verdict: 'warn' });
    expect(check(r, 'time.latency').detail).toMatch(/^p50 \d+ ms, p95 \d+ ms, max \d+ ms over 2 requests; 2 took more than 0 ms/);
    const relaxed = await run({}, { only: ['shapes.track', 'time.latency'] });
    expect(check(relaxed, 'time.latency').verdict).toBe('pass');
  });

  it('a receiver that sends headers and stalls the body is reported (its status still counts)', async () => {
    const r = await run({ stallsBody: true }, { on: tight, only: ['shapes.track', 'time.body-stall'] });
    expect(verdicts(r)).toEqual({ 'shapes.track': 'pass', 'time.body-stall': 'warn' });
    expect(check(r, 'time.body-stall').detail).toMatch(/^1 response\(s\) sent headers, then stalled the body/);
  });

  it('a receiver that answers without Content-Length on a kept connection is told its body never ends, with the fix to send Content-Length', async () => {
    const r = await run({ unframedAnswer: true }, { on: tight, only: ['shapes.track', 'time.body-stall'] });
    expect(verdicts(r)).toEqual({ 'shapes.track': 'pass', 'time.body-stall': 'warn' });
    const c = check(r, 'time.body-stall');
    expect(c.detail).toMatch(/^1 response\(s\) had neither Content-Length nor chunked encoding, so their body ends only when the connection closes/);
    expect(c.fix).toMatch(/^Say where each response ends: send Content-Length \(Content-Length: 0 when there is no body\)/);
  });

  it('a receiver that closes the connection mid-body is told so, not that it stalled the body (its status still counts)', async () => {
    const r = await run({ closesMidBody: true }, { only: ['shapes.track', 'redelivery.same-message', 'time.body-stall'] });
    expect(verdicts(r)).toEqual({ 'shapes.track': 'pass', 'redelivery.same-message': 'pass', 'time.body-stall': 'warn' });
    const c = check(r, 'time.body-stall');
    expect(c.detail).toMatch(/^3 response\(s\) sent headers, then closed the connection before the body ended \(first: a track call gets a 2xx\)/);
    expect(c.detail).not.toContain('stalled');
    expect(c.fix).toMatch(/^Finish each response you start/);
    // A Python http.server receiver makes this mistake by a Content-Length larger than what it writes: the fix speaks to it too.
    expect(c.fix).toContain("(Python's http.server: self.send_header('Content-Length', str(len(body))), then self.wfile.write(body))");
  });

  it('a receiver that refuses a call type it does not handle with 400 fails that shape with the fix to answer 2xx and ignore it', async () => {
    const r = await run({ handlesOnlyTypes: ['track', 'identify'] }, { only: ['shapes.track', 'shapes.page'] });
    expect(verdicts(r)).toEqual({ 'shapes.track': 'pass', 'shapes.page': 'fail' });
    const c = check(r, 'shapes.page');
    expect(c.detail).toBe('HTTP 400: {"error":"unsupported event type page"}: a valid request refused; the destination fails the message for good (permanent: HTTP 400)');
    expect(c.fix).toMatch(/^Answer 2xx to every valid call, also those the receiver does not act on: .* a 4xx makes it fail this page call for good/);
    expect(r.diagnosis).toBeNull();
  });

  it('a receiver that requires charset=utf-8 fails the content-type check, saying so', async () => {
    const r = await run({ requiresCharset: true }, { only: ['content-type.no-charset', 'shapes.track', 'signature.raw-bytes'] });
    expect(verdicts(r)).toEqual({ 'shapes.track': 'fail', 'content-type.no-charset': 'fail', 'signature.raw-bytes': 'fail' });
    expect(check(r, 'content-type.no-charset').detail).toBe(
      'application/json got HTTP 415, but application/json; charset=utf-8 got HTTP 200: the receiver requires a charset the destination never sends',
    );
    expect(check(r, 'content-type.no-charset').evidence.map((ex) => ex.request.headers['content-type'])).toEqual(['application/json', 'application/json; charset=utf-8']);
    // A 415 is about the Content-Type: no signature probe is sent and no signature diagnosis opens the report.
    expect(r.diagnosis).toBeNull();
    expect(r.checks.flatMap((c) => c.evidence).filter((ex) => ex.label.startsWith('probe: '))).toEqual([]);
  });

  it('a receiver whose body limit is below what a call at the limit makes is told the body size and the limit to set', async () => {
    const r = await run({ bodyLimit: 16 * 1024 }, { only: ['shapes.max-size'] });
    const c = check(r, 'shapes.max-size');
    const bytes = c.evidence[0]!.request.bodyBytes;
    expect(bytes).toBeGreaterThan(32_768);
    expect(c.verdict).toBe('fail');
    expect(c.detail).toMatch(new RegExp(`^HTTP 413.* \\(the body sent was ${bytes.toLocaleString('en-US')} bytes\\)$`));
    // express's HTML error page is quoted by its text, on the detail's one line.
    expect(c.detail).toContain('HTTP 413: PayloadTooLargeError: request entity too large at readStream (/app/node_modules/raw-body/index.js:163:17): a valid request refused');
    expect(c.fix).toBe(`Raise the receiver's request body limit to at least ${Math.ceil(bytes / 1024)} KiB: a call at the 32,768-byte limit makes a body of ${bytes.toLocaleString('en-US')} bytes (the destination adds version, timestamp, messageId and context).`);
  });

  it('a 5xx beside a 2xx with charset=utf-8 is the receiver failing, not a charset it requires', async () => {
    const r = await run({ failsOnceWithoutCharset: true }, { only: ['content-type.no-charset'] });
    const c = check(r, 'content-type.no-charset');
    expect(c.verdict).toBe('fail');
    expect(c.detail).not.toMatch(/charset/);
    expect(c.detail).toMatch(/HTTP 500/);
  });

  it('https to a port that answers plain http fails transport once, saying so with the http URL to check; nothing else is sent', async () => {
    const https = receiver.url.replace(/^http:/, 'https:');
    const ran = await core.checks.runCheck({ url: https, secret: SECRET, wait: true });
    if (!ran.ok) throw new Error(ran.error.message);
    const r = ran.value;
    expect(r.checks.map((c) => [c.id, c.verdict])).toEqual([['transport.https', 'fail']]);
    const transport = check(r, 'transport.https');
    expect(transport.detail).toBe('https: no TLS connection (ERR_SSL_WRONG_VERSION_NUMBER: wrong version number: the server did not answer in TLS (plain http on that port?))');
    expect(transport.fix).toBe(`The port answers plain http, not TLS: check ${receiver.url} instead, or serve TLS on it.`);
  });

  it('a burst that overloads the receiver fails with the throughput it sustained', async () => {
    const r = await run({ overloadedPast: 5 }, { burst: 12, only: ['burst.concurrent'] });
    const burst = check(r, 'burst.concurrent');
    expect(burst.verdict).toBe('fail');
    expect(burst.detail).toMatch(/^7 of 12 deliveries in \d+ ms \([\d.]+\/s, at most 16 at once per origin, as the destination sends\) failed \(HTTP 503\)/);
    expect(burst.evidence).toHaveLength(5);
    const ok = await run({}, { burst: 12, only: ['burst.concurrent'] });
    expect(check(ok, 'burst.concurrent')).toMatchObject({ verdict: 'pass', evidence: [expect.objectContaining({ statusCode: 200 })] });
  });

  it.each([
    [{ status: 301, headers: { location: 'https://elsewhere.test/hook' } }, 'warn', 'HTTP 301 to https://elsewhere.test/hook: redirects are not followed, so the message counts as failed (redirect not followed (301))'],
    [{ status: 429, headers: { 'retry-after': '30' } }, 'warn', 'HTTP 429 with Retry-After: 30: the destination waits that long (when longer than its next delay) and retries, within the 4-hour window'],
    [{ status: 429 }, 'warn', 'HTTP 429 without Retry-After: the destination retries on its schedule (5 s, 30 s, 2 min, …) within the 4-hour window'],
    [{ status: 404, body: 'no route /hook' }, 'fail', 'HTTP 404: no route /hook: a valid request refused; the destination fails the message for good (permanent: HTTP 404)'],
    [{ status: 503 }, 'fail', 'HTTP 503: ok: the destination retries this message for up to 4 hours'],
  ])('status semantics: %j on a valid request is %s', async (faults, verdict, detail) => {
    const r = await run(faults, { only: ['status.valid-request'] });
    expect(check(r, 'status.valid-request')).toMatchObject({ verdict, detail });
  });

  it('a receiver that redirects every request fails the forged-request checks for the redirect, naming the URL to check, not with the signature fix', async () => {
    const r = await run({ redirectsTo: '/hook/' }, { only: ['status.valid-request', 'signature.wrong-secret', 'signature.missing'] });
    const target = `${receiver.url}/`;
    expect(check(r, 'status.valid-request')).toMatchObject({ verdict: 'warn', fix: `Point the destination at ${target}, or answer 2xx at this one.` });
    expect(check(r, 'signature.wrong-secret')).toMatchObject({
      verdict: 'fail',
      detail: `signed with another secret: redirected (HTTP 301 to ${target}) as the valid requests are, so it never reached the code that verifies signatures: not known whether forged requests are refused`,
      fix: `Fix the redirect first (status.valid-request): point the destination at ${target} and run the check against it, which reaches the receiver's code.`,
    });
    expect(check(r, 'signature.missing')).toMatchObject({ verdict: 'fail', detail: expect.stringMatching(/^no X-Signature: redirected \(HTTP 301 to /) });
    // Alone, nothing shows that valid requests are redirected too: a redirected forgery is then only no refusal.
    const alone = await run({ redirectsTo: '/hook/' }, { only: ['signature.wrong-secret'] });
    expect(check(alone, 'signature.wrong-secret')).toMatchObject({ verdict: 'fail', detail: 'signed with another secret: answered HTTP 301, not a refusal (4xx)' });
  });

  it('a burst lost to a redirect names the URL it points at, and the fix says to point the destination there', async () => {
    const r = await run({ redirectsTo: '/hook/' }, { burst: 12, only: ['burst.concurrent'] });
    const burst = check(r, 'burst.concurrent');
    expect(burst.verdict).toBe('fail');
    expect(burst.detail).toMatch(/^12 of 12 deliveries in \d+ ms \([\d.]+\/s, at most 16 at once per origin, as the destination sends\) were redirected, which the destination never follows \(HTTP 301 to http:\/\/127\.0\.0\.1:\d+\/hook\/\)$/);
    expect(burst.fix).toBe(`Point the destination at ${receiver.url}/, or answer 2xx at this one.`);
  });

  it('an unreachable URL ends the run as unreachable, saying why, with nothing checked', async () => {
    const closed = await startReceiver();
    const url = closed.url;
    await closed.close();
    const r = await core.checks.runCheck({ url, secret: SECRET, wait: true });
    expect(r.ok && r.value).toMatchObject({ status: 'unreachable', checks: [], error: expect.stringMatching(/^cannot reach http:\/\/127\.0\.0\.1:\d+\/hook: ECONNREFUSED/) });
  });
});

describe('the mock receiver as the endpoint under check', () => {
  it('its self-signed https listener fails transport with the caFile fix; a 500 script fails the shapes', async () => {
    const addresses = await core.receivers.start({ host: '127.0.0.1', port: 0, tlsPort: 0 });
    cleanups.push(() => core.receivers.stop());
    const created = core.createReceiver({ name: 'down', script: 500 });
    expect(created.ok).toBe(true);
    const tls = await core.checks.runCheck({ url: `${addresses.tlsUrl}/r/down`, secret: SECRET, wait: true });
    expect(tls.ok && tls.value.checks.map((c) => [c.id, c.verdict])).toEqual([['transport.https', 'fail']]);
    expect(tls.ok && tls.value.checks[0]!.detail).toMatch(/^tls: self-signed certificate/);
    expect(tls.ok && tls.value.checks[0]!.fix).toMatch(/caFile/);
    const down = await core.checks.runCheck({ url: `${addresses.url}/r/down`, secret: SECRET, only: ['shapes.track', 'signature.missing'], wait: true });
    expect(down.ok && down.value.checks.map((c) => [c.id, c.verdict, c.detail])).toEqual([
      ['shapes.track', 'fail', 'HTTP 500: the destination retries this message for up to 4 hours'],
      ['signature.missing', 'fail', 'no X-Signature: answered HTTP 500; the real destination would retry this forged request for 4 hours. Refuse it with 401 instead'],
    ]);
  });
});

describe('through the engine: attempt records to link', () => {
  it('what the destination itself can send becomes a message with an attempt; byte forgeries go directly; its destinations are disabled after', async () => {
    const started = newCore({ timeoutMs: 10_000, slowMs: 5_000 }, true);
    receiver.respond = checkReceiver({ acceptsAnySignature: true });
    const r = await started.checks.runCheck({ url: receiver.url, secret: SECRET, only: ['shapes.alias', 'signature.wrong-secret', 'signature.missing', 'signature.tampered'], wait: true });
    if (!r.ok) throw new Error(r.error.message);
    const links = r.value.checks.map((c) => [c.id, c.verdict, c.evidence[0]!.attempt === null ? 'direct' : 'attempt']);
    expect(links).toEqual([
      ['shapes.alias', 'pass', 'attempt'],
      ['signature.wrong-secret', 'fail', 'attempt'],
      ['signature.missing', 'fail', 'attempt'],
      ['signature.tampered', 'fail', 'direct'],
    ]);
    const forged = r.value.checks[1]!.evidence[0]!;
    const message = started.getMessage({ id: forged.attempt!.messageId });
    expect(message.ok && message.value.attempts.map((a) => [a.id, a.statusCode, a.signature])).toEqual([[forged.attempt!.attemptId, 200, forged.request.headers['x-signature']]]);
    // Forged on purpose: its evidence says so, not what a receiver's mistake would be.
    expect(forged.signature?.explanation).toBe('forged on purpose (signed with another secret): a receiver must refuse it');
    expect(r.value.checks[2]!.evidence[0]!.request.headers).not.toHaveProperty('x-signature');
    const destinations = started.listDestinations({ owner: 'check' });
    expect(destinations.ok && destinations.value.items.map((d) => [d.name, d.enabled, d.sourceIds])).toEqual(
      expect.arrayContaining([
        ['hookbench check', false, []],
        ['hookbench check (another secret)', false, []],
        ['hookbench check (unsigned)', false, []],
      ]),
    );
  });
});

describe('through the engine: a body cut short', () => {
  it('an attempt whose receiver closed the connection mid-body is told so, not that it stalled the body', async () => {
    const started = newCore({ timeoutMs: 10_000, slowMs: 5_000 }, true);
    receiver.respond = checkReceiver({ closesMidBody: true });
    const r = await started.checks.runCheck({ url: receiver.url, secret: SECRET, only: ['shapes.track', 'time.body-stall'], wait: true });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.checks[0]!.evidence[0]!.attempt).not.toBeNull();
    expect(check(r.value, 'time.body-stall').detail).toMatch(/^1 response\(s\) sent headers, then closed the connection before the body ended/);
  });
});

describe('runs: events, history and comparison', () => {
  it('announces the run, each check and the end; keeps it; says what was fixed since the last run of the URL', async () => {
    const events: EngineEvent[] = [];
    const off = core.onEvent((e) => {
      if (e.type.startsWith('check')) events.push(e);
    });
    const only = ['signature.wrong-secret', 'signature.missing', 'shapes.track'];
    const before = await run({ acceptsAnySignature: true }, { only });
    const started = await core.checks.runCheck({ url: receiver.url, secret: SECRET, only, wait: false });
    expect(started.ok && started.value).toMatchObject({ status: 'running', total: 3, previousRunId: before.id });
    receiver.respond = checkReceiver();
    await new Promise<void>((resolve) => {
      const stop = core.onEvent((e) => {
        if (e.type === 'checkRunFinished' && started.ok && e.run.id === started.value.id) {
          stop();
          resolve();
        }
      });
    });
    off();
    const after = core.checks.getCheckRun({ id: started.ok ? started.value.id : 0 });
    expect(after.ok && after.value.checks.map((c) => [c.id, c.verdict, c.change])).toEqual([
      ['shapes.track', 'pass', 'same'],
      ['signature.wrong-secret', 'pass', 'fixed'],
      ['signature.missing', 'pass', 'fixed'],
    ]);
    expect(after.ok && after.value.fixedSinceLastRun).toEqual(['signature.wrong-secret', 'signature.missing']);
    const ofRun = events.filter((e) => ('run' in e ? e.run.id : 'runId' in e ? e.runId : 0) === (started.ok ? started.value.id : -1));
    expect(ofRun.map((e) => e.type)).toEqual(['checkRunStarted', 'checkFinished', 'checkFinished', 'checkFinished', 'checkRunFinished']);
    expect(ofRun.at(-1)).toMatchObject({ type: 'checkRunFinished', run: { status: 'finished', summary: { passed: 3, failed: 0, warnings: 0 } } });
    const listed = core.checks.listCheckRuns({ url: receiver.url, limit: 2 });
    expect(listed.ok && listed.value.items.map((i) => i.id)).toEqual([started.ok && started.value.id, before.id]);
    expect(listed.ok && listed.value.nextCursor).not.toBeNull();
    expect(listed.ok && listed.value.items[0]!.options).toEqual({ secretGiven: true, headers: {}, only, burst: 50, scenarios: 0, caFile: null, capacity: null });
    expect(JSON.stringify(listed)).not.toContain(SECRET);
  });

  it('a password in the URL is sent (Basic auth, as the destination does) but never kept or shown', async () => {
    receiver.respond = checkReceiver();
    const url = receiver.url.replace('http://', 'http://ada:pa55word@');
    const r = await core.checks.runCheck({ url, secret: SECRET, only: ['shapes.track'], wait: true });
    expect(receiver.captured.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from('ada:pa55word').toString('base64')}`);
    expect(r.ok && r.value.url).toBe(receiver.url.replace('http://', 'http://ada:••••@'));
    expect(JSON.stringify(r)).not.toContain('pa55word');
    expect(JSON.stringify(core.checks.listCheckRuns({}))).not.toContain('pa55word');
  });

  it('refuses an unknown ID in only, and a scenario that reuses a built-in ID, naming the field', async () => {
    expect(await core.checks.runCheck({ url: receiver.url, only: ['shapes.track', 'shapes.nope'] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', field: 'only[1]', message: 'only[1]: no check has the ID "shapes.nope" (hookbench check --list prints them)' },
    });
    const clash = await core.checks.runCheck({ url: receiver.url, scenarios: { scenarios: [{ id: 'shapes.track', title: 't', body: {} }] } });
    expect(clash).toMatchObject({ ok: false, error: { field: 'scenarios.scenarios[0].id' } });
  });
});
