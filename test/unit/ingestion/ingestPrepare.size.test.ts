/**
 * The 32 KiB limit on each ingested call (docs/behaviour.md §7), measured on the call as received. The
 * builder bounds the size from the body and the stored form and serialises the call only near the limit
 * (ingestion/ingestPrepare.ts): the answers must be exactly those of measuring every call.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS, type MessageType } from '../../../main/contract/message/messageShapes.js';
import { buildMessage } from '../../../main/domain/messages.js';
import { prepareIngest, type Prepared } from '../../../main/ingestion/ingestPrepare.js';
import { parseStoredCall } from '../../../main/store/storedJson.js';

const limit = LIMITS.messageBytes;
const size = (call: unknown) => Buffer.byteLength(JSON.stringify(call), 'utf8');

/** A track call whose JSON is exactly `bytes` long; `pad` is repeated (1 to 3 UTF-8 bytes a unit). */
function callOf(bytes: number, extra: Record<string, unknown> = {}, pad = 'x'): Record<string, unknown> {
  const call = { type: 'track', userId: 'u', event: 'E', ...extra, properties: { pad: '' } };
  const room = bytes - size(call);
  const unit = Buffer.byteLength(pad, 'utf8');
  call.properties.pad = pad.repeat(Math.floor(room / unit)) + 'x'.repeat(room % unit);
  expect(size(call)).toBe(bytes);
  return call;
}

function prepare(batch: unknown[], clientIp: string | null = '127.0.0.1'): Prepared {
  return prepareIngest({
    method: 'POST', path: '/v1/batch', contentType: 'application/json', contentEncoding: null,
    authorization: `Basic ${Buffer.from('wk:').toString('base64')}`, body: Buffer.from(JSON.stringify({ batch })), clientIp, receivedAt: 1,
  });
}

describe('the 32 KiB limit on an ingested call', () => {
  it('takes a call of exactly the limit, whatever its characters and whether it shares values with its body', () => {
    for (const pad of ['x', 'é', '€', '😀']) {
      for (const extra of [{}, { context: { ip: '203.0.113.7' } }, { integrations: { All: true }, timestamp: '2026-11-22T10:00:00Z' }]) {
        const call = callOf(limit, extra, pad);
        const prepared = prepare([call]);
        expect(prepared.kind, `${pad} ${JSON.stringify(extra)}`).toBe('calls');
        if (prepared.kind !== 'calls') continue;
        expect(prepared.calls.count).toBe(1);
        const body = Buffer.from(prepared.bodies).subarray(0, prepared.calls.bodyEnd[0]);
        expect(JSON.stringify(parseStoredCall(prepared.calls.callJson[0]!, body))).toBe(JSON.stringify(call));
      }
    }
  });

  it('refuses a call one byte over, naming it, its exact size and the limit', () => {
    for (const pad of ['x', '€']) {
      const prepared = prepare([callOf(100), callOf(200), callOf(limit + 1, {}, pad)]);
      expect(prepared).toMatchObject({ kind: 'refused', calls: 3, status: 400, error: { code: 'message_too_large', index: 2, field: 'batch[2]', limit, value: limit + 1 } });
    }
  });

  it('names a call too large with an earlier call that is wrong in another way, in batch order', () => {
    const prepared = prepare([callOf(100), { type: 'track', event: 'no identity' }, callOf(limit + 500)]);
    expect(prepared).toMatchObject({
      kind: 'refused',
      error: { code: 'missing_identity', index: 1, problems: [{ code: 'message_too_large', index: 2, value: limit + 500 }] },
    });
    const wrong = prepare([callOf(100), { type: 'track', event: 'no identity' }, callOf(limit)]);
    expect(wrong).toMatchObject({ kind: 'refused', error: { code: 'missing_identity', index: 1 } });
  });
});

describe('the bodies of an ingested batch', () => {
  it('are the builder’s bytes for each call, one after the other in one buffer, whatever the characters', () => {
    const calls = ['plain', 'é', '€ and 😀', 'a\u2028b', '"quoted" \\ back\nslash', ''].map((text, i) => ({
      type: i % 2 ? 'track' : 'identify',
      userId: `u-${text}`,
      messageId: `m-${i}`,
      ...(i % 2 ? { event: `E ${text}`, properties: { text, n: i } } : { traits: { name: text } }),
      timestamp: '2026-11-22T10:00:00.000Z',
    }));
    const prepared = prepare(calls);
    expect(prepared.kind).toBe('calls');
    if (prepared.kind !== 'calls') return;
    let start = 0;
    calls.forEach((call, i) => {
      const built = buildMessage(call.type as MessageType, call, { receivedAt: 1, newMessageId: () => 'unused', clientIp: '127.0.0.1' });
      if (!built.ok) throw new Error(built.error.message);
      const end = prepared.calls.bodyEnd[i]!;
      expect(Buffer.from(prepared.bodies.subarray(start, end)).equals(built.value.bytes), `call ${i}`).toBe(true);
      start = end;
    });
    expect(start).toBe(prepared.bodies.byteLength);
  });
});

describe('the integrations an ingested call hands over for routing', () => {
  it('are the object when it has keys, and null when routing would read nothing in it', () => {
    const values = [undefined, {}, { All: false }, { Webhooks: true, All: false }, null];
    const prepared = prepare(values.map((integrations, i) => ({ type: 'track', userId: 'u', event: 'E', messageId: `m-${i}`, ...(integrations === undefined ? {} : { integrations }) })));
    expect(prepared.kind).toBe('calls');
    if (prepared.kind !== 'calls') return;
    expect(prepared.calls.integrations).toEqual([null, null, { All: false }, { Webhooks: true, All: false }, null]);
    // The stored call keeps what was sent.
    expect(parseStoredCall(prepared.calls.callJson[1]!, Buffer.from(prepared.bodies.subarray(prepared.calls.bodyEnd[0], prepared.calls.bodyEnd[1])))).toMatchObject({ integrations: {} });
  });

  it('are refused, naming the field, when they are not an object (a string or an array would be dropped unread)', () => {
    for (const integrations of ['All', [], 3, true]) {
      const prepared = prepare([{ type: 'track', userId: 'u', event: 'E', messageId: 'm-0' }, { type: 'track', userId: 'u', event: 'E', messageId: 'm-1', integrations }]);
      expect(prepared).toMatchObject({ kind: 'refused', status: 400, error: { code: 'invalid_input', field: 'batch[1].integrations', index: 1 } });
    }
  });
});
