/**
 * An import sends its messages again as they were: a copy's body says what the original's said (the time of
 * receipt as its `timestamp`, the sender's `context.ip`, and with keepMessageIds the messageId the workbench
 * made), and a call accepted at the 32 KiB limit imports back whole from either format, because the fields
 * the workbench filled are not counted as the call's.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS, MESSAGE_TYPES, type MessageType } from '../../../main/contract/message/messageShapes.js';
import { createClock } from '../../../main/platform/clock.js';
import { IngestService } from '../../../main/ingestion/ingest.js';
import { must, newCore, newReceiver, onCleanup, settled } from '../../helpers/harness.js';

const WRITE_KEY = 'wk_fidelity_0123';
const RECEIVED = Date.parse('2026-11-20T08:30:00.125Z');

/** A workbench whose clock reads RECEIVED, with the calls ingested from 198.51.100.7 (and delivered, when asked). */
async function ingested(calls: Record<string, unknown>[], { delivered = false } = {}) {
  const core = newCore({ autoStart: delivered, clock: createClock({ realNow: () => RECEIVED }) });
  must(core.createSource({ name: 'backend', kind: 'server', writeKey: WRITE_KEY }));
  // HAR lists attempts: what a HAR export holds must have been sent.
  if (delivered) must(core.createDestination({ name: 'receiver', enabled: true, url: (await newReceiver()).url, sources: ['backend'] }));
  const ingest = new IngestService(core.ingestion, { thread: 'inline' });
  onCleanup(() => ingest.close());
  for (const call of calls) {
    const answer = await ingest.handle({
      method: 'POST',
      path: '/v1/track',
      headers: { authorization: `Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}` },
      body: Buffer.from(JSON.stringify(call)),
      clientIp: '198.51.100.7',
    });
    expect(answer.status).toBe(200);
  }
  const ids = must(core.listMessages({})).items.map((m) => m.id).reverse();
  if (delivered) for (const id of ids) await settled(core, id);
  return { core, originals: ids.map((id) => must(core.getMessage({ id })).message) };
}

/** A track call whose JSON is exactly `bytes` bytes long. */
function callOf(bytes: number): Record<string, unknown> {
  const call = { userId: 'u1', event: 'At the limit', properties: { pad: '' } };
  call.properties.pad = 'y'.repeat(bytes - JSON.stringify(call).length);
  expect(Buffer.byteLength(JSON.stringify(call))).toBe(bytes);
  return call;
}

/** A fresh workbench (another day, another clock) with the same source, to import into. */
function elsewhere() {
  const core = newCore({ autoStart: false, clock: createClock({ realNow: () => RECEIVED + 86_400_000 }) });
  must(core.createSource({ name: 'backend', kind: 'server', writeKey: WRITE_KEY }));
  return core;
}

const withoutMessageId = (body: string) => {
  const { messageId: _m, ...rest } = JSON.parse(body) as Record<string, unknown>;
  return rest;
};

