/**
 * Property-based fuzzing of the ingestion API (docs/behaviour.md §7) over HTTP, against any running serve:
 * the in-process one of `npm test` (test/integration/fuzz/ingest.test.ts) or a real `hookbench serve`
 * process in `npm run soak` (scripts/soak.ts). Plain functions that throw a `Violation`, no test runner:
 * both callers use them.
 *
 * A generated request is a route, a method, headers (content type, encoding, auth) and body bytes, with what
 * the contract says must happen to it when that is certain (`accept`, `refuse`, or `any` for hostile input).
 * Every answer is then checked against the store through the typed API:
 * - never a 5xx, always the documented JSON shape; a 400 names its field or its limit;
 * - a 200 stored exactly its calls, each readable at once (listMessages, getMessage);
 * - a 400 or 401 stored nothing and added exactly one ingest-log row with the same status and code;
 *   a 404, 405 or 204 (not an ingestion request) added none.
 * At the end, `checkIngestTotals` adds up the source's usage counters against the messages stored.
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { request } from 'undici';
import { createCore } from '../../main/app/createCore.js';

export class Violation extends Error {
  override name = 'Violation';
}

export interface IngestTarget {
  /** e.g. http://127.0.0.1:4400 */
  url: string;
  /** The typed API's token. */
  token: string;
  /** A source's write key. */
  writeKey: string;
}

export type Expectation = 'accept' | 'refuse' | 'any';

export interface FuzzRequest {
  route: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer;
  expect: Expectation;
  /** Calls in the body when it is accepted (1 on a single-call route, the batch's length on a batch route). */
  calls: number;
  /** The messageIds the calls carry (accepted requests must show each). */
  messageIds: string[];
  /** What the generator made, for failure reports. */
  label: string;
}

/** What one run tried and saw; printed by the soak. */
export interface IngestTally {
  requests: number;
  byStatus: Record<string, number>;
  byCode: Record<string, number>;
  acceptedCalls: number;
  messageIds: Set<string>;
}

export function newIngestTally(): IngestTally {
  return { requests: 0, byStatus: {}, byCode: {}, acceptedCalls: 0, messageIds: new Set() };
}

// ------------------------------------------------------------------------------------------- generators

const SINGLE: Record<string, string> = {
  identify: 'identify', track: 'track', page: 'page', screen: 'screen', group: 'group', alias: 'alias',
  i: 'identify', t: 'track', p: 'page', s: 'screen', g: 'group', a: 'alias',
};
const BATCH = ['batch', 'import', 'b'];
const TYPES = ['identify', 'track', 'page', 'screen', 'group', 'alias'] as const;

/** Strings that UTF-8 cannot carry (lone surrogates), alone or inside text. */
const loneSurrogate = fc.constantFrom('\ud800', '\udfff', 'u\udc00', 'a\ud83d', '\ude00b', 'x\ud800\ud800');
/** Text of every kind: ASCII, any code point (astral included), lone surrogates, controls, NUL. */
const anyText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  loneSurrogate,
  fc.constantFrom('', ' ', '\u0000', '\r\n', '__proto__', 'constructor', 'toString', '\u2028\u2029', '😀'),
);
/** Text an indexed field (userId, event...) may hold: non-empty, well-formed Unicode. */
const goodText = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== ''), fc.constantFrom('u1', 'Ada 😀', 'ñandú', '用户', 'Signed Up'));

const jsonish = (stringUnit: 'binary' | 'grapheme') => fc.jsonValue({ maxDepth: 3, stringUnit });
/** Any JSON value, or a value of a type a field does not want. */
const hostileValue = fc.oneof(anyText, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), jsonish('binary'));

let idCounter = 0;
/** A messageId unique within this process (duplicates are generated on purpose elsewhere). */
const freshId = fc.nat().map((n) => `fz-${process.pid}-${++idCounter}-${n}`);

