/**
 * A screen call's `properties` (Segment, Rudder and the Go client send them) are delivered as an addition
 * after the core keys (docs/behaviour.md §1), and every way in builds the same bytes: the typed API, and
 * ingestion on the engine's thread or on its own.
 */
import { describe, expect, it } from 'vitest';
import { createClock } from '../../../main/platform/clock.js';
import { IngestService, type IngestOptions } from '../../../main/ingestion/ingest.js';
import { must, newCore, onCleanup } from '../../helpers/harness.js';

const WRITE_KEY = 'wk_screens';
const NOW = Date.parse('2026-11-22T10:00:00.000Z');

function setUp(options: IngestOptions) {
  const core = newCore({ autoStart: false, clock: createClock({ realNow: () => NOW }) });
  must(core.createSource({ name: 'app', kind: 'mobile', writeKey: WRITE_KEY }));
  const ingest = new IngestService(core.ingestion, options);
  onCleanup(() => ingest.close());
  return { core, ingest };
}

const screen = {
  type: 'screen',
  userId: 'u1',
  name: 'Checkout',
  messageId: 'm-screen-1',
  timestamp: '2026-11-22T09:59:00.000Z',
  context: { os: { name: 'iOS' }, ip: '198.51.100.4' },
  properties: { step: 2, cart: { items: 3 } },
};

const EXPECTED =
  '{"version":1,"type":"screen","userId":"u1","name":"Checkout","timestamp":"2026-11-22T09:59:00.000Z","context":{"os":{"name":"iOS"},"ip":"198.51.100.4"},"messageId":"m-screen-1","properties":{"step":2,"cart":{"items":3}}}';

describe('screen properties', () => {
  it('are delivered after the core keys, the same bytes through the typed API and ingestion on either thread', async () => {
    const api = setUp({ thread: 'inline' });
    const { type: _type, ...call } = screen;
    const sent = must(api.core.sendMessage({ type: 'screen', call }));
    expect(must(api.core.getMessage({ id: sent.message.id })).message.body).toBe(EXPECTED);

    for (const thread of ['inline', 'worker'] as const) {
      const { core, ingest } = setUp({ thread, workerMinBytes: 0 });
      const answer = await ingest.handle({
        method: 'POST',
        path: '/v1/batch',
        headers: { authorization: `Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}` },
        body: Buffer.from(JSON.stringify({ batch: [screen] })),
        clientIp: '198.51.100.4',
      });
      expect(answer.status, thread).toBe(200);
      const [stored] = must(core.listMessages({})).items;
      expect(must(core.getMessage({ id: stored!.id })).message.body, thread).toBe(EXPECTED);
    }
  });

  it('are left out when the call has none, and kept as {} when it sends {}', () => {
    const { core } = setUp({ thread: 'inline' });
    const body = (call: Record<string, unknown>) => JSON.parse(must(core.getMessage({ id: must(core.sendMessage({ type: 'screen', call })).message.id })).message.body) as Record<string, unknown>;
    expect(Object.keys(body({ userId: 'u', name: 'Home' }))).toEqual(['version', 'type', 'userId', 'name', 'timestamp', 'context', 'messageId']);
    expect(Object.keys(body({ userId: 'u', properties: {} }))).toEqual(['version', 'type', 'userId', 'timestamp', 'context', 'messageId', 'properties']);
    expect(body({ userId: 'u', properties: {} })['properties']).toEqual({});
  });

  it('that are not an object are refused, naming the field', () => {
    const { core } = setUp({ thread: 'inline' });
    const r = core.sendMessage({ type: 'screen', call: { userId: 'u', properties: [1] } });
    expect(r.ok ? null : r.error).toMatchObject({ code: 'invalid_input', field: 'properties', message: 'properties: must be an object (got an array)' });
  });
});
