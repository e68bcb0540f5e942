import { describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../../../main/contract/deliveries';
import { defaultScript, nextStepWords, responseScriptSchema, type CaptureRecord, type ReceiverEndpoint } from '../../../main/contract/receiver/receiver';
import { savedWords } from '../../../renderer/src/features/receiver/useEndpointCommands';
import { nameError } from '../../../renderer/src/features/receiver/EndpointEditor';
import { describeForm, formOfScript, placeWords, scriptOfForm, stepsUsedWords, type ScriptForm } from '../../../renderer/src/features/receiver/scriptForm';
import { attemptFor } from '../../../renderer/src/features/receiver/CaptureDetail';
import { checkForgery } from '../../../renderer/src/features/receiver/CaptureList';
import { mergeCaptures, useReceiver } from '../../../renderer/src/stores/receiver';

const parse = (input: unknown) => responseScriptSchema.parse(input);
const form = (patch: Partial<ScriptForm>): ScriptForm => ({ ...formOfScript(defaultScript()).form, ...patch });

describe('the receiver script form', () => {
  it('round-trips the scripts the form can show', () => {
    for (const input of ['500,500,200', 'never', { steps: [{ status: 200, delayMs: 6000 }] }, { steps: ['reset', 200], after: 'cycle' }, { mode: 'failureRate', rate: 0.3, seed: 7 }]) {
      const script = parse(input);
      const { form: f, beyond } = formOfScript(script);
      expect(beyond).toBeNull();
      const back = scriptOfForm(f);
      if (!back.ok) throw new Error(back.message);
      expect(parse(back.script)).toEqual(script);
    }
  });

  it('says when a script does more than the form shows', () => {
    expect(formOfScript(parse({ status: 503, retryAfter: 120 })).beyond).toMatch(/^This script does more than the form shows \(always 503, Retry-After 120\)/);
    expect(formOfScript(parse({ steps: [{ status: 500, delayMs: 10 }, { status: 200 }] })).beyond).not.toBeNull();
  });

  it('responses written apart with spaces or semicolons are named as such, with the commas they need', () => {
    expect(scriptOfForm(form({ responses: '500 500 200' }))).toEqual({ ok: false, field: 'responses', message: 'Responses: item 1 ("500 500 200") holds 3 responses: separate them with commas (500, 500, 200)' });
    expect(scriptOfForm(form({ responses: '200, 500;never' }))).toEqual({ ok: false, field: 'responses', message: 'Responses: item 2 ("500;never") holds 2 responses: separate them with commas (500, never)' });
    // Words that are not responses stay "not a response".
    expect(scriptOfForm(form({ responses: '200 OK' }))).toMatchObject({ message: 'Responses: item 1 ("200 OK") is not a response: give a status code (200-599), never, reset or close' });
  });

  it('names the field of a mistake', () => {
    expect(scriptOfForm(form({ responses: '500,teapot' }))).toEqual({ ok: false, field: 'responses', message: 'Responses: item 2 ("teapot") is not a response: give a status code (200-599), never, reset or close' });
    expect(scriptOfForm(form({ responses: '99' }))).toMatchObject({ ok: false, field: 'responses' });
    expect(scriptOfForm(form({ delayMs: '-1' }))).toMatchObject({ ok: false, field: 'delayMs' });
    expect(scriptOfForm(form({ delayMs: '700000' }))).toMatchObject({ ok: false, field: 'delayMs' });
    expect(scriptOfForm(form({ mode: 'failureRate', ratePercent: '130' }))).toMatchObject({ ok: false, field: 'ratePercent' });
  });

  it('refuses an empty item of Responses, naming it, as the API and --respond do (nothing typed is dropped)', () => {
    const empty = (n: number) => `Responses: item ${n} is empty: give a status code (200-599), never, reset or close`;
    expect(scriptOfForm(form({ responses: '200,,500' }))).toEqual({ ok: false, field: 'responses', message: empty(2) });
    expect(scriptOfForm(form({ responses: '500,200,' }))).toEqual({ ok: false, field: 'responses', message: empty(3) });
    expect(scriptOfForm(form({ responses: ',500' }))).toEqual({ ok: false, field: 'responses', message: empty(1) });
    expect(scriptOfForm(form({ responses: ' , ' }))).toEqual({ ok: false, field: 'responses', message: 'Responses: give at least one, e.g. 500,500,200' });
  });

  it("names a limit broken by the field's label, the item and the value given, never the schema's path", () => {
    const status = (n: number, v: string) => `Responses: item ${n} ("${v}"): must be an HTTP status code from 200 to 599 (got ${v})`;
    expect(scriptOfForm(form({ responses: '0' }))).toEqual({ ok: false, field: 'responses', message: status(1, '0') });
    expect(scriptOfForm(form({ responses: '500,1000' }))).toEqual({ ok: false, field: 'responses', message: status(2, '1000') });
    expect(scriptOfForm(form({ responses: Array(1000).fill('200').join(',') }))).toEqual({ ok: false, field: 'responses', message: 'Responses: at most 100 steps (got 1000)' });
    expect(scriptOfForm(form({ delayMs: '99999999' }))).toEqual({ ok: false, field: 'delayMs', message: 'Delay (ms): must be at most 600000 ms (10 minutes; got 99999999)' });
    expect(scriptOfForm(form({ delayMs: '-1' }))).toEqual({ ok: false, field: 'delayMs', message: 'Delay (ms): must be a whole number of milliseconds, 0 or more (got "-1")' });
    expect(scriptOfForm(form({ mode: 'failureRate', ratePercent: '130' }))).toEqual({ ok: false, field: 'ratePercent', message: 'Failure rate (%): must be a percentage from 0 to 100 (got "130")' });
    expect(scriptOfForm(form({ mode: 'failureRate', failure: '99' }))).toEqual({ ok: false, field: 'failure', message: 'Failure answer: must be an HTTP status code from 200 to 599 (got 99)' });
    expect(scriptOfForm(form({ mode: 'failureRate', success: '' }))).toEqual({ ok: false, field: 'success', message: 'Success answer: must not be empty: give a status code (200-599), never, reset or close' });
    for (const responses of ['0', '1000', '200,,500']) {
      const result = scriptOfForm(form({ responses }));
      expect(result.ok ? '' : result.message).not.toMatch(/steps\.|steps\[/);
    }
  });

  it('describes the script in the words the captures use', () => {
    expect(describeForm(form({ responses: '500,500,200' }))).toBe('500, 500, 200 (then the last step repeats)');
    expect(describeForm(form({ responses: '200', delayMs: '6000' }))).toBe('always 200 after 6000 ms');
    expect(describeForm(form({ responses: 'never', delayMs: '6000' }))).toBe('never answer');
  });
});

describe("what a save did to the script's place", () => {
  const endpoint = (script: unknown, answered: number) => ({ name: 'seq', script: parse(script), answered }) as ReceiverEndpoint;

  it('names the step the next request gets, as the captures do', () => {
    expect(nextStepWords(parse('201,202,203,204,205'), 3)).toBe('step 4 of 5: 204');
    expect(nextStepWords(parse('500,200'), 7)).toBe('step 2 of 2: 200'); // the last repeats
    expect(nextStepWords(parse({ steps: [500, 200], after: 'cycle' }), 3)).toBe('step 2 of 2: 200');
    expect(nextStepWords(parse(200), 9)).toBe('200');
    expect(nextStepWords(parse({ mode: 'failureRate', rate: 0.3 }), 4)).toBe('request #5 of the failure rate (its seed decides whether it fails)');
  });

  it('an unchanged script keeps its place (a save with no edit, or of the secret alone); a changed one starts over', () => {
    const before = endpoint('201,202,203,204,205', 3);
    expect(savedWords(before, endpoint('201,202,203,204,205', 3))).toBe('Script unchanged, so it keeps its place: the next request gets step 4 of 5: 204 (Start over goes back to the first step).');
    expect(savedWords(before, endpoint('500,200', 0))).toBe('The new script starts at its first step: the next request gets step 1 of 2: 500.');
  });
});

describe("an endpoint's place in its script", () => {
  it('counts steps used, not answers: a never step counts, and the next step is named', () => {
    expect(stepsUsedWords(1)).toBe('1 step used');
    expect(stepsUsedWords(0)).toBe('0 steps used');
    expect(placeWords({ script: parse('never,200'), answered: 1, refuseInvalidSignatures: false })).toBe('1 request took a step of this script; the next gets step 2 of 2: 200.');
    expect(placeWords({ script: parse('201,202'), answered: 0, refuseInvalidSignatures: false })).toBe('No request has taken a step of this script yet; the next gets step 1 of 2: 201.');
  });

  it('says that a request refused for its signature takes no step, where the endpoint refuses them', () => {
    expect(placeWords({ script: parse(200), answered: 0, refuseInvalidSignatures: true })).toBe(
      'No request has taken a step of this script yet (one refused for its signature gets 401 and takes none); the next gets 200.',
    );
  });
});

describe("a new endpoint's name", () => {
  it('is checked as the server checks it and kept as typed: a space around it is refused under Name, not trimmed', () => {
    expect(nameError(' spaced2 ')).toBe('Name: must not begin or end with a space (got " spaced2 ")');
    expect(nameError('a/b')).toMatch(/^Name: must start with a letter or digit .*; got "a\/b"\)$/);
    expect(nameError('spaced2')).toBeNull();
  });
});

describe('captures and the messages that sent them', () => {
  const capture = (id: number) => ({ id, step: { request: 1, clientClosedAfterMs: null } }) as unknown as CaptureRecord;
  it('keeps captures newest first without duplicates', () => {
    expect(mergeCaptures([capture(3), capture(5), capture(3)], [capture(5), capture(1)]).map((c) => c.id)).toEqual([5, 3, 1]);
  });

  it('a capture and its update in one batch of events, or a page read before the update: the update wins (a client that left before the answer)', () => {
    const captured = { id: 41, receiver: 'slow', matched: true, step: { request: 1, clientClosedAfterMs: null } } as unknown as CaptureRecord;
    const updated = { ...captured, step: { request: 1, clientClosedAfterMs: 5004 } } as unknown as CaptureRecord;
    useReceiver.setState({ captures: [] });
    useReceiver.getState().apply([
      { type: 'requestCaptured', capture: captured },
      { type: 'captureUpdated', capture: updated },
    ] as never);
    expect(useReceiver.getState().captures).toEqual([updated]);
    // A page of captures read before the client left arrives after its update: the update stays.
    expect(mergeCaptures([captured], [updated])).toEqual([updated]);
  });

  it("names the attempt a capture's recorded link names, and no other (same path and time are not a link)", () => {
    const attempt = (id: number, deliveryId: number, attemptNumber: number, webhookIndex: number) => ({ id, deliveryId, attemptNumber, webhookIndex }) as AttemptRecord;
    const attempts = [attempt(1, 10, 1, 0), attempt(2, 10, 1, 1), attempt(3, 10, 2, 0), attempt(4, 11, 2, 0)];
    expect(attemptFor(attempts, { messageRef: 5, deliveryId: 10, destinationName: 'Orders', attemptNumber: 2, webhookIndex: 0 })?.id).toBe(3);
    expect(attemptFor(attempts, { messageRef: 5, deliveryId: 10, destinationName: 'Orders', attemptNumber: 1, webhookIndex: 1 })?.id).toBe(2);
    // Recorded after the answer: until then there is no attempt to name.
    expect(attemptFor(attempts, { messageRef: 5, deliveryId: 10, destinationName: 'Orders', attemptNumber: 3, webhookIndex: 0 })).toBeNull();
  });
});

describe("a capture of the check's forgery", () => {
  const capture = (verdict: 'invalid' | 'missing' | 'valid', destinationName: string | null) =>
    ({ signature: { verdict }, attempt: destinationName === undefined ? null : { messageRef: 1, deliveryId: 1, destinationName, attemptNumber: 1, webhookIndex: 0 } }) as unknown as CaptureRecord;

  it('says the check sent it on purpose and nothing needs changing, only when one of its destinations sent it and the endpoint found it bad', () => {
    expect(checkForgery(capture('invalid', 'hookbench check (another secret)'))).toBe(
      "hookbench check sent this with another secret on purpose: nothing needs changing (right to find it invalid)",
    );
    expect(checkForgery(capture('missing', 'hookbench check (unsigned)'))).toMatch(/^hookbench check sent this without X-Signature on purpose/);
    expect(checkForgery(capture('invalid', 'Orders'))).toBeNull();
    expect(checkForgery(capture('valid', 'hookbench check'))).toBeNull();
    expect(checkForgery(capture('invalid', null))).toBeNull();
    // Sent by the check directly (a body changed after signing, a probe): no destination, the same words.
    const direct = { signature: { verdict: 'invalid' }, attempt: null, sentBy: 'check' } as unknown as CaptureRecord;
    expect(checkForgery(direct)).toBe('hookbench check sent this signed wrongly on purpose: nothing needs changing (right to find it invalid)');
  });
});