/** A call the contract must accept: its type's required fields, well-formed, small, shallow. */
function validCall(type: (typeof TYPES)[number]) {
  return fc.record(
    {
      userId: goodText,
      event: goodText,
      groupId: goodText,
      previousId: goodText,
      messageId: freshId,
      properties: fc.dictionary(fc.string({ unit: 'binary', maxLength: 6 }), jsonish('binary'), { maxKeys: 4 }),
      traits: fc.dictionary(fc.string({ maxLength: 6 }), jsonish('grapheme'), { maxKeys: 3 }),
      context: fc.dictionary(fc.constantFrom('locale', 'library', 'page', 'extra'), jsonish('grapheme'), { maxKeys: 2 }),
      timestamp: fc.oneof(fc.constant(undefined), fc.constant(null), fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString())),
      name: fc.oneof(fc.constant(undefined), goodText),
    },
    { requiredKeys: ['userId', 'messageId'] },
  ).map((c) => {
    const call: Record<string, unknown> = { ...c };
    if (type === 'track' && call['event'] === undefined) call['event'] = 'Required Event';
    if (type === 'page') delete call['traits']; // a page takes properties or traits, not both (docs/behaviour.md §1)
    if (type === 'group' && call['groupId'] === undefined) call['groupId'] = 'g1';
    if (type === 'alias' && call['previousId'] === undefined) call['previousId'] = 'anon-1';
    for (const k of Object.keys(call)) if (call[k] === undefined) delete call[k];
    return call;
  });
}

/** A call with anything in it: wrong types, lone surrogates, prototype keys, unknown keys, missing fields. */
const hostileCall = fc.dictionary(
  fc.oneof(fc.constantFrom('userId', 'anonymousId', 'event', 'groupId', 'previousId', 'messageId', 'timestamp', 'properties', 'traits', 'context', 'integrations', 'type', 'name', 'category', 'writeKey', '__proto__', 'constructor'), fc.string({ maxLength: 6 })),
  hostileValue,
  { maxKeys: 8 },
);

/** `[[[...]]]` n levels deep, built as text (n may be far beyond what JSON.stringify can write). */
const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);

interface BodyPlan {
  text: string | Buffer;
  expect: Expectation;
  calls: number;
  messageIds: string[];
  label: string;
}

