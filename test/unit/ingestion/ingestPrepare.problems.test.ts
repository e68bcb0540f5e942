/**
 * A batch with several bad calls is refused naming every one of them, in batch order (docs/behaviour.md §7): the
 * first as the error, the others counted in its message and carried in \`problems\`, as other faces do.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../main/contract/message/messageShapes.js';
import { eachProblem } from '../../../main/contract/problems.js';
import { prepareIngest, type Prepared } from '../../../main/ingestion/ingestPrepare.js';

function prepare(batch: unknown[], path = '/v1/batch'): Prepared {
  return prepareIngest({
    method: 'POST', path, contentType: 'application/json', contentEncoding: null,
    authorization: `Basic ${Buffer.from('wk:').toString('base64')}`, body: Buffer.from(JSON.stringify(path === '/v1/batch' ? { batch } : batch[0])), clientIp: '127.0.0.1', receivedAt: 1,
  });
}

const refusal = (prepared: Prepared) => {
  if (prepared.kind !== 'refused') throw new Error(`not refused: ${prepared.kind}`);
  return prepared;
};

describe('every bad call of a batch is named', () => {
  it('a call without event and a call of an unknown type: the first is the error, the second counted and carried', () => {
    const refused = refusal(prepare([{ type: 'track', userId: 'u', event: 'ok' }, { type: 'track', userId: 'u' }, { type: 'bogus', userId: 'u' }]));
    expect(refused).toMatchObject({ status: 400, calls: 3 });
    expect(refused.error).toEqual({
      code: 'missing_field',
      field: 'batch[1].event',
      index: 1,
      message: 'batch[1].event: is required (and 1 more problem)',
      problems: [{ code: 'unknown_type', field: 'batch[2].type', index: 2, message: 'batch[2].type: unknown message type "bogus" (one of track, page, screen, identify, group, alias)' }],
    });
  });

  it('names each kind of fault at its own index, whichever step found it, and a call too large as that', () => {
    const big = { type: 'identify', userId: 'u', traits: { pad: 'x'.repeat(LIMITS.messageBytes) } };
    const refused = refusal(
      prepare([
        { type: 'bogus' },
        'not an object',
        { type: 'track', userId: 'u', event: 'ok' },
        { type: 'group', userId: 'u' },
        { userId: 'u' },
        { ...big, type: 'nonsense' },
        { type: 'track', userId: 'u\ud800', event: 'E' },
        big,
      ]),
    );
    const all = eachProblem(refused.error);
    expect(all.map((e) => [e.index, e.code, e.field])).toEqual([
      [0, 'unknown_type', 'batch[0].type'],
      [1, 'invalid_input', 'batch[1]'],
      [3, 'missing_field', 'batch[3].groupId'],
      [4, 'missing_field', 'batch[4].type'],
      [5, 'message_too_large', 'batch[5]'],
      [6, 'invalid_input', 'batch[6].userId'],
      [7, 'message_too_large', 'batch[7]'],
    ]);
    expect(refused.error.message).toBe('batch[0].type: unknown message type "bogus" (one of track, page, screen, identify, group, alias) (and 6 more problems)');
  });

  it('an unknown type names the types taken and the one most likely meant; a delete says how deletions are made', () => {
    const refused = refusal(prepare([{ type: 'trak', userId: 'u', event: 'E' }, { type: 'Identify', userId: 'u' }, { type: 'delete', userId: 'u' }]));
    expect(eachProblem(refused.error).map((e) => e.message)).toEqual([
      'batch[0].type: unknown message type "trak" (did you mean "track"? one of track, page, screen, identify, group, alias)',
      'batch[1].type: unknown message type "Identify" (did you mean "identify"? one of track, page, screen, identify, group, alias)',
      'batch[2].type: "delete" is not a call an SDK sends (one of track, page, screen, identify, group, alias); request a deletion with createDeletionRequest or hookbench delete-user',
    ]);
  });

  it('a type misspelt in the route names the route most likely meant, as a misspelt type in a body does', () => {
    const answer = (path: string) => {
      const prepared = prepare([{ userId: 'u', event: 'E' }], path);
      // A POST is refused (kept in the ingest log), not only answered.
      if (prepared.kind !== 'refused') throw new Error(`not refused: ${prepared.kind}`);
      return prepared.error.message;
    };
    expect(answer('/v1/trak')).toBe('no ingestion route /v1/trak (did you mean /v1/track?); use /v1/batch, /v1/import, /v1/<type> or /v1/{i,t,p,s,g,a,b}');
    expect(answer('/v1/Identify')).toMatch(/^no ingestion route \/v1\/Identify \(did you mean \/v1\/identify\?\);/);
    expect(answer('/v1/x')).toBe('no ingestion route /v1/x; use /v1/batch, /v1/import, /v1/<type> or /v1/{i,t,p,s,g,a,b}');
    expect(answer('/v1/bacth')).toMatch(/^no ingestion route \/v1\/bacth \(did you mean \/v1\/batch\?\);/);
  });

  it('another method than POST to a route says which it got', () => {
    const prepared = prepareIngest({ method: 'PUT', path: '/v1/batch', contentType: 'application/json', contentEncoding: null, authorization: null, body: Buffer.from('{}'), clientIp: null, receivedAt: 1 });
    expect(prepared).toMatchObject({ kind: 'answer', status: 405, headers: { allow: 'POST, OPTIONS' }, body: { error: { code: 'invalid_input', message: '/v1/batch takes POST (got PUT)' } } });
  });

  it('an item that is not a call, and an event sent empty, say what was sent', () => {
    const refused = refusal(prepare(['track', null, { type: 'track', userId: 'u', event: '' }]));
    expect(eachProblem(refused.error).map((e) => e.message)).toEqual([
      'batch[0]: must be an object, a call (got the string "track")',
      'batch[1]: must be an object, a call (got null)',
      'batch[2].event: is required (it is an empty string)',
    ]);
  });

  it('an empty or blank body says so, and a bare array of calls is told to be a batch object, not that JSON ended early', () => {
    const raw = (body: string, path = '/v1/batch') =>
      refusal(prepareIngest({ method: 'POST', path, contentType: 'application/json', contentEncoding: null, authorization: null, body: Buffer.from(body), clientIp: null, receivedAt: 1 })).error;
    expect(raw('')).toEqual({ code: 'invalid_json', field: 'body', message: 'body: is empty: send the batch as {"batch": [...]}' });
    expect(raw(' \n', '/v1/track')).toEqual({ code: 'invalid_json', field: 'body', message: 'body: is blank (2 bytes of white space): send the call as a JSON object' });
    expect(raw('[{"type":"track","userId":"u","event":"E"}]')).toEqual({ code: 'invalid_json', field: 'body', message: 'body: must be a JSON object (got an array): send a batch as {"batch": [...]}' });
    expect(raw('42', '/v1/track').message).toBe('body: must be a JSON object (got number 42)');
  });

  it('names every call too large when nothing else is wrong', () => {
    const big = (n: number) => ({ type: 'track', userId: 'u', event: `E${n}`, properties: { pad: 'y'.repeat(LIMITS.messageBytes) } });
    const refused = refusal(prepare([{ type: 'track', userId: 'u', event: 'ok' }, big(1), { type: 'track', userId: 'u', event: 'ok' }, big(3)]));
    expect(eachProblem(refused.error).map((e) => [e.index, e.code])).toEqual([
      [1, 'message_too_large'],
      [3, 'message_too_large'],
    ]);
  });

  it('a single-call route still answers its one problem, without an index', () => {
    const refused = refusal(prepare([{ userId: 'u' }], '/v1/track'));
    expect(refused.error).toEqual({ code: 'missing_field', field: 'event', message: 'event: is required' });
  });
});
