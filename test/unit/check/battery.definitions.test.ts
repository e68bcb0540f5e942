/**
 * The battery's own rules, without a network: stable IDs written as scenarios, the shipped JSON Schema of
 * the scenarios file, and the judgements that no local receiver can reach (http to another host).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BATTERY } from '../../../main/check/battery.js';
import { listChecks, planChecks } from '../../../main/check/checkService.js';
import type { CheckContext } from '../../../main/check/runner.js';
import { CONCURRENCY_FIX, FIX_LANGUAGES, fixSnippetsFor } from '../../../main/contract/check/checkFixes.js';
import { summaryLine, type CheckExchange } from '../../../main/contract/check/check.js';
import { CHECK_ID, checkScenarioFileSchema, checkScenarioSchema, checkScenariosJsonSchema, urlWithScheme } from '../../../main/contract/check/checkInputs.js';
import { escapedSerialisation } from '../../../main/check/signatureChecks.js';

const exchange = (over: Partial<CheckExchange> = {}): CheckExchange => ({
  label: 'connection',
  request: { method: 'POST', url: 'x', headers: {}, body: '{}', bodyBytes: 2, bodyTruncated: false },
  outcome: 'success',
  statusCode: 200,
  error: null,
  durationMs: 5,
  response: { headers: {}, body: '', bodyTruncated: false },
  attempt: null,
  signature: null,
  ...over,
});

const ctx = (url: string): CheckContext => ({ url, secret: 's', headers: {}, caFile: null, burst: 1, timing: { timeoutMs: 5000, slowMs: 1000 }, exchanges: [] });

describe('the built-in battery', () => {
  it('has unique, well-formed IDs in every area, each written as a scenario where it sends one', () => {
    const ids = BATTERY.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(CHECK_ID);
    expect(new Set(BATTERY.map((c) => c.area))).toEqual(new Set(['shapes', 'signature', 'time', 'redelivery', 'burst', 'status', 'transport', 'content-type']));
    for (const c of BATTERY.filter((c) => c.scenario)) expect(checkScenarioSchema.safeParse(c.scenario).success, c.id).toBe(true);
    // Capacity is listed last: it runs only when asked for (--capacity).
    expect(listChecks().map((c) => c.id)).toEqual([...ids, 'capacity.sustained-rate']);
  });

  it('with a secret runs the raw-bytes check and the four forgeries; without one, the one warning instead', () => {
    const withSecret = planChecks({ secret: 's' });
    const without = planChecks({ secret: null });
    const sig = (r: typeof withSecret) => (r.ok ? r.value.filter((c) => c.area === 'signature').map((c) => c.id) : []);
    expect(sig(withSecret)).toEqual(['signature.raw-bytes', 'signature.wrong-secret', 'signature.missing', 'signature.tampered', 'signature.pretty-printed']);
    expect(sig(without)).toEqual(['signature.unverified']);
    expect(withSecret.ok && withSecret.value.slice(-2).map((c) => c.id)).toEqual(['time.latency', 'time.body-stall']);
  });

  it('transport: http to another host is a warning, to this machine a pass, https a pass', () => {
    const transport = BATTERY.find((c) => c.id === 'transport.https')!;
    expect(transport.judge([exchange()], ctx('http://hooks.example.com/in'), 1)).toMatchObject({ verdict: 'warn', detail: 'http to hooks.example.com: message bodies (user data) cross the network in clear' });
    expect(transport.judge([exchange()], ctx('http://localhost:3000/in'), 1).verdict).toBe('pass');
    expect(transport.judge([exchange()], ctx('https://hooks.example.com/in'), 1).verdict).toBe('pass');
  });
});

describe('the report\'s words', () => {
  it('the closing line says "1 warning" and keeps the plural for any other count', () => {
    expect(summaryLine({ passed: 3, failed: 0, warnings: 1 })).toBe('3 passed, 0 failed, 1 warning');
    expect(summaryLine({ passed: 1, failed: 1, warnings: 0 })).toBe('1 passed, 1 failed, 0 warnings');
    expect(summaryLine({ passed: 0, failed: 2, warnings: 2 })).toBe('0 passed, 2 failed, 2 warnings');
  });

  it('a URL typed without its scheme is suggested with http:// on this machine, https:// elsewhere', () => {
    expect(urlWithScheme('localhost:3000/x')).toBe('http://localhost:3000/x');
    expect(urlWithScheme('127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(urlWithScheme('hooks.example.com/in?k=1')).toBe('https://hooks.example.com/in?k=1');
    for (const fine of ['http://localhost:3000/x', 'https://a.example/b', 'receiver:inbox', 'receiver+tls:secure', 'webhooks', 'mailto:ada@example.com', '']) expect(urlWithScheme(fine), fine).toBeNull();
  });

  it('the raw-bytes serialisation escapes <, >, & and / inside strings and parses to the same value', () => {
    const json = JSON.stringify({ a: '<b>x</b> & y', url: 'https://e.example/p?q=1&r=2', n: 1 });
    const escaped = escapedSerialisation(json);
    expect(escaped).toBe('{"a":"\\u003cb\\u003ex\\u003c\\/b\\u003e \\u0026 y","url":"https:\\/\\/e.example\\/p?q=1\\u0026r=2","n":1}');
    expect(JSON.parse(escaped)).toEqual(JSON.parse(json));
    expect(JSON.stringify(JSON.parse(escaped))).toBe(json);
  });

  it('content-type: form-encoding advice only when both Content-Types got a 415', () => {
    const contentType = BATTERY.find((c) => c.id === 'content-type.no-charset')!;
    const both = (statusCode: number) => contentType.judge([exchange({ statusCode, outcome: 'http_error' }), exchange({ statusCode, outcome: 'http_error' })], ctx('http://localhost/'), 1);
    expect(both(415).fix).toBe('Accept application/json bodies (not only form encoding).');
    expect(both(401).fix).toBeNull();
    expect(both(400).fix).toBeNull();
  });
});

describe('the scenarios file', () => {
  it('ships a JSON Schema generated from the zod definition (run `npm run schema` after changing it)', () => {
    const shipped = JSON.parse(readFileSync(new URL('../../../schema/check-scenarios.schema.json', import.meta.url), 'utf8')) as unknown;
    expect(shipped).toEqual(checkScenariosJsonSchema());
  });

  it('the example in docs/check.md is a valid scenarios file', () => {
    const doc = readFileSync(new URL('../../../docs/check.md', import.meta.url), 'utf8');
    const example = /## Scenarios[\s\S]*?```json\n([\s\S]*?)```/.exec(doc)?.[1];
    const parsed = checkScenarioFileSchema.safeParse(JSON.parse(example ?? 'null'));
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(parsed.data?.scenarios.map((s) => s.id)).toEqual(['acme.order-completed', 'acme.raw-forgery']);
  });

  it('refuses a scenario with neither message nor body, or both, naming the field', () => {
    const r = checkScenarioFileSchema.safeParse({ scenarios: [{ id: 'a', title: 't' }, { id: 'b', title: 't', body: {}, message: { type: 'track' } }] });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['scenarios.0.message', 'give a message ({type, call}) or a body'],
      ['scenarios.1.body', 'give either message or body, not both'],
    ]);
  });
});

describe('how to fix, with code', () => {
  it('every signature check, redelivery and the time/burst checks have code in Node, Python, Go, Ruby and PHP', () => {
    for (const c of BATTERY) {
      const snippets = fixSnippetsFor(c.id);
      const expected = c.area === 'signature' || c.id === 'redelivery.same-message' || c.id === 'time.latency' || c.id === 'burst.concurrent';
      expect(snippets?.map((s) => s.language) ?? null, c.id).toEqual(expected ? [...FIX_LANGUAGES] : null);
    }
  });

  it('a latency warning from a queueing burst gets code for serving requests concurrently, not for answering first', () => {
    const queueing = fixSnippetsFor('time.latency', CONCURRENCY_FIX)!;
    expect(queueing.map((s) => s.language)).toEqual([...FIX_LANGUAGES]);
    expect(queueing.find((s) => s.language === 'Python')!.code).toContain('request_queue_size');
    // The CLI prints no code: its words name the setting a ThreadingHTTPServer receiver raises.
    expect(CONCURRENCY_FIX).toContain("Python's socketserver keeps 5 until the server class's request_queue_size is raised");
    expect(fixSnippetsFor('time.latency', 'Answer 2xx as soon as the request is verified and stored; …')).toEqual(fixSnippetsFor('burst.concurrent'));
  });

  it('the signature code hashes the raw body with HMAC-SHA1 and compares in constant time in every language', () => {
    const constantTime = { Node: 'timingSafeEqual', Python: 'compare_digest', Go: 'hmac.Equal', Ruby: 'secure_compare', PHP: 'hash_equals' };
    for (const s of fixSnippetsFor('signature.missing')!) {
      expect(s.code, s.language).toMatch(/sha1|SHA1/);
      expect(s.code, s.language).toContain(constantTime[s.language]);
      expect(s.code, s.language).toMatch(/401|StatusUnauthorized/);
    }
  });
});