function callsOf(type: (typeof TYPES)[number] | null, isBatch: boolean): fc.Arbitrary<BodyPlan> {
  const t = type ?? 'track';
  const one = validCall(t);
  const valid: fc.Arbitrary<BodyPlan> = isBatch
    ? fc.array(fc.constantFrom(...TYPES).chain((ty) => validCall(ty).map((c): Record<string, unknown> => ({ type: ty, ...c }))), { minLength: 1, maxLength: 5 }).map((batch) => ({
        text: JSON.stringify({ batch, sentAt: new Date().toISOString() }),
        expect: 'accept' as const,
        calls: batch.length,
        messageIds: batch.map((c) => c['messageId'] as string),
        label: `valid batch of ${batch.length}`,
      }))
    : one.map((c) => ({ text: JSON.stringify(c), expect: 'accept' as const, calls: 1, messageIds: [c['messageId'] as string], label: `valid ${t}` }));

  const wrap = (calls: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
    isBatch ? JSON.stringify({ batch: calls.map((c) => ({ type: t, ...c })), ...extra }) : JSON.stringify({ ...calls[0], ...extra });

  const hostile: fc.Arbitrary<BodyPlan> = (isBatch ? fc.array(hostileCall, { minLength: 0, maxLength: 4 }) : hostileCall.map((c) => [c])).map((calls) => ({
    text: wrap(calls),
    expect: 'any' as const,
    calls: calls.length,
    messageIds: [],
    label: 'hostile call(s)',
  }));

  const lone: fc.Arbitrary<BodyPlan> = fc.tuple(one, fc.constantFrom(...(t === 'track' ? ['userId', 'event', 'messageId', 'anonymousId'] : ['userId', 'messageId', 'anonymousId'])), loneSurrogate).map(([c, field, bad]) => ({
    text: wrap([{ ...c, event: c['event'] ?? 'E', [field]: `${String(c[field] ?? '')}${bad}` }]),
    expect: 'refuse' as const,
    calls: 1,
    messageIds: [],
    label: `lone surrogate in ${field}`,
  }));
  const loneInProperties: fc.Arbitrary<BodyPlan> = fc.tuple(one, loneSurrogate).map(([c, bad]) => ({
    text: wrap([{ ...c, properties: { [bad]: bad, list: [bad] } }]),
    expect: 'accept' as const,
    calls: 1,
    messageIds: [c['messageId'] as string],
    label: 'lone surrogates in properties (kept as escapes)',
  }));

  // Nesting around the limit (64 levels; `properties: [...]` n deep nests n), and far beyond it.
  const deep: fc.Arbitrary<BodyPlan> = fc.tuple(one, fc.oneof(fc.integer({ min: 60, max: 68 }), fc.integer({ min: 500, max: 25_000 }))).map(([c, n]) => {
    const base = JSON.stringify({ ...c, properties: '@@' });
    const call = base.replace('"@@"', `{"d":${nested(n - 1)}}`); // properties itself is the first level
    const text = isBatch ? `{"batch":[${call.replace(/^\{/, `{"type":"${t}",`)}]}` : call;
    return { text, expect: n <= 64 ? ('accept' as const) : ('refuse' as const), calls: 1, messageIds: n <= 64 ? [c['messageId'] as string] : [], label: `properties nested ${n} deep` };
  });

  // One call around 32 KiB.
  const big: fc.Arbitrary<BodyPlan> = fc.tuple(one, fc.integer({ min: 31_000, max: 34_000 })).map(([c, n]) => {
    const call = { ...c, properties: { pad: 'x'.repeat(n) } };
    const size = Buffer.byteLength(JSON.stringify(isBatch ? { type: t, ...call } : call));
    const expect: Expectation = size < 32_500 ? 'accept' : size > 33_000 ? 'refuse' : 'any';
    return { text: wrap([call]), expect, calls: 1, messageIds: expect === 'refuse' ? [] : [c['messageId'] as string], label: `one call of ~${size} bytes` };
  });

  const truncated: fc.Arbitrary<BodyPlan> = fc.tuple(valid, fc.double({ min: 0, max: 0.999, noNaN: true })).map(([p, f]) => {
    const text = String(p.text);
    return { text: text.slice(0, Math.floor(text.length * f)), expect: 'refuse' as const, calls: 0, messageIds: [], label: 'truncated JSON' };
  });
  const notObject: fc.Arbitrary<BodyPlan> = fc.oneof(fc.jsonValue({ maxDepth: 2 }).filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)), fc.constant([])).map((v) => ({
    text: JSON.stringify(v),
    expect: 'refuse' as const,
    calls: 0,
    messageIds: [],
    label: 'JSON that is not an object',
  }));
  const garbage: fc.Arbitrary<BodyPlan> = fc.oneof(fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)), fc.constantFrom('', 'userId=u1&event=E', '<xml/>', '{"a":1}{"b":2}', '\ufeff{}')).map((text) => ({
    text,
    expect: 'refuse' as const,
    calls: 0,
    messageIds: [],
    label: 'not JSON',
  }));
  // Bytes that are not UTF-8, in a value, an identifier or a key: refused, never decoded as U+FFFD (which would
  // store a value the client never sent, and could make two messageIds one).
  const badUtf8: fc.Arbitrary<BodyPlan> = fc.tuple(one, fc.constantFrom('properties', 'messageId', 'userId', 'key'), fc.constantFrom([0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xc0, 0xaf])).map(([c, where, bad]) => {
    const call = { ...c, event: 'E', ...(where === 'properties' ? { properties: { s: '@@' } } : where === 'key' ? { properties: { '@@': 1 } } : { [where]: 'id@@' }) };
    const text = JSON.stringify(call);
    const [head, tail] = text.split('@@') as [string, string];
    return { text: Buffer.concat([Buffer.from(isBatch ? `{"batch":[${head.replace(/^\{/, `{"type":"${t}",`)}` : head), Buffer.from(bad), Buffer.from(isBatch ? `${tail}]}` : tail)]), expect: 'refuse' as const, calls: 1, messageIds: [], label: `invalid UTF-8 in ${where}` };
  });

  // A number literal beyond a double's range parses as Infinity and would be delivered as null: refused.
  const overflow: fc.Arbitrary<BodyPlan> = fc.tuple(one, fc.constantFrom('1e400', '-2E+309', '1'.repeat(320), '9.9e999')).map(([c, literal]) => {
    const [head, tail] = JSON.stringify({ ...c, event: 'E', properties: { n: '@@' } }).split('"@@"') as [string, string];
    return { text: isBatch ? `{"batch":[${head.replace(/^\{/, `{"type":"${t}",`)}${literal}${tail}]}` : `${head}${literal}${tail}`, expect: 'refuse' as const, calls: 1, messageIds: [], label: 'a number beyond a double' };
  });

  const arbs: fc.Arbitrary<BodyPlan>[] = [valid, valid, hostile, lone, loneInProperties, deep, big, truncated, notObject, garbage, badUtf8, overflow];
  if (isBatch) {
    // A batch over the request limit (500 KiB), and a batch whose `batch` is not an array.
    arbs.push(
      fc.integer({ min: 16, max: 20 }).map((n) => ({
        text: JSON.stringify({ batch: Array.from({ length: n }, (_, i) => ({ type: 'track', userId: 'u', event: 'E', properties: { pad: 'y'.repeat(32_000), i } })) }),
        expect: 'refuse' as const,
        calls: n,
        messageIds: [],
        label: `batch of ${n} × 32 KB (> 500 KiB)`,
      })),
      hostileValue.filter((v) => !Array.isArray(v)).map((v) => ({ text: JSON.stringify({ batch: v }), expect: 'refuse' as const, calls: 0, messageIds: [], label: 'batch not an array' })),
    );
  }
  return fc.oneof(...arbs);
}

type Auth = 'basic' | 'body' | 'wrong' | 'none' | 'garbage';

/** One ingestion request: route, method, labels, encoding, auth and body. */
export function ingestRequestArb(writeKey: string): fc.Arbitrary<FuzzRequest> {
  const route = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...Object.keys(SINGLE), ...BATCH) },
    { weight: 1, arbitrary: fc.constantFrom('nope', 'track/extra', 'TRACK', 'batch/', 'delete') },
  );
  return fc
    .record({
      route,
      method: fc.oneof({ weight: 20, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'OPTIONS') }),
      contentType: fc.constantFrom(undefined, 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'image/notjson', 'multipart/form-data; boundary=x', '\u00ff/\u00fe'),
      encoding: fc.oneof({ weight: 6, arbitrary: fc.constant<'none' | 'gzip' | 'fake-gzip' | 'deflate' | 'br'>('none') }, { weight: 3, arbitrary: fc.constant('gzip' as const) }, { weight: 1, arbitrary: fc.constantFrom('fake-gzip' as const, 'deflate' as const, 'br' as const) }),
      auth: fc.oneof({ weight: 8, arbitrary: fc.constant<Auth>('basic') }, { weight: 2, arbitrary: fc.constant<Auth>('body') }, { weight: 1, arbitrary: fc.constantFrom<Auth>('wrong', 'none', 'garbage') }),
      // The body's write key member spelled with a JSON escape: the same member once parsed (it authenticates),
      // and answers and the ingest log must mask it all the same.
      escapedKeyName: fc.boolean(),
    })
    .chain((r) => {
      const type = (SINGLE[r.route] ?? null) as (typeof TYPES)[number] | null;
      const isBatch = BATCH.includes(r.route.replace(/\/$/, ''));
      const known = type !== null || isBatch;
      return callsOf(type, isBatch).map((plan): FuzzRequest => {
        let text: Buffer = Buffer.isBuffer(plan.text) ? plan.text : Buffer.from(plan.text, 'utf8');
        let expect = plan.expect;
        const headers: Record<string, string> = {};
        if (r.contentType !== undefined) headers['content-type'] = r.contentType;
        if (r.auth === 'basic') headers['authorization'] = `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}`;
        if (r.auth === 'wrong') headers['authorization'] = `Basic ${Buffer.from('wk_nobody:').toString('base64')}`;
        if (r.auth === 'garbage') headers['authorization'] = 'Basic !!!not-base64';
        if (r.auth === 'body') {
          // writeKey goes inside the JSON object, when the body is one.
          const s = text.toString('utf8');
          // The escaped name is 5 bytes longer: only where no limit is near.
          const name = r.escapedKeyName && text.length < 16_384 ? 'write\\u004bey' : 'writeKey';
          if (s.startsWith('{') && s.length > 1) text = Buffer.concat([Buffer.from(`{"${name}":${JSON.stringify(writeKey)},`), text.subarray(1)]);
          if (s === '{}' || !s.startsWith('{')) expect = expect === 'accept' ? 'refuse' : expect;
          if (s.startsWith('{}')) expect = 'any';
        }
        if (r.auth === 'wrong' || r.auth === 'none' || r.auth === 'garbage') expect = expect === 'accept' ? 'refuse' : expect;
        if (r.encoding === 'gzip') {
          text = gzipSync(text);
          headers['content-encoding'] = 'gzip';
        } else if (r.encoding !== 'none') {
          headers['content-encoding'] = r.encoding === 'fake-gzip' ? 'gzip' : r.encoding;
          expect = 'refuse';
        }
        if (!known || r.method !== 'POST') expect = 'refuse';
        const req: FuzzRequest = {
          route: `/v1/${r.route}`,
          method: r.method,
          headers,
          body: text,
          expect,
          calls: plan.calls,
          messageIds: expect === 'refuse' ? [] : plan.messageIds,
          label: `${r.method} /v1/${r.route} ${plan.label}; auth ${r.auth}; encoding ${r.encoding}; content-type ${r.contentType ?? 'none'}`,
        };
        // fast-check prints a counterexample with this: the label and the body's start, never 500 KB of bytes.
        return Object.assign(req, { [fc.toStringMethod]: () => brief(req) });
      });
    });
}

