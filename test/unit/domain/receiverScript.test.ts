import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseReceiverRef, receiverInputSchema, receiverPatchSchema, respondStep, type ResponseScript, type ScriptStep } from '../../../main/contract/receiver/receiver.js';
import { parseWith } from '../../../main/contract/schemas.js';
import {
  checkSignature,
  chooseStep,
  describeScript,
  describeStep,
  messageIdOf,
  receiverNameOf,
  requestUnit,
  responseHeaders,
  unknownEndpointBody,
} from '../../../main/domain/receiverScript.js';

const sequence = (statuses: number[], after: 'repeat-last' | 'cycle' = 'repeat-last'): ResponseScript => ({
  mode: 'sequence',
  steps: statuses.map(respondStep),
  after,
});

function script(input: unknown): ResponseScript {
  const parsed = parseWith(receiverInputSchema, { name: 'r', script: input });
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value.script;
}

function scriptError(input: unknown): { field?: string | undefined; message: string; limit?: number | undefined } {
  const parsed = parseWith(receiverInputSchema, { name: 'r', script: input });
  if (parsed.ok) throw new Error('expected an error');
  return parsed.error;
}

const hmac = (secret: string, body: string) => createHmac('sha1', secret).update(body).digest('hex');

describe('chooseStep: sequences', () => {
  it('500, 500, 200 answers the first three requests in order, then the last step repeats', () => {
    const s = sequence([500, 500, 200]);
    expect([0, 1, 2, 3, 4].map((n) => chooseStep(s, n).step.status)).toEqual([500, 500, 200, 200, 200]);
    expect(chooseStep(s, 1).capture).toEqual({ index: 1, request: 2, label: 'step 2 of 3: 500', action: 'respond', status: 500, delayMs: 0 });
    expect(chooseStep(s, 7).capture).toMatchObject({ index: 2, request: 8, label: 'step 3 of 3: 200' });
  });

  it('cycle starts over after the last step', () => {
    const s = sequence([500, 200], 'cycle');
    expect([0, 1, 2, 3, 4].map((n) => chooseStep(s, n).step.status)).toEqual([500, 200, 500, 200, 500]);
  });

  it('a one-step script is labelled by its step alone', () => {
    expect(chooseStep(sequence([404]), 9).capture).toMatchObject({ index: 0, request: 10, label: '404', status: 404 });
  });

  it('never, reset and close send no status', () => {
    const s = script('never,reset,close');
    expect([0, 1, 2].map((n) => chooseStep(s, n).capture)).toEqual([
      { index: 0, request: 1, label: 'step 1 of 3: never answer', action: 'never', status: null, delayMs: 0 },
      { index: 1, request: 2, label: 'step 2 of 3: reset the connection', action: 'reset', status: null, delayMs: 0 },
      { index: 2, request: 3, label: 'step 3 of 3: close without a response', action: 'close', status: null, delayMs: 0 },
    ]);
  });
});

describe('chooseStep: failure rate with a seed', () => {
  const rate = (r: number, seed: number): ResponseScript => script({ mode: 'failureRate', rate: r, seed });

  it('is deterministic: the same seed fails the same requests', () => {
    const run = (seed: number) => Array.from({ length: 200 }, (_, n) => chooseStep(rate(0.3, seed), n).capture.index);
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
  });

  it('fails about `rate` of the requests, with the failure step (500 by default)', () => {
    const s = rate(0.3, 11);
    const outcomes = Array.from({ length: 10_000 }, (_, n) => chooseStep(s, n));
    const failures = outcomes.filter((o) => o.capture.index === 1);
    expect(failures.length / outcomes.length).toBeGreaterThan(0.28);
    expect(failures.length / outcomes.length).toBeLessThan(0.32);
    expect(failures[0]!.step.status).toBe(500);
    expect(failures[0]!.capture.label).toBe('failure (rate 0.3): 500');
    expect(outcomes.find((o) => o.capture.index === 0)!.capture.label).toBe('success (rate 0.3): 200');
  });

  it('rate 0 never fails and rate 1 always fails', () => {
    expect(Array.from({ length: 500 }, (_, n) => chooseStep(rate(0, 3), n).capture.index).every((i) => i === 0)).toBe(true);
    expect(Array.from({ length: 500 }, (_, n) => chooseStep(rate(1, 3), n).capture.index).every((i) => i === 1)).toBe(true);
  });

  it('requestUnit stays in [0, 1)', () => {
    for (let n = 0; n < 1000; n++) {
      const u = requestUnit(n * 7919, n);
      expect(u).toBeGreaterThanOrEqual(0);
      expect(u).toBeLessThan(1);
    }
  });
});

