/**
 * Every body is read as JSON whatever its Content-Type label, as the
 * real collection API does; identifiers that UTF-8 cannot store (lone surrogates) are refused, naming the
 * field, so that the indexed columns and the stored body never disagree.
 */
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { RunningServe } from '../../../main/cli/commands/serve.js';
import { must } from '../../helpers/harness.js';
import { basicAuth, serveWithSource } from '../../helpers/serveWithSource.js';

async function post(running: RunningServe, path: string, body: string | Buffer, headers: Record<string, string>) {
  const res = await request(`${running.info.url}${path}`, { method: 'POST', headers: { authorization: basicAuth, ...headers }, body });
  return { status: res.statusCode, body: (await res.body.json()) as { success?: boolean; error?: Record<string, unknown> } };
}

const stored = (running: RunningServe) => must(running.core.listMessages({ limit: 100 })).items;
const call = (event: string) => JSON.stringify({ userId: 'u1', event });

describe('content types (docs/behaviour.md §7): every body is read as JSON, whatever its label', () => {
  it('a gzip JSON body labelled as a form is accepted', async () => {
    const running = await serveWithSource();
    const res = await post(running, '/v1/track', gzipSync(call('Zipped Form')), { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' });
    expect(res).toEqual({ status: 200, body: { success: true } });
    expect(stored(running).map((m) => m.event)).toEqual(['Zipped Form']);
  });

  it('Content-Encoding: x-gzip is read as gzip (RFC 9110), and its bomb guard holds', async () => {
    const running = await serveWithSource();
    const res = await post(running, '/v1/track', gzipSync(call('X Gzip')), { 'content-type': 'application/json', 'content-encoding': 'x-gzip' });
    expect(res).toEqual({ status: 200, body: { success: true } });
    expect(stored(running).map((m) => m.event)).toEqual(['X Gzip']);
    const bomb = await post(running, '/v1/batch', gzipSync(Buffer.from(`{"batch":[],"pad":"${'0'.repeat(2_000_000)}"}`)), { 'content-encoding': 'X-Gzip' });
    expect(bomb).toMatchObject({ status: 400, body: { error: { code: 'request_too_large', limit: 512000 } } });
    const garbled = await post(running, '/v1/track', gzipSync(call('Cut')).subarray(0, 12), { 'content-encoding': 'x-gzip' });
    expect(garbled.body.error).toMatchObject({ field: 'content-encoding', message: expect.stringMatching(/^content-encoding: x-gzip body could not be decoded/) });
  });

  it('a body and its Content-Encoding that disagree say which way: JSON labelled gzip, gzip without the label', async () => {
    const running = await serveWithSource();
    const plain = await post(running, '/v1/track', call('Plain'), { 'content-encoding': 'gzip' });
    expect(plain).toMatchObject({ status: 400, body: { error: { code: 'invalid_input', field: 'content-encoding' } } });
    expect(plain.body.error!['message']).toBe(
      'content-encoding: says gzip, but the body does not start as gzip data does (bytes 1f 8b); it starts with byte 7b ("{"): compress the body, or send it without Content-Encoding',
    );
    const unlabelled = await post(running, '/v1/track', gzipSync(call('Zipped')), {});
    expect(unlabelled).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_json', field: 'body', message: 'body: gzip data (it starts with bytes 1f 8b) sent without Content-Encoding: gzip; add that header, or send the JSON uncompressed' } },
    });
    expect(must(running.core.listIngestLog({})).items.map((r) => r.field)).toEqual(['body', 'content-encoding']);
  });

  it('Latin-1 bytes labelled charset=iso-8859-1 are refused as invalid UTF-8, naming the label that is not honoured', async () => {
    const running = await serveWithSource();
    const latin1 = Buffer.concat([Buffer.from('{"userId":"u1","event":"Caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const res = await post(running, '/v1/track', latin1, { 'content-type': 'application/json; charset=ISO-8859-1' });
    expect(res).toMatchObject({ status: 400, body: { error: { code: 'invalid_json', field: 'event' } } });
    expect(res.body.error!['message']).toBe(
      'event: invalid UTF-8 at byte 27 (0xe9); JSON must be UTF-8 (the value is refused rather than changed); labelled charset=iso-8859-1: the body is read as UTF-8, as JSON is; send it encoded as UTF-8',
    );
    // Labelled UTF-8 (as it should be), the bytes alone are named.
    const utf8 = await post(running, '/v1/track', latin1, { 'content-type': 'application/json; charset=utf-8' });
    expect(utf8.body.error!['message']).toBe('event: invalid UTF-8 at byte 27 (0xe9); JSON must be UTF-8 (the value is refused rather than changed)');
  });

  it('UTF-16 labelled charset=utf-16 is refused as invalid JSON, naming the label that is not honoured', async () => {
    const running = await serveWithSource();
    // Without a byte order mark UTF-16LE is valid UTF-8 ("{", NUL, ...): JSON.parse, not the UTF-8 check, refuses it.
    const utf16 = Buffer.from('{"userId":"u1","event":"E"}', 'utf16le');
    const res = await post(running, '/v1/track', utf16, { 'content-type': 'application/json; charset=UTF-16' });
    expect(res).toMatchObject({ status: 400, body: { error: { code: 'invalid_json', field: 'body' } } });
    expect(res.body.error!['message']).toMatch(/^body: invalid JSON \(.*\); labelled charset=utf-16: the body is read as UTF-8, as JSON is; send it encoded as UTF-8$/);
  });

  it('any label, or none at all, is accepted on every route when the body is JSON', async () => {
    const running = await serveWithSource();
    expect((await post(running, '/v1/track', call('No Label'), {})).status).toBe(200);
    expect((await post(running, '/v1/track', call('Image'), { 'content-type': 'image/notjson' })).status).toBe(200);
    expect((await post(running, '/v1/batch', JSON.stringify({ batch: [{ type: 'track', userId: 'u1', event: 'Form Batch' }] }), { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(200);
    expect(stored(running).map((m) => m.event).sort()).toEqual(['Form Batch', 'Image', 'No Label']);
  });

  it('a body that is not JSON is refused with 400 invalid_json naming the problem, whatever its label says', async () => {
    const running = await serveWithSource();
    const labelled = await post(running, '/v1/track', 'userId=u1&event=E', { 'content-type': 'application/json' });
    expect(labelled.status).toBe(400);
    expect(labelled.body.error).toMatchObject({ code: 'invalid_json', field: 'body', message: expect.stringMatching(/^body: invalid JSON \(.+\)$/) });
    const form = await post(running, '/v1/track', 'userId=u1&event=E', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(400);
    expect(form.body.error).toMatchObject({
      code: 'invalid_json',
      field: 'body',
      message: expect.stringContaining('labelled application/x-www-form-urlencoded: every body is read as JSON, whatever its label'),
    });
    expect(stored(running)).toEqual([]);
    expect(must(running.core.listIngestLog({})).items.map((r) => r.code)).toEqual(['invalid_json', 'invalid_json']);
  });
});

describe('lone surrogates in indexed fields (docs/behaviour.md §7)', () => {
  // JSON text with escapes that JSON.parse turns into lone UTF-16 surrogates: valid JSON, not valid Unicode.
  const lone = (field: string) => `{"userId":"u1","event":"E",${field}}`;

  it.each([
    ['userId', '"userId":"u\\ud800"', 'userId'],
    ['anonymousId', '"anonymousId":"\\udc00a"', 'anonymousId'],
    ['event', '"event":"Signed Up \\ud83d"', 'event'],
    ['messageId', '"messageId":"m-\\udfff-1"', 'messageId'],
  ])('/v1/track refuses a lone surrogate in %s with 400 naming the field; nothing is stored', async (_name, member, field) => {
    const running = await serveWithSource();
    const res = await post(running, '/v1/track', lone(member), { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_input', field, message: expect.stringContaining(`${field}: contains a lone surrogate`) });
    expect(stored(running)).toEqual([]);
  });

  it('a batch names the item; the typed API refuses it too; a proper pair (an emoji) is stored alike in the columns and the body', async () => {
    const running = await serveWithSource();
    const batch = `{"batch":[{"type":"track","userId":"u1","event":"ok"},{"type":"track","userId":"u1","event":"bad \\ud800"}]}`;
    const res = await post(running, '/v1/batch', batch, { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_input', field: 'batch[1].event', index: 1 });
    expect(running.core.sendMessage({ type: 'track', call: { userId: 'u\ud800', event: 'E' } })).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'userId' } });
    expect((await post(running, '/v1/track', '{"userId":"u\\ud83d\\ude00","event":"Smile \\ud83d\\ude00"}', {})).status).toBe(200);
    const [m] = stored(running);
    expect(m).toMatchObject({ userId: 'u😀', event: 'Smile 😀' });
    const detail = must(running.core.getMessage({ id: m!.id }));
    expect(JSON.parse(detail.message.body)).toMatchObject({ userId: 'u😀', event: 'Smile 😀' });
    expect(must(running.core.listMessages({ userId: 'u😀' })).items).toHaveLength(1);
  });
});
