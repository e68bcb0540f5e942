/**
 * sentAt, the time an SDK sent the request (a batch's) or the call (browser SDKs'), is checked like a timestamp
 * and named when it is not one; it does not move the call's timestamp (docs/behaviour.md §1: the call's own
 * timestamp is delivered as sent, normalised to UTC).
 */
import { describe, expect, it } from 'vitest';
import { prepareIngest, type Prepared } from '../../../main/ingestion/ingestPrepare.js';

function prepare(path: string, payload: unknown): Prepared {
  return prepareIngest({
    method: 'POST', path, contentType: 'application/json', contentEncoding: null,
    authorization: `Basic ${Buffer.from('wk:').toString('base64')}`, body: Buffer.from(JSON.stringify(payload)), clientIp: '127.0.0.1', receivedAt: Date.UTC(2026, 0, 1),
  });
}

const call = { type: 'track', userId: 'u', event: 'E' };

describe('sentAt', () => {
  it.each([
    ['garbage', 'sentAt: "garbage" is not an ISO 8601 date-time (e.g. 2026-11-22T06:22:02.954Z)'],
    [12, 'sentAt: must be an ISO 8601 date-time string (got number 12)'],
    [{}, 'sentAt: must be an ISO 8601 date-time string (got an object)'],
  ])('a batch sentAt of %j is refused naming the field', (sentAt, message) => {
    expect(prepare('/v1/batch', { batch: [call], sentAt })).toMatchObject({ kind: 'refused', status: 400, calls: 1, error: { code: 'invalid_timestamp', field: 'sentAt', message } });
  });

  it('a call sentAt that is not a time is refused naming the call, on a batch and on a single-call route', () => {
    expect(prepare('/v1/batch', { batch: [call, { ...call, sentAt: 12 }] })).toMatchObject({
      kind: 'refused',
      error: { code: 'invalid_timestamp', field: 'batch[1].sentAt', index: 1, message: 'batch[1].sentAt: must be an ISO 8601 date-time string (got number 12)' },
    });
    expect(prepare('/v1/t', { userId: 'u', event: 'E', sentAt: 'garbage' })).toMatchObject({ kind: 'refused', error: { field: 'sentAt' } });
  });

  it('a valid sentAt (or none, or null) is accepted and leaves the call’s timestamp as sent', () => {
    for (const sentAt of ['2020-01-01T01:00:00Z', undefined, null]) {
      const prepared = prepare('/v1/batch', { batch: [{ ...call, timestamp: '2020-01-01T00:00Z', ...(sentAt !== undefined ? { sentAt } : {}) }], sentAt });
      expect(prepared.kind).toBe('calls');
      if (prepared.kind !== 'calls') continue;
      expect(JSON.parse(Buffer.from(prepared.bodies).toString('utf8'))).toMatchObject({ timestamp: '2020-01-01T00:00:00.000Z' });
    }
  });
});