describe('script input: shorthands and errors naming the field and limit', () => {
  it('"500,500,200", 404, a step object, {steps}, and arrays all normalise to a sequence', () => {
    expect(script('500, 500, 200')).toEqual(sequence([500, 500, 200]));
    expect(script(404)).toEqual(sequence([404]));
    expect(script([503, '200'])).toEqual(sequence([503, 200]));
    expect(script({ status: 503, retryAfter: '30' })).toEqual({ mode: 'sequence', steps: [{ ...respondStep(503), retryAfter: 30 }], after: 'repeat-last' });
    expect(script({ steps: [500, { status: 200, delayMs: 6000 }], after: 'cycle' })).toEqual({
      mode: 'sequence',
      steps: [respondStep(500), { ...respondStep(200), delayMs: 6000 }],
      after: 'cycle',
    });
  });

  it('a failure rate gets seed 1, 200 and 500 by default', () => {
    expect(script({ mode: 'failureRate', rate: 0.5 })).toEqual({ mode: 'failureRate', rate: 0.5, seed: 1, success: respondStep(200), failure: respondStep(500) });
  });

  it('errors name the field and, where one applies, the limit', () => {
    expect(scriptError({ steps: [500, 50, 200] })).toMatchObject({ field: 'script.steps[1].status', message: 'script.steps[1].status: must be an HTTP status code from 200 to 599 (got 50)' });
    expect(scriptError({ steps: [500, 'soon'] })).toMatchObject({ field: 'script.steps[1]', message: expect.stringContaining('"soon" is not a step') });
    expect(scriptError({ steps: Array(101).fill(200) })).toMatchObject({ field: 'script.steps', limit: 100, message: 'script.steps: at most 100 steps (got 101)' });
    expect(scriptError({ mode: 'failureRate', rate: 1.5 })).toMatchObject({ field: 'script.rate', limit: 1 });
    expect(scriptError({ steps: [{ action: 'never', delayMs: 10 }] })).toMatchObject({ field: 'script.steps[0].delayMs' });
  });

  it("a shorthand's problem is named where it was written, with the value given", () => {
    // A step object given as the whole script: its fields are the script's, there is no steps[0] in the input.
    expect(scriptError({ status: 200, delayMs: 600_001 })).toMatchObject({ field: 'script.delayMs', limit: 600_000, message: 'script.delayMs: must be at most 600000 ms (10 minutes; got 600001)' });
    expect(scriptError({ status: 200, delayMs: -5 })).toMatchObject({ field: 'script.delayMs', message: 'script.delayMs: must be at least 0 (got -5)' });
    expect(scriptError({ status: 200, delayMs: 1.5 })).toMatchObject({ message: 'script.delayMs: must be a whole number of milliseconds (got 1.5)' });
    expect(scriptError({ status: 503, retryAfter: 10 ** 9 })).toMatchObject({ field: 'script.retryAfter', limit: 604_800 });
    expect(scriptError({ status: 503, retryAfter: 'later' })).toMatchObject({ field: 'script.retryAfter' });
    expect(scriptError({ status: 200, headers: { 'Content-Length': '1' } })).toMatchObject({ field: 'script.headers.Content-Length' });
    expect(scriptError({ status: 200, body: 'x'.repeat(65_537) })).toMatchObject({ field: 'script.body', limit: 65_536 });
    expect(scriptError({ status: 200, stauts: 500 })).toMatchObject({ field: 'script.stauts', message: 'script.stauts: unknown field (did you mean "status"?)' });
    expect(scriptError({ action: 'never', delayMs: 10 })).toMatchObject({ field: 'script.delayMs' });
    // A number is the script itself.
    expect(scriptError(0)).toMatchObject({ field: 'script', message: 'script: must be an HTTP status code from 200 to 599 (got 0)' });
    expect(scriptError(1000)).toMatchObject({ field: 'script', message: 'script: must be an HTTP status code from 200 to 599 (got 1000)' });
    // A list as a string: one string in the input, its items numbered from 1.
    expect(scriptError('500, 50, 200')).toMatchObject({ field: 'script', message: 'script: item 2 ("50"): must be an HTTP status code from 200 to 599 (got 50)' });
    expect(scriptError('500,soon')).toMatchObject({ field: 'script', message: 'script: item 2 ("soon") is not a step: give a status code (200-599), never, reset or close' });
    // A token with quotes in it is quoted once, as the item, not again in the words after it.
    expect(scriptError('200,{"status":500}')).toMatchObject({ message: 'script: item 2 ("{\\"status\\":500}") is not a step: give a status code (200-599), never, reset or close' });
    // Steps written apart with spaces or semicolons: said so, as the Receiver screen's Responses field says it.
    expect(scriptError('500 500 200')).toMatchObject({ field: 'script', message: 'script: item 1 ("500 500 200") holds 3 responses: separate them with commas (500, 500, 200)' });
    expect(scriptError('200, 500;never')).toMatchObject({ field: 'script', message: 'script: item 2 ("500;never") holds 2 responses: separate them with commas (500, never)' });
    expect(scriptError('200,,500')).toMatchObject({ field: 'script', message: 'script: item 2 is empty: give a status code (200-599), never, reset or close' });
    expect(scriptError('500,200,')).toMatchObject({ field: 'script', message: 'script: item 3 is empty: give a status code (200-599), never, reset or close' });
    expect(scriptError(Array(1000).fill('200').join(','))).toMatchObject({ field: 'script', limit: 100, message: 'script: at most 100 steps (got 1000)' });
    // A list as an array: its items by index, as the input has them.
    expect(scriptError([503, { status: 200, delayMs: 700_000 }])).toMatchObject({ field: 'script[1].delayMs', message: 'script[1].delayMs: must be at most 600000 ms (10 minutes; got 700000)' });
    expect(scriptError([503, { status: 200, stauts: 1 }])).toMatchObject({ field: 'script[1].stauts', message: 'script[1].stauts: unknown field (did you mean "status"?)' });
  });

  it('endpoint names are URL path segments', () => {
    expect(parseWith(receiverInputSchema, { name: 'orders-v2.test_1' }).ok).toBe(true);
    for (const name of ['', 'a/b', 'a b', '-x', 'x'.repeat(65)]) {
      const r = parseWith(receiverInputSchema, { name });
      expect(r.ok, name).toBe(false);
      if (!r.ok) expect(r.error.field).toBe('name');
    }
  });

  it('a name with a space around it is refused, naming the value, never trimmed into another name', () => {
    expect(parseWith(receiverInputSchema, { name: ' spaced2 ' })).toMatchObject({ ok: false, error: { field: 'name', message: 'name: must not begin or end with a space (got " spaced2 ")' } });
    expect(parseWith(receiverPatchSchema, { name: 'flaky3 ' })).toMatchObject({ ok: false, error: { field: 'name', message: 'name: must not begin or end with a space (got "flaky3 ")' } });
    expect(parseWith(receiverInputSchema, { name: 'a b' })).toMatchObject({ ok: false, error: { message: 'name: must start with a letter or digit and use only letters, digits, ".", "_" and "-" (it is a URL path segment; got "a b")' } });
  });
});