// ------------------------------------------------------------------------------------------- checks

interface ApiAnswer<T> {
  status: number;
  body: { ok: boolean; value?: T; error?: { code: string; message: string } };
}

export async function api<T>(target: IngestTarget, command: string, input: unknown): Promise<ApiAnswer<T>> {
  const res = await request(`${target.url}/api/${command}`, { method: 'POST', headers: { authorization: `Bearer ${target.token}` }, body: JSON.stringify(input) });
  const text = await res.body.text();
  let body: ApiAnswer<T>['body'];
  try {
    body = JSON.parse(text) as ApiAnswer<T>['body'];
  } catch {
    throw new Violation(`${command}: answer ${res.statusCode} is not JSON: ${text.slice(0, 200)}`);
  }
  if (res.statusCode >= 500) throw new Violation(`${command} answered ${res.statusCode}: ${text.slice(0, 300)}`);
  return { status: res.statusCode, body };
}

async function newest(target: IngestTarget): Promise<{ messageId: number; logId: number }> {
  const m = await api<{ items: { id: number }[] }>(target, 'listMessages', { limit: 1 });
  const l = await api<{ items: { id: number }[] }>(target, 'listIngestLog', { limit: 1 });
  return { messageId: m.body.value?.items[0]?.id ?? 0, logId: l.body.value?.items[0]?.id ?? 0 };
}

