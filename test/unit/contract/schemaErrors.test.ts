import { describe, expect, it } from 'vitest';
import { parseCommandInput } from '../../../main/contract/dispatch.js';

describe('an input with several problems', () => {
  it('names the first as the error and every other in problems, each with its field and limit', () => {
    const refused = parseCommandInput('createDestination', { name: '', url: 'ftp://x', timeoutMs: 99_999_999 });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    const { error } = refused;
    expect(error).toMatchObject({ code: 'invalid_input', field: 'name', limit: 1 });
    expect(error.message).toMatch(/^name: .*\(and 2 more problems\)$/);
    expect(error.problems?.map((p) => p.field)).toEqual(['url', 'timeoutMs']);
    const timeout = error.problems?.find((p) => p.field === 'timeoutMs');
    expect(timeout?.limit).toBeGreaterThan(0);
    expect(timeout?.message).toMatch(/^timeoutMs: /);
  });

  it('has no problems list when there is one problem', () => {
    const refused = parseCommandInput('createDestination', { name: 'ok', url: 'ftp://x' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.problems).toBeUndefined();
  });
});

describe('a limit broken names the limit and the value given, in every schema', () => {
  it('a string too long for a schema that names its type says how long it may be and how long it was, not "must be a string"', () => {
    const refused = parseCommandInput('createDeletionRequest', { userId: 'u'.repeat(1_001) });
    expect(refused).toMatchObject({ ok: false, error: { field: 'userId', limit: 1_000, message: 'userId: must be at most 1,000 characters (got 1,001)' } });
    const source = parseCommandInput('createDeletionRequest', { userId: 'u1', sources: ['s'.repeat(300)] });
    expect(source).toMatchObject({ ok: false, error: { field: 'sources[0]', limit: 200, message: 'sources[0]: must be at most 200 characters (got 300)' } });
  });

  it("a value of the wrong type names the type wanted and the value given, never zod's \"Invalid input: expected number, received string\"", () => {
    expect(parseCommandInput('createReceiver', { name: 'r', script: { status: 200, delayMs: '5s' } })).toMatchObject({
      ok: false,
      error: { field: 'script.delayMs', message: 'script.delayMs: must be a number (got the string "5s")' },
    });
    expect(parseCommandInput('createReceiver', { name: 'r', script: { status: 200, body: { a: 1 } } })).toMatchObject({ ok: false, error: { message: 'script.body: must be a string (got an object)' } });
    expect(parseCommandInput('createDestination', { name: 'd', url: 'http://127.0.0.1:9/x', enabled: 'true' })).toMatchObject({ ok: false, error: { message: 'enabled: must be true or false (got the string "true")' } });
    expect(parseCommandInput('createDestination', { name: 'd', url: 'http://127.0.0.1:9/x', retry: { schedule: [1, '2'] } })).toMatchObject({
      ok: false,
      error: { field: 'retry.schedule[1]', message: 'retry.schedule[1]: must be a number (got the string "2")' },
    });
    expect(parseCommandInput('createSource', { name: 5, kind: 'web' })).toMatchObject({ ok: false, error: { message: 'name: must be a string (got number 5)' } });
  });

  it('an id of 0 or 1.5 says what it must be and the value given', () => {
    expect(parseCommandInput('getMessage', { id: 0 })).toMatchObject({ ok: false, error: { field: 'id', limit: 0, message: 'id: must be more than 0 (got 0)' } });
    expect(parseCommandInput('retryNow', { deliveryId: -3 })).toMatchObject({ ok: false, error: { field: 'deliveryId', message: 'deliveryId: must be more than 0 (got -3)' } });
    expect(parseCommandInput('getMessage', { id: 1.5 })).toMatchObject({ ok: false, error: { field: 'id', message: 'id: must be a whole number (got 1.5)' } });
    expect(parseCommandInput('getCheckRun', { id: 0 })).toMatchObject({ ok: false, error: { field: 'id', message: 'id: must be more than 0 (got 0)' } });
  });

  it('a field written one level too high is pointed to where it belongs (rewind beside patch, schedule beside retry)', () => {
    const rewind = parseCommandInput('updateReceiver', { name: 'flaky', rewind: true });
    expect(rewind.ok).toBe(false);
    if (!rewind.ok) expect(rewind.error.problems).toEqual([{ code: 'invalid_input', field: 'rewind', message: 'rewind: unknown field (did you mean "patch.rewind"?)' }]);
    expect(parseCommandInput('createDestination', { name: 'd', url: 'http://127.0.0.1:9/x', schedule: [1000] })).toMatchObject({
      ok: false,
      error: { field: 'schedule', message: 'schedule: unknown field (did you mean "retry.schedule"?)' },
    });
  });

  it('the wrong type keeps the message the schema gives for it, and says what it got', () => {
    expect(parseCommandInput('createDeletionRequest', { userId: 42 })).toMatchObject({ ok: false, error: { message: 'userId: must be a string (the user whose data is deleted) (got number 42)' } });
  });

  it("a wrong type the schema has no words for says what it must be and what it got, never zod's \"Invalid input\"", () => {
    expect(parseCommandInput('exportMessages', { filter: {}, format: 'har', includeSecrets: 'yes' })).toMatchObject({ ok: false, error: { field: 'includeSecrets', message: 'includeSecrets: must be true or false (got the string "yes")' } });
    expect(parseCommandInput('createDestination', { name: 'x', webhooks: {} })).toMatchObject({ ok: false, error: { field: 'webhooks', message: 'webhooks: must be an array (got an object)' } });
    expect(parseCommandInput('sendMessage', { type: 'track', call: [] })).toMatchObject({ ok: false, error: { field: 'call', message: 'call: must be an object (got an array)' } });
  });

  it('a record key its schema refuses (an empty userId in computed-trait values) says why and the limit, not zod\'s "Invalid key in record"', () => {
    expect(parseCommandInput('createComputedTrait', { source: 'backend', name: 'LTV', values: { u1: 10, '': 3 } })).toMatchObject({
      ok: false,
      error: { field: 'values[""]', limit: 1, message: 'values[""]: the key must not be empty' },
    });
  });

  it('a blank userId is empty, not left out: "must not be empty", never "is required"', () => {
    expect(parseCommandInput('createDeletionRequest', { userId: '  ' })).toMatchObject({ ok: false, error: { field: 'userId', limit: 1, message: 'userId: must not be empty (the user whose data is deleted)' } });
  });

  it("numbers and lists out of bounds say so in our words, with the value or the count given (never zod's \"Too big\")", () => {
    const timeout = parseCommandInput('createDestination', { name: 'crm', url: 'http://127.0.0.1:9/x', timeoutMs: 99_999_999_999 });
    expect(timeout).toMatchObject({ ok: false, error: { field: 'timeoutMs', message: 'timeoutMs: must be at most 120,000 (got 99,999,999,999)' } });
    expect(parseCommandInput('sendMessages', { messages: [] })).toMatchObject({ ok: false, error: { field: 'messages', limit: 1, message: 'messages: must have at least 1 item (got 0)' } });
  });

  it('a field left out is required, and a value not among the allowed names them and the value given', () => {
    expect(parseCommandInput('updateDestination', { id: 'five' })).toMatchObject({ ok: false, error: { field: 'patch', message: 'patch: is required' } });
    expect(parseCommandInput('createSource', { name: 'web', kind: 'servr' })).toMatchObject({ ok: false, error: { field: 'kind', message: 'kind: must be one of web, mobile, server (got "servr")' } });
  });

  it('a write key that is not printable ASCII names the character and its place, never the key', () => {
    const refusal = (writeKey: string) => {
      const r = parseCommandInput('createSource', { name: 'web', kind: 'web', writeKey });
      return r.ok ? null : r.error.message;
    };
    expect(refusal('wk live')).toBe('writeKey: must be printable ASCII without spaces (a space at position 2)');
    expect(refusal('wkÄ1')).toBe('writeKey: must be printable ASCII without spaces ("Ä" (U+00C4) at position 2)');
    expect(refusal('wk\t1')).toBe('writeKey: must be printable ASCII without spaces (U+0009 at position 2)');
    expect(refusal('wk_live_1')).toBeNull();
  });
});

describe('every command answers a field left out, a value not allowed and a value out of bounds in the same words', () => {
  it('a field left out is required, whatever message the schema gives for a wrong type', () => {
    expect(parseCommandInput('sendMessage', { call: { userId: 'u1', event: 'E' } })).toMatchObject({ ok: false, error: { field: 'type', message: 'type: is required' } });
    expect(parseCommandInput('exportMessages', { filter: {} })).toMatchObject({ ok: false, error: { field: 'format', message: 'format: is required' } });
    expect(parseCommandInput('createDeletionRequest', {})).toMatchObject({ ok: false, error: { field: 'userId', message: 'userId: is required' } });
    expect(parseCommandInput('getMessage', {})).toMatchObject({ ok: false, error: { field: 'id', message: 'id: is required' } });
    expect(parseCommandInput('setFastForward', {})).toMatchObject({ ok: false, error: { field: 'enabled', message: 'enabled: is required' } });
    expect(parseCommandInput('createReceiver', { script: 200 })).toMatchObject({ ok: false, error: { field: 'name', message: 'name: is required' } });
  });

  it('a value not among the allowed names the value given, in filters and notes alike', () => {
    expect(parseCommandInput('listMessages', { status: 'bogus' })).toMatchObject({ ok: false, error: { field: 'status', message: 'status: must be one of filtered, queued, delivering, retrying, delivered, failed, cancelled (got "bogus")' } });
    expect(parseCommandInput('revealSecret', { kind: 'key', id: 'x' })).toMatchObject({ ok: false, error: { field: 'kind', message: 'kind: must be one of destination, source, receiver (got "key")' } });
    expect(parseCommandInput('listDestinations', { owner: 'me' })).toMatchObject({ ok: false, error: { field: 'owner', message: expect.stringMatching(/^owner: must be one of user, check, send, all \(got "me"\); user: yours/) } });
  });

  it('a value out of bounds is named even where the schema words a wrong type its own way', () => {
    expect(parseCommandInput('advanceClock', { ms: 1e12 })).toMatchObject({ ok: false, error: { field: 'ms', message: 'ms: must be at most one year (31,536,000,000 ms; got 1,000,000,000,000)' } });
    expect(parseCommandInput('setFastForward', { enabled: 'yes' })).toMatchObject({ ok: false, error: { message: 'enabled: must be true or false (got the string "yes")' } });
  });
});

describe('a webhook URL refused says what it got instead, never its credentials', () => {
  const refusal = (url: string) => {
    const r = parseCommandInput('createDestination', { name: 'd', url });
    return r.ok ? null : r.error.message;
  };
  it('another scheme by its name, a path, a host without a scheme with the URL it likely meant', () => {
    expect(refusal('ftp://user:secret@x/y')).toBe('url: must be an absolute http:// or https:// URL (or receiver:<name>); got ftp:// instead');
    expect(refusal('/hooks/orders')).toBe('url: must be an absolute http:// or https:// URL (or receiver:<name>); got a path without a host ("/hooks/orders")');
    expect(refusal('localhost:3000/hook')).toBe('url: must be an absolute http:// or https:// URL (or receiver:<name>); got "localhost:3000/hook", without a scheme: did you mean http://localhost:3000/hook?');
    expect(refusal('user:secret@example.com/hook')).toBe('url: must be an absolute http:// or https:// URL (or receiver:<name>)');
  });

  it('a whole cURL command, or a URL with words around it, gets the URL to give instead, never the words (they may hold credentials)', () => {
    const refused = 'url: must be an absolute http:// or https:// URL (or receiver:<name>); ';
    expect(refusal(`curl -X POST 'https://example.com/hook?x=1' -H 'Authorization: Bearer s3cret' -d '{}'`)).toBe(`${refused}got a cURL command: give only its URL (https://example.com/hook?x=1); its -H headers are static headers of the webhook`);
    expect(refusal('curl -d @body.json "http://localhost:3000/hook"')).toBe(`${refused}got a cURL command: give only its URL (http://localhost:3000/hook)`);
    expect(refusal('curl -u ada:s3cret https://ada:s3cret@example.com/hook')).toBe(`${refused}got a cURL command: give only its URL`);
    expect(refusal('POST https://example.com/hook')).toBe(`${refused}got words around a URL: give only its URL (https://example.com/hook)`);
  });

  it('a URL with flags or a second URL after it is named as such, not as a space to percent-encode', () => {
    const refused = 'url: must be an absolute http:// or https:// URL (or receiver:<name>); ';
    expect(refusal(`https://example.com/hook -H 'X-Env: dev'`)).toBe(`${refused}got words around a URL: give only its URL (https://example.com/hook)`);
    expect(refusal('https://a.example/hook https://b.example/hook')).toBe(`${refused}got 2 URLs: give each as a webhook of its own`);
    expect(refusal('curl https://a.example/hook https://b.example/hook')).toBe(`${refused}got a cURL command: give only its URL (https://a.example/hook)`);
    // A space inside the URL itself is still the one character to encode.
    expect(refusal('https://example.com/my hook')).toBe('url: a space at position 22 is not allowed in a URL: write it percent-encoded (%20)');
  });

  it('a scheme written wrong (a slash or the colon missing, or none before //) suggests the URL with it right, not http:// before it', () => {
    const slip = (url: string, meant: string) => `url: must be an absolute http:// or https:// URL (or receiver:<name>); got ${JSON.stringify(url)}, its scheme written wrong: did you mean ${meant}?`;
    expect(refusal('http:/example.com/hook')).toBe(slip('http:/example.com/hook', 'http://example.com/hook'));
    expect(refusal('https//example.com/hook')).toBe(slip('https//example.com/hook', 'https://example.com/hook'));
    expect(refusal('http:localhost:3000/hook')).toBe(slip('http:localhost:3000/hook', 'http://localhost:3000/hook'));
    expect(refusal('//example.com/hook')).toBe(slip('//example.com/hook', 'http://example.com/hook'));
    expect(refusal('///hook')).toBe('url: must be an absolute http:// or https:// URL (or receiver:<name>); got a path without a host ("///hook")');
    expect(refusal('http:/user:secret@example.com/hook')).toBe('url: must be an absolute http:// or https:// URL (or receiver:<name>)');
  });
});