describe('descriptions and response headers', () => {
  const step = (s: Partial<ScriptStep>): ScriptStep => ({ ...respondStep(200), ...s });

  it('describe steps and scripts in one line', () => {
    expect(describeStep(step({ status: 503, retryAfter: 30 }))).toBe('503, Retry-After 30');
    expect(describeStep(step({ delayMs: 6000 }))).toBe('200 after 6000 ms');
    expect(describeStep(step({ action: 'reset', delayMs: 100 }))).toBe('reset the connection after 100 ms');
    expect(describeScript(sequence([500, 500, 200]))).toBe('500, 500, 200 (then the last step repeats)');
    expect(describeScript(sequence([200]))).toBe('always 200');
    expect(describeScript(script('never'))).toBe('never answer');
    expect(describeScript(script({ mode: 'failureRate', rate: 0.25, seed: 9 }))).toBe('25 % of requests fail (seed 9) with 500, the rest get 200');
  });

  it('Retry-After is sent when set; a body without Content-Type gets one', () => {
    expect(responseHeaders(step({ status: 429, retryAfter: 30 }))).toEqual({ 'Retry-After': '30' });
    expect(responseHeaders(step({ body: '{"ok":true}' }))).toEqual({ 'Content-Type': 'application/json' });
    expect(responseHeaders(step({ body: 'fine' }))).toEqual({ 'Content-Type': 'text/plain; charset=utf-8' });
    expect(responseHeaders(step({ body: 'x', headers: { 'content-type': 'text/csv' } }))).toEqual({ 'content-type': 'text/csv' });
  });

  it('the 404 body for an unknown path lists the endpoints', () => {
    const body = JSON.parse(unknownEndpointBody('/r/ordrs', [{ name: 'orders', url: 'http://127.0.0.1:4410/r/orders' }])) as {
      error: { code: string; message: string };
      receivers: unknown[];
    };
    expect(body.error.code).toBe('unknown_receiver');
    expect(body.error.message).toContain('known endpoints: /r/orders');
    expect(body.receivers).toEqual([{ name: 'orders', url: 'http://127.0.0.1:4410/r/orders' }]);
  });

  it('with thousands of endpoints, the 404 names the ten nearest to the path asked for and the count, not all of them', () => {
    const endpoints = Array.from({ length: 3000 }, (_, i) => ({ name: `ep-${String(i).padStart(4, '0')}`, url: null }));
    endpoints.push({ name: 'orders', url: null }, { name: 'orders-eu', url: null });
    const text = unknownEndpointBody('/r/ordrs', endpoints);
    const body = JSON.parse(text) as { error: { message: string }; receivers: { name: string }[]; receiverCount: number };
    expect(body.receivers.map((r) => r.name).slice(0, 2)).toEqual(['orders', 'orders-eu']);
    expect(body.receivers).toHaveLength(10);
    expect(body.receiverCount).toBe(3002);
    expect(body.error.message).toContain('and 2,992 more (listReceivers lists them all)');
    expect(text.length).toBeLessThan(2_000);
  });
});