const brief = (r: FuzzRequest) => `${r.label} (${r.body.length} bytes: ${JSON.stringify(r.body.subarray(0, 160).toString('utf8'))})`;

/** Sends one request and checks every property; throws a Violation naming the request. */
export async function checkIngestRequest(target: IngestTarget, r: FuzzRequest, tally: IngestTally): Promise<void> {
  const before = await newest(target);
  const res = await request(`${target.url}${r.route}`, { method: r.method, headers: r.headers, body: r.method === 'GET' ? undefined : r.body });
  const text = await res.body.text();
  const status = res.statusCode;
  tally.requests++;
  tally.byStatus[status] = (tally.byStatus[status] ?? 0) + 1;
  const fail = (what: string): never => {
    throw new Violation(`${what}\n  request: ${brief(r)}\n  answer: ${status} ${text.slice(0, 300)}`);
  };
  if (status >= 500) fail('a 5xx');
  type Answer = { success?: boolean; error?: { code?: unknown; message?: unknown; field?: unknown; limit?: unknown } } | null;
  const parse = (): Answer => {
    try {
      return JSON.parse(text) as Answer;
    } catch {
      return fail('an answer that is not JSON');
    }
  };
  const body = status === 204 ? null : parse();
  if (r.expect === 'accept' && status !== 200) fail('refused what the contract accepts');
  if (r.expect === 'refuse' && status === 200) fail('accepted what the contract refuses');
  const after = await newest(target);

  if (status === 200) {
    if (body?.success !== true) fail('a 200 without {"success": true}');
    if (after.logId !== before.logId) fail('an accepted request was written to the ingest log');
    const page = await api<{ items: { id: number; messageId: string }[] }>(target, 'listMessages', { limit: r.calls + 1 });
    const added = (page.body.value?.items ?? []).filter((m) => m.id > before.messageId);
    if (added.length !== r.calls) fail(`a 200 stored ${added.length} messages for ${r.calls} calls`);
    const ids = new Set(added.map((m) => m.messageId));
    for (const id of r.messageIds) if (!ids.has(id)) fail(`messageId ${id} accepted but not in listMessages`);
    for (const m of added) {
      const detail = await api<{ message: { body: string } }>(target, 'getMessage', { id: m.id });
      if (detail.status !== 200) fail(`getMessage ${m.id} answered ${detail.status}`);
      if (JSON.stringify(detail.body).includes(target.writeKey)) fail(`getMessage ${m.id} shows the write key in clear`);
      JSON.parse(detail.body.value!.message.body);
      tally.messageIds.add(m.messageId);
    }
    tally.acceptedCalls += r.calls;
    return;
  }

  if (after.messageId !== before.messageId) fail(`a ${status} stored messages`);
  // A POST to a path no route takes is an SDK's misconfiguration, kept in the log (below); a preflight, another method or a GET of such a path is not.
  if (status === 204 || status === 405 || (status === 404 && r.method !== 'POST')) {
    if (after.logId !== before.logId) fail(`a ${status} (not an ingestion request) was written to the ingest log`);
    return;
  }
  const error = body?.error;
  if (!error || typeof error.code !== 'string' || typeof error.message !== 'string' || error.message === '') fail('a refusal without {error: {code, message}}');
  tally.byCode[error!.code as string] = (tally.byCode[error!.code as string] ?? 0) + 1;
  if (status === 400 && typeof error!.field !== 'string' && typeof error!.limit !== 'number') fail('a 400 that names neither a field nor a limit');
  if (status === 401 && error!.code !== 'unauthorized') fail('a 401 that is not unauthorized');
  if (status === 404 && error!.code !== 'not_found') fail('a 404 that is not not_found');
  if (status !== 400 && status !== 401 && status !== 404) fail(`an undocumented status ${status}`);
  const log = await api<{ items: { id: number; httpStatus: number; code: string }[] }>(target, 'listIngestLog', { limit: 2 });
  if (JSON.stringify(log.body).includes(target.writeKey)) fail('the ingest log shows the write key in clear');
  const rows = (log.body.value?.items ?? []).filter((row) => row.id > before.logId);
  if (rows.length !== 1) fail(`a refusal added ${rows.length} ingest-log rows`);
  if (rows[0]!.httpStatus !== status || rows[0]!.code !== error!.code) fail(`the ingest log says ${rows[0]!.httpStatus} ${rows[0]!.code}`);
}