describe('an import keeps what the original bodies said', () => {
  it('a JSON lines import keeps each body\'s timestamp and context.ip (a new messageId), and with messageIds kept the bodies are byte-identical', async () => {
    const { core, originals } = await ingested([{ userId: 'ada', event: 'Signed Up' }, { userId: 'bob', event: 'Paid', context: { locale: 'fr' } }]);
    expect(JSON.parse(originals[0]!.body)).toMatchObject({ timestamp: '2026-11-20T08:30:00.125Z', context: { ip: '198.51.100.7' } });
    const json = must(core.exportMessages({ filter: {}, format: 'json' }));

    const fresh = elsewhere();
    const copies = must(fresh.importMessages({ text: json.text, source: 'backend' })).imported.map((m) => must(fresh.getMessage({ id: m.id })).message);
    for (const [i, copy] of copies.entries()) {
      expect(withoutMessageId(copy.body)).toEqual(withoutMessageId(originals[i]!.body));
      expect(copy.messageId).not.toBe(originals[i]!.messageId);
      // The call stored for the copy is the call as first received: nothing the workbench filled was added to it.
      expect(copy.call).toEqual(originals[i]!.call);
    }

    const kept = elsewhere();
    const same = must(kept.importMessages({ text: json.text, source: 'backend', keepMessageIds: true })).imported.map((m) => must(kept.getMessage({ id: m.id })).message);
    expect(same.map((m) => m.body)).toEqual(originals.map((m) => m.body));
  });

  it('a HAR import rebuilds the bodies the attempts carried, byte for byte with messageIds kept', async () => {
    const { core, originals } = await ingested([{ userId: 'ada', event: 'Signed Up' }, { userId: 'bob', event: 'Paid', context: { locale: 'fr' }, timestamp: '2026-11-19T23:00:00+01:00' }], { delivered: true });
    const har = must(core.exportMessages({ filter: {}, format: 'har' }));
    expect(har.messages).toBe(2);

    const kept = elsewhere();
    const copies = must(kept.importMessages({ text: har.text, source: 'backend', keepMessageIds: true })).imported.map((m) => must(kept.getMessage({ id: m.id })).message);
    expect(copies.map((m) => m.body)).toEqual(originals.map((m) => m.body));
  });

  it('a HAR import rebuilds a message of every type, an alias\'s "User ID" and "Previous ID" included, byte for byte with messageIds kept', async () => {
    const core = newCore({ clock: createClock({ realNow: () => RECEIVED }) });
    must(core.createSource({ name: 'backend', kind: 'server', writeKey: WRITE_KEY }));
    must(core.createDestination({ name: 'receiver', enabled: true, url: (await newReceiver()).url, sources: ['backend'] }));
    const calls: Record<MessageType, Record<string, unknown>> = {
      track: { userId: 'ada', event: 'Paid', properties: { total: 1 } },
      page: { anonymousId: 'anon-1', name: 'Home', category: 'Docs', properties: { path: '/' } },
      screen: { userId: 'ada', name: 'Settings', properties: { tab: 2 } },
      identify: { userId: 'ada', traits: { plan: 'pro' } },
      group: { userId: 'ada', groupId: 'g1', traits: { name: 'Acme' } },
      alias: { userId: 'ada', previousId: 'anon-1' },
      delete: { userId: 'ada' },
    };
    const sent = must(core.sendMessages({ messages: MESSAGE_TYPES.map((type) => ({ type, call: calls[type], source: 'backend' })) }));
    const originals = await Promise.all(sent.map(async (s) => (await settled(core, s.message.id)).message));
    const har = must(core.exportMessages({ filter: {}, format: 'har' }));
    expect(har.messages).toBe(MESSAGE_TYPES.length);

    const kept = elsewhere();
    const imported = kept.importMessages({ text: har.text, source: 'backend', keepMessageIds: true });
    expect(imported.ok ? null : imported.error).toBeNull();
    const copies = must(imported).imported.map((m) => must(kept.getMessage({ id: m.id })).message);
    expect(copies.map((m) => m.body)).toEqual(originals.map((m) => m.body));
    expect(copies.find((m) => m.type === 'alias')!.call).toEqual({ userId: 'ada', previousId: 'anon-1' });
  });

  it(`a call accepted at the ${LIMITS.messageBytes}-byte limit exports and imports back whole, in either format, with or without its messageId kept`, async () => {
    const { core, originals } = await ingested([callOf(LIMITS.messageBytes)], { delivered: true });
    // One byte more is refused: the call above is at the limit, not under it.
    const over = core.sendMessage({ type: 'track', source: 'backend', call: callOf(LIMITS.messageBytes + 1) });
    expect(over.ok ? null : over.error).toMatchObject({ code: 'message_too_large', value: LIMITS.messageBytes + 1 });

    for (const format of ['json', 'har'] as const) {
      const text = must(core.exportMessages({ ids: [originals[0]!.id], format })).text;
      for (const keepMessageIds of [false, true]) {
        const fresh = elsewhere();
        const imported = fresh.importMessages({ text, source: 'backend', keepMessageIds });
        expect(imported.ok, `${format}, keepMessageIds ${keepMessageIds}: ${imported.ok ? '' : imported.error.message}`).toBe(true);
        const copy = must(fresh.getMessage({ id: must(imported).imported[0]!.id })).message;
        if (keepMessageIds) expect(copy.body).toBe(originals[0]!.body);
        else expect(withoutMessageId(copy.body)).toEqual(withoutMessageId(originals[0]!.body));
      }
    }
  });

  it('an export from an earlier version, whose calls hold a sentAt that is not a time, imports back as it was stored; a new call with one is still refused', async () => {
    const { core } = await ingested([{ userId: 'ada', event: 'Signed Up', sentAt: '2026-11-20T08:29:59.000Z' }, { userId: 'bob', event: 'Paid' }]);
    // Earlier versions stored any sentAt with the call: the export holds what they stored.
    const stored = ['garbage', 12];
    const lines = must(core.exportMessages({ filter: {}, format: 'json' })).text.trim().split('\n').map((line, i) => {
      const entry = JSON.parse(line) as { message: { call: Record<string, unknown> } };
      entry.message.call['sentAt'] = stored[i];
      return JSON.stringify(entry);
    });
    // The export lists the newest first; the copies arrive in the originals' order.
    const originals = lines.map((l) => (JSON.parse(l) as { message: { id: number; call: Record<string, unknown>; body: string } }).message).sort((a, b) => a.id - b.id);

    const fresh = elsewhere();
    const imported = fresh.importMessages({ text: lines.join('\n'), source: 'backend', keepMessageIds: true });
    expect(imported.ok ? null : imported.error).toBeNull();
    const copies = must(imported).imported.map((m) => must(fresh.getMessage({ id: m.id })).message);
    expect(copies.map((m) => m.call)).toEqual(originals.map((m) => m.call));
    expect(copies.map((m) => m.body)).toEqual(originals.map((m) => m.body));

    // Through the API, and through ingestion, such a call is refused as before.
    const sent = fresh.sendMessage({ type: 'track', source: 'backend', call: { userId: 'eve', event: 'E', sentAt: 'garbage' } });
    expect(sent.ok ? null : sent.error).toMatchObject({ code: 'invalid_timestamp', field: 'sentAt' });
    const ingest = new IngestService(fresh.ingestion, { thread: 'inline' });
    onCleanup(() => ingest.close());
    const answer = await ingest.handle({
      method: 'POST',
      path: '/v1/track',
      headers: { authorization: `Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}` },
      body: Buffer.from(JSON.stringify({ userId: 'eve', event: 'E', sentAt: 12 })),
      clientIp: '198.51.100.7',
    });
    expect(answer.status).toBe(400);
    expect(must(fresh.listMessages({})).items).toHaveLength(2);
  });

  it('an export from before integrations had to be an object imports back, routed as its original was (such a value routes nothing); a new call with one is still refused', async () => {
    const { core } = await ingested([{ userId: 'ada', event: 'Signed Up' }], { delivered: true });
    const entry = JSON.parse(must(core.exportMessages({ filter: {}, format: 'json' })).text) as { message: { call: Record<string, unknown>; body: string } };
    entry.message.call['integrations'] = 7;
    const fresh = elsewhere();
    must(fresh.createDestination({ name: 'receiver', enabled: true, url: 'http://127.0.0.1:9/x', sources: ['backend'] }));
    const imported = fresh.importMessages({ text: JSON.stringify(entry), keepMessageIds: true });
    expect(imported.ok ? null : imported.error).toBeNull();
    expect(must(imported).imported).toMatchObject([{ status: 'queued', deliveries: 1 }]);
    const copy = must(fresh.getMessage({ id: must(imported).imported[0]!.id })).message;
    expect(copy.call).toEqual(entry.message.call);
    expect(copy.body).toBe(entry.message.body);
    const sent = fresh.sendMessage({ type: 'track', source: 'backend', call: { userId: 'eve', event: 'E', integrations: 7 } });
    expect(sent.ok ? null : sent.error).toMatchObject({ code: 'invalid_input', field: 'integrations' });
  });
});