describe('signature verdicts', () => {
  const body = '{"type":"track","messageId":"m-1","properties":{"a":1}}';
  const bytes = Buffer.from(body);

  it('valid, missing, and invalid with the diagnosis and the expected value', () => {
    expect(checkSignature({ secret: 's', body: bytes, given: hmac('s', body) })).toEqual({ verdict: 'valid', given: hmac('s', body), expected: hmac('s', body), diagnosis: null });
    expect(checkSignature({ secret: 's', body: bytes, given: undefined })).toEqual({ verdict: 'missing', given: null, expected: hmac('s', body), diagnosis: null });
    const wrong = checkSignature({ secret: 's', body: bytes, given: hmac('other', body) });
    expect(wrong).toMatchObject({ verdict: 'invalid', expected: hmac('s', body), diagnosis: { mistakes: ['unknown'] } });
    expect(wrong.diagnosis!.explanation).toContain('check the shared secret');
  });

  it('a body re-serialised after signing is named as such', () => {
    const pretty = JSON.stringify(JSON.parse(body), null, 2);
    const check = checkSignature({ secret: 's', body: Buffer.from(pretty), given: hmac('s', body) });
    expect(check.verdict).toBe('invalid');
    expect(check.expected).toBe(hmac('s', pretty));
    expect(check.diagnosis!.mistakes).toEqual(['reserialised']);
  });

  it('a truncated body is judged by the digest of every byte', () => {
    expect(checkSignature({ secret: 's', body: bytes.subarray(0, 5), given: 'ABC', fullBodyDigest: 'abc' }).verdict).toBe('valid');
    expect(checkSignature({ secret: 's', body: bytes.subarray(0, 5), given: 'abd', fullBodyDigest: 'abc' }).verdict).toBe('invalid');
  });
});

describe('paths, refs and message ids', () => {
  it('receiverNameOf reads /r/<name>', () => {
    expect(receiverNameOf('/r/orders')).toBe('orders');
    expect(receiverNameOf('/r/orders/deep/path?x=1')).toBe('orders');
    expect(receiverNameOf('/r/a%2Eb?x')).toBe('a.b');
    expect(receiverNameOf('/hook')).toBeNull();
    expect(receiverNameOf('/r/')).toBeNull();
  });

  it('parseReceiverRef reads receiver:<name> and receiver+tls:<name>', () => {
    expect(parseReceiverRef('receiver:orders')).toEqual({ name: 'orders', tls: false });
    expect(parseReceiverRef('receiver+tls:orders')).toEqual({ name: 'orders', tls: true });
    expect(parseReceiverRef('http://x/receiver:orders')).toBeNull();
  });

  it('messageIdOf finds the messageId of a JSON object body only', () => {
    expect(messageIdOf(Buffer.from(' {"messageId":"abc","type":"track"}'))).toBe('abc');
    expect(messageIdOf(Buffer.from('{"messageId":7}'))).toBeNull();
    expect(messageIdOf(Buffer.from('["messageId"]'))).toBeNull();
    expect(messageIdOf(Buffer.from('{broken'))).toBeNull();
    expect(messageIdOf(Buffer.from([0x7b, 0xff, 0x7d]))).toBeNull();
  });
});