/** The source's usage adds up: received = accepted + refused; accepted = its messages; filtered = its filtered ones. */
export async function checkIngestTotals(target: IngestTarget, sourceName: string): Promise<{ received: number; accepted: number; refused: number; filtered: number }> {
  const usage = await api<{ items: { name: string; sourceId: string; received: number; accepted: number; refused: number; filtered: number }[] }>(target, 'listSourceUsage', {});
  const u = usage.body.value?.items.find((x) => x.name === sourceName);
  if (!u) throw new Violation(`no usage for source ${sourceName}`);
  if (u.received !== u.accepted + u.refused) throw new Violation(`usage does not add up: received ${u.received} ≠ accepted ${u.accepted} + refused ${u.refused}`);
  let stored = 0;
  let filtered = 0;
  let cursor: string | null = null;
  do {
    const page: ApiAnswer<{ items: { status: string }[]; nextCursor: string | null }> = await api(target, 'listMessages', { sourceId: u.sourceId, limit: 500, ...(cursor ? { cursor } : {}) });
    const items = page.body.value?.items ?? [];
    stored += items.length;
    filtered += items.filter((m) => m.status === 'filtered').length;
    cursor = page.body.value?.nextCursor ?? null;
  } while (cursor);
  if (stored !== u.accepted) throw new Violation(`usage says ${u.accepted} accepted, ${stored} messages are stored for the source`);
  if (filtered !== u.filtered) throw new Violation(`usage says ${u.filtered} filtered, ${filtered} messages are filtered`);
  return u;
}

/** Every accepted messageId is in the data dir when it is opened again (after a stop or a SIGKILL). */
export async function checkDurable(dataDir: string, messageIds: Iterable<string>): Promise<number> {
  const core = createCore({ dataDir, autoStart: false });
  try {
    const stored = new Set<string>();
    let cursor: string | null = null;
    do {
      const page = core.listMessages({ limit: 1000, ...(cursor ? { cursor } : {}) });
      if (!page.ok) throw new Violation(`listMessages after reopening: ${page.error.message}`);
      for (const m of page.value.items) stored.add(m.messageId);
      cursor = page.value.nextCursor;
    } while (cursor);
    let n = 0;
    for (const id of messageIds) {
      if (!stored.has(id)) throw new Violation(`messageId ${id} was acknowledged with 200 but is not in the data dir after reopening it`);
      n++;
    }
    return n;
  } finally {
    await core.close();
  }
}

/** The property: one request at a time (so that the deltas seen are its own). */
export function ingestProperty(target: IngestTarget, tally: IngestTally) {
  return fc.asyncProperty(ingestRequestArb(target.writeKey), (r) => checkIngestRequest(target, r, tally));
}
