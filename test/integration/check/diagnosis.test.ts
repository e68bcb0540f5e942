/**
 * The endpoint check names why a receiver refuses valid signatures: receivers with the classic mistakes (in
 * Node, and one in Python's http.server) each get the diagnosis of their mistake, probes labelled in the
 * evidence; a correct one gets none. Also what makes the report exact: checks refused only for the signature
 * point at the diagnosis, signature.raw-bytes, a fresh messageId per redelivery run, and a slow burst that
 * is queueing, not slow work. Real sockets; every wait is on state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../main/app/createCore.js';
import type { CheckResult, CheckRun } from '../../../main/contract/check/check.js';
import { CONCURRENCY_FIX } from '../../../main/contract/check/checkFixes.js';
import type { EngineEvent } from '../../../main/contract/events.js';
import { secretFingerprint } from '../../../main/domain/secrets.js';
import { checkReceiver, SECRET, type Faults, type ReceiverMistake } from '../../helpers/checkReceivers.js';
import { python3Missing, startPythonReceiver } from '../../helpers/pythonReceiver.js';
import { startReceiver, type TestReceiver } from '../../helpers/receiver.js';
import { tempDir } from '../../helpers/tempDir.js';
import { must } from '../../helpers/harness.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

function newCore(options: { timing?: { timeoutMs: number; slowMs: number }; forwarding?: boolean } = {}): Core {
  const { dir, cleanup } = tempDir('hookbench-check-diagnosis-');
  const core = createCore({ dataDir: dir, autoStart: options.forwarding ?? false, forwarder: 'inline', checkTiming: options.timing ?? { timeoutMs: 10_000, slowMs: 5_000 } });
  cleanups.push(async () => {
    await core.close();
    cleanup();
  });
  return core;
}

let core: Core;
let receiver: TestReceiver;

beforeAll(async () => {
  core = newCore();
  receiver = await startReceiver(checkReceiver());
  cleanups.push(() => receiver.close());
});

async function run(url: string, options: { secret?: string; only?: string[]; burst?: number; on?: Core } = {}): Promise<CheckRun> {
  const r = await (options.on ?? core).checks.runCheck({ url, secret: options.secret ?? SECRET, burst: options.burst ?? 4, ...(options.only ? { only: options.only } : {}), wait: true });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

async function against(faults: Faults, options: { secret?: string; only?: string[]; burst?: number } = {}): Promise<CheckRun> {
  receiver.respond = checkReceiver(faults, options.secret?.trim() ?? SECRET);
  return run(receiver.url, options);
}

const check = (r: CheckRun, id: string): CheckResult => {
  const found = r.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id} in ${r.checks.map((c) => c.id).join(', ')}`);
  return found;
};
const probes = (r: CheckRun) => r.checks.flatMap((c) => c.evidence.filter((ex) => ex.label.startsWith('probe: ')));
const acceptedProbe = (r: CheckRun) => probes(r).find((ex) => ex.statusCode === 200);
const SEE = 'refused (HTTP 401): the receiver rejects valid signatures, see the diagnosis';

describe('the diagnosis: why valid signatures are refused', () => {
  it.each<[ReceiverMistake, string, string]>([
    ['sha256', 'it computes HMAC-SHA256, not HMAC-SHA1', 'probe: HMAC-SHA256 (hex)'],
    ['base64', 'it compares the digest as base64, not lowercase hex', 'probe: HMAC-SHA1 as base64'],
    ['sha1-prefix', 'it expects X-Signature with a "sha1=" prefix', 'probe: a "sha1=" prefix'],
    ['trailing-newline-added', 'it verifies X-Signature over the body with a newline added at the end', 'probe: signed over the body with a trailing newline added'],
    ['uppercase-hex', 'it compares X-Signature with an upper-case hex digest, case by case', 'probe: HMAC-SHA1 as upper-case hex'],
  ])('a Node receiver making the %s mistake gets that diagnosis, the accepted probe in the evidence', async (mistake, says, label) => {
    const r = await against({ signatureMistake: mistake }, { only: ['status.valid-request', 'shapes.track', 'signature.wrong-secret'] });
    expect(r.diagnosis).toMatchObject({ mistake, title: `The receiver rejects valid signatures: ${says}` });
    expect(r.diagnosis!.fix).toMatch(/HMAC-SHA1 of the raw request body bytes/);
    const status = check(r, 'status.valid-request');
    expect(status).toMatchObject({ verdict: 'fail', detail: SEE, fix: null });
    // The check's own request first, then the probes sent directly (no attempt record), the last one accepted.
    expect(status.evidence[0]).toMatchObject({ statusCode: 401, signature: { explanation: 'signature matches' } });
    expect(status.evidence.at(-1)).toMatchObject({ label, statusCode: 200, attempt: null });
    expect(status.evidence.slice(1).every((ex) => ex.label.startsWith('probe: '))).toBe(true);
    expect(check(r, 'shapes.track')).toMatchObject({ verdict: 'fail', detail: SEE, fix: null });
    expect(check(r, 'signature.wrong-secret').verdict).toBe('pass');
  });

  it("a receiver whose copy of the secret kept its file's newline gets secret-newline, with a fix about the receiver's secret", async () => {
    const r = await against({ signatureMistake: 'secret-newline' }, { only: ['status.valid-request'] });
    expect(r.diagnosis).toMatchObject({ mistake: 'secret-newline', title: 'The receiver rejects valid signatures: it verifies with its secret plus a trailing newline (read from a file or .env with the newline kept)' });
    expect(r.diagnosis!.fix).toMatch(/^The signature it accepts is made with the secret plus a newline: the receiver's copy of the secret ends with one/);
  });

  it('a receiver that trims the secret gets secret-whitespace (probed only because the secret has whitespace)', async () => {
    const r = await against({ signatureMistake: 'secret-whitespace' }, { secret: ' whsec-from-a-file\n', only: ['status.valid-request'] });
    expect(r.diagnosis?.mistake).toBe('secret-whitespace');
    expect(acceptedProbe(r)?.label).toBe('probe: signed with the secret trimmed of its surrounding whitespace');
    const plain = await against({ signatureMistake: 'sha256' }, { only: ['status.valid-request'] });
    expect(probes(plain).map((ex) => ex.label)).not.toContain('probe: signed with the secret trimmed of its surrounding whitespace');
  });

  it.skipIf(python3Missing)('a Python http.server receiver verifying json.dumps(json.loads(body)) gets python-json-dumps', async () => {
    const python = await startPythonReceiver(SECRET);
    cleanups.push(() => python.close());
    const r = await run(python.url, { only: ['status.valid-request', 'shapes.unicode', 'content-type.no-charset'] });
    expect(r.diagnosis).toMatchObject({ mistake: 'python-json-dumps', title: "The receiver rejects valid signatures: it verifies X-Signature over Python's json.dumps(json.loads(body)), not the bytes received" });
    expect(acceptedProbe(r)?.label).toBe('probe: signed over Python json.dumps form');
    expect(r.diagnosis!.fix).toMatch(/request\.get_data\(\)/);
    expect(check(r, 'shapes.unicode').detail).toBe(SEE);
  });

  it('the whole battery against a wrong receiver: every check refused for the signature points at the diagnosis, none gives advice its evidence contradicts', async () => {
    const events: EngineEvent[] = [];
    const off = core.onEvent((e) => e.type === 'checkFinished' && events.push(e));
    const r = await against({ signatureMistake: 'sha256' });
    off();
    expect(r.diagnosis?.mistake).toBe('sha256');
    const failed = r.checks.filter((c) => c.verdict !== 'pass');
    expect(failed.length).toBeGreaterThan(15);
    for (const c of failed) expect([c.id, c.detail, c.fix]).toEqual([c.id, SEE, null]);
    // Its 4xx was the signature refusal, not the media type: no "accept application/json" advice.
    expect(check(r, 'content-type.no-charset')).toMatchObject({ verdict: 'fail', detail: SEE, fix: null });
    expect(r.checks.filter((c) => c.area === 'signature' && c.id !== 'signature.raw-bytes').map((c) => c.verdict)).toEqual(['pass', 'pass', 'pass', 'pass']);
    // Probes are the diagnosis' evidence, not the run's requests: the latency check does not count them.
    const requests = r.checks.filter((c) => c.area !== 'time').flatMap((c) => c.evidence.filter((ex) => !ex.label.startsWith('probe: '))).length;
    expect(check(r, 'time.latency').detail).toContain(`over ${requests} requests`);
    // The diagnosis is announced with the check that found it, and kept with the run.
    const ofRun = events.filter((e) => e.type === 'checkFinished' && e.runId === r.id) as Extract<EngineEvent, { type: 'checkFinished' }>[];
    expect(ofRun[0]).toMatchObject({ check: { id: 'status.valid-request' }, diagnosis: { mistake: 'sha256' } });
    const stored = core.checks.getCheckRun({ id: r.id });
    expect(stored.ok && stored.value.diagnosis).toEqual(r.diagnosis);
    const listed = core.checks.listCheckRuns({ url: receiver.url, limit: 1 });
    expect(listed.ok && listed.value.items[0]).not.toHaveProperty('diagnosis');
    expect(listed.ok && Object.keys(listed.value.items[0]!.options)).toEqual(['secretGiven', 'headers', 'only', 'burst', 'scenarios', 'caFile', 'capacity']);
  });

  it('no probe accepted: the diagnosis says so plainly, with the fingerprint of the secret used (never the secret)', async () => {
    receiver.respond = checkReceiver({}, 'the-receivers-own-secret');
    const r = await run(receiver.url, { only: ['status.valid-request', 'shapes.track'] });
    expect(r.diagnosis).toMatchObject({ mistake: 'unknown', title: 'The receiver rejects valid signatures (HTTP 401), and no known mistake explains it' });
    expect(r.diagnosis!.fix).toContain(`is ${secretFingerprint(SECRET)};`);
    expect(r.diagnosis!.fix).toMatch(/^Check that the receiver verifies with the same shared secret: .* None of the \d+ mistaken signatures \(.*\) was accepted\.$/);
    expect(JSON.stringify(r.diagnosis)).not.toContain(SECRET);
    expect(probes(r).length).toBeGreaterThan(5);
    expect(probes(r).every((ex) => ex.statusCode === 401)).toBe(true);
    expect(check(r, 'shapes.track').detail).toBe(SEE);
  });

  it('a refusal that is not about the signature (404 to valid requests, 401 to forged ones) keeps each check its own words', async () => {
    const r = await against({ status: 404, body: 'no route' }, { only: ['status.valid-request', 'content-type.no-charset', 'signature.missing'] });
    expect(r.diagnosis).toMatchObject({ mistake: 'unknown', title: 'The receiver refuses valid, signed requests with HTTP 404, and accepts none of the mistaken signatures either' });
    expect(r.diagnosis!.fix).toMatch(/^The refusal may not be about the signature \(it answered: no route\): check the URL/);
    expect(check(r, 'status.valid-request').detail).toBe('HTTP 404: no route: a valid request refused; the destination fails the message for good (permanent: HTTP 404)');
    // A 404 to both Content-Types says nothing about media types: no form-encoding advice.
    expect(check(r, 'content-type.no-charset')).toMatchObject({ verdict: 'fail', fix: null });
    expect(check(r, 'signature.missing').verdict).toBe('pass');
  });

  it('a receiver that accepts valid signatures gets no diagnosis and no probe; neither does one that accepts unsigned requests in a run without a secret', async () => {
    const r = await against({}, { only: ['status.valid-request', 'signature.raw-bytes', 'shapes.track'] });
    expect(r.diagnosis).toBeNull();
    expect(probes(r)).toEqual([]);
    receiver.respond = checkReceiver({ acceptsAnySignature: true });
    const unsigned = await core.checks.runCheck({ url: receiver.url, only: ['status.valid-request', 'shapes.track', 'signature.unverified'], wait: true });
    if (!unsigned.ok) throw new Error(unsigned.error.message);
    expect(unsigned.value.diagnosis).toBeNull();
    expect(check(unsigned.value, 'signature.unverified')).toMatchObject({
      verdict: 'warn',
      detail: 'no shared secret was given, so the forged-request checks did not run: requests to this receiver are not being verified',
    });
  });

  it('a run without a secret against a receiver that verifies signatures says so once: the no-secret diagnosis, no probe, and no check blames the call it sent', async () => {
    receiver.respond = checkReceiver();
    const r = await core.checks.runCheck({ url: receiver.url, only: ['status.valid-request', 'shapes.track', 'shapes.identify', 'signature.unverified'], wait: true });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.diagnosis).toEqual({
      mistake: 'no-secret',
      title: 'The receiver refuses unsigned requests (HTTP 401): it verifies X-Signature, and this run had no shared secret to sign with',
      fix: "Run the check again with the destination's shared secret (the one the receiver verifies with; --secret in the CLI): every request is then signed as the destination signs it, and the forged-request checks run too.",
    });
    expect(probes(r.value)).toEqual([]);
    const unsignedRefused = 'refused (HTTP 401): the receiver refuses unsigned requests and this run had no shared secret, see the diagnosis';
    for (const id of ['status.valid-request', 'shapes.track', 'shapes.identify']) expect(check(r.value, id)).toMatchObject({ verdict: 'fail', detail: unsignedRefused, fix: null });
    expect(check(r.value, 'signature.unverified')).toMatchObject({
      verdict: 'warn',
      detail: "no shared secret was given, so the run's requests went unsigned and the forged-request checks did not run; the receiver refused them (HTTP 401), so it seems to verify signatures: see the diagnosis",
      fix: null,
    });
    // The run as stored says the same as the run as answered.
    expect(must(core.checks.getCheckRun({ id: r.value.id })).diagnosis?.mistake).toBe('no-secret');
  });

  it('without a secret, a refusal that is not 401 or 403 is not read as signature checking', async () => {
    receiver.respond = checkReceiver({ acceptsAnySignature: true, status: 404 });
    const r = await core.checks.runCheck({ url: receiver.url, only: ['status.valid-request', 'signature.unverified'], wait: true });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.diagnosis).toBeNull();
    expect(check(r.value, 'signature.unverified').detail).toContain('requests to this receiver are not being verified');
  });

  it('through the engine: the valid request is an attempt record, the probes go directly', async () => {
    const started = newCore({ forwarding: true });
    receiver.respond = checkReceiver({ signatureMistake: 'base64' });
    const r = await run(receiver.url, { only: ['status.valid-request'], on: started });
    const evidence = check(r, 'status.valid-request').evidence;
    expect(evidence[0]!.attempt).not.toBeNull();
    expect(evidence.slice(1).map((ex) => ex.attempt)).toEqual(evidence.slice(1).map(() => null));
    expect(r.diagnosis?.mistake).toBe('base64');
  });
});

describe('signature.raw-bytes: a serialisation the destination may send, verified over its exact bytes', () => {
  it('a receiver verifying JSON.stringify(JSON.parse(body)) passes everything else, fails raw-bytes and gets the reserialised diagnosis', async () => {
    const r = await against({ signatureMistake: 'reserialised' });
    expect(r.checks.filter((c) => c.verdict !== 'pass').map((c) => c.id)).toEqual(['signature.raw-bytes']);
    const raw = check(r, 'signature.raw-bytes');
    expect(raw.detail).toBe(
      'HTTP 401: a valid signature over bytes that JSON.parse and JSON.stringify would change was refused; the destination fails such a message for good (permanent: HTTP 401); the diagnosis says why',
    );
    const sent = raw.evidence[0]!;
    expect(sent.request.body).toContain('\\u003cb\\u003ePro\\u003c\\/b\\u003e \\u0026 more');
    expect(sent.request.body).toContain('https:\\/\\/example.com\\/pricing');
    expect(JSON.stringify(JSON.parse(sent.request.body))).not.toBe(sent.request.body);
    expect(sent.signature?.explanation).toBe('signature matches');
    expect(r.diagnosis).toMatchObject({ mistake: 'reserialised', title: 'The receiver rejects some valid signatures: it verifies X-Signature over the body parsed and re-serialised (JSON.stringify(JSON.parse(body))), not the bytes received' });
    expect(raw.evidence[1]).toMatchObject({ label: 'probe: signed over JSON.stringify(JSON.parse(body))', statusCode: 200 });
    expect(raw.evidence[1]!.request.body).toBe(sent.request.body);
  });

  it('a correct receiver (401 on a bad signature, de-duplicating by messageId) passes it', async () => {
    const r = await against({}, { only: ['signature.raw-bytes'] });
    expect(check(r, 'signature.raw-bytes')).toMatchObject({ verdict: 'pass', detail: 'HTTP 200: the signature is verified over the bytes received' });
  });
});

describe('report exactness', () => {
  it('redelivery uses a fresh messageId each run: a receiver that remembers ids across runs still gets a true "first delivery"', async () => {
    receiver.respond = checkReceiver({ conflictOnDuplicate: true });
    const first = await run(receiver.url, { only: ['redelivery.same-message'] });
    const second = await run(receiver.url, { only: ['redelivery.same-message'] });
    const ids = [first, second].map((r) => (JSON.parse(check(r, 'redelivery.same-message').evidence[0]!.request.body) as { messageId: string }).messageId);
    expect(ids[0]).not.toBe(ids[1]);
    expect(check(second, 'redelivery.same-message').evidence.map((ex) => ex.statusCode)).toEqual([200, 409]);
    expect(check(second, 'redelivery.same-message').detail).toMatch(/^the duplicate got HTTP 409/);
  });

  it('a burst queueing behind a receiver that answers one request at a time is called that, not slow work', async () => {
    // Each request takes 80 ms after the one before it: single requests take ~80 ms, the 16th of the burst ~1.3 s.
    const queueing = newCore({ timing: { timeoutMs: 10_000, slowMs: 500 } });
    receiver.respond = checkReceiver({ oneAtATimeMs: 80 });
    const r = await run(receiver.url, { on: queueing, burst: 16, only: ['shapes.track', 'shapes.page', 'burst.concurrent', 'time.latency'] });
    const latency = check(r, 'time.latency');
    expect(latency.verdict).toBe('warn');
    expect(latency.detail).toMatch(/took more than 500 ms \(slowest: burst \d+\/16\), all of them in the burst while requests sent one at a time took at most \d+ ms: the burst queued, so the receiver handles \(or accepts connections for\) only one request or a few at a time$/);
    expect(latency.fix).toBe(CONCURRENCY_FIX);
    expect(latency.fix).not.toMatch(/slow work after responding/);
  });

  it('slow answers to single requests are still "do the slow work after responding"', async () => {
    const tight = newCore({ timing: { timeoutMs: 10_000, slowMs: 0 } });
    receiver.respond = checkReceiver();
    const r = await run(receiver.url, { on: tight, burst: 2, only: ['shapes.track', 'burst.concurrent', 'time.latency'] });
    expect(check(r, 'time.latency')).toMatchObject({ verdict: 'warn', fix: expect.stringMatching(/do the slow work after responding/) });
    expect(check(r, 'time.latency').detail).not.toContain('queue');
  });
});
