/**
 * importMessages: a JSON lines or HAR export read back and sent again through intake: bodies rebuilt as
 * they were (a new messageId unless kept), routed to the original destinations or through a source, in one
 * transaction; a bad entry refuses the import and is named by its line or HAR entry.
 */
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../main/contract/dispatch.js';
import { IMPORT_LIMITS } from '../../../main/contract/importMessages.js';
import { createCommandHandlers } from '../../../main/app/commandHandlers.js';
import type { Core } from '../../../main/app/createCore.js';
import { must, newCore, newReceiver, settled } from '../../helpers/harness.js';
import { status, type TestReceiver } from '../../helpers/receiver.js';

const withoutMessageId = (body: string) => {
  const { messageId: _m, ...rest } = JSON.parse(body) as Record<string, unknown>;
  return rest;
};

async function coreWithTwoMessages(firstStatus = 200): Promise<{ core: Core; ids: number[]; rx: TestReceiver }> {
  const rx = await newReceiver(status(firstStatus));
  const core = newCore();
  must(core.createSource({ name: 'web', kind: 'web', writeKey: 'wk_web_0123456789' }));
  must(core.createDestination({ name: 'd', enabled: true, webhooks: [{ url: rx.url, headers: {} }], sources: ['web'], sharedSecret: 's3cret' }));
  const sent = must(
    core.sendMessages({
      messages: [
        { type: 'track', call: { userId: 'ada', event: 'Order Completed', properties: { total: 42 } }, source: 'web' },
        { type: 'identify', call: { userId: 'bob', traits: { plan: 'pro' } }, source: 'web' },
      ],
    }),
  );
  const ids = sent.map((s) => s.message.id);
  for (const id of ids) await settled(core, id);
  return { core, ids, rx };
}

describe('importMessages', () => {
  it('replays a HAR export to the original destinations: same bodies, new messageIds, one message per exported message', async () => {
    const { core, ids, rx } = await coreWithTwoMessages(503);
    rx.respond = status(200);
    must(core.retryNow({ id: ids[0]! })); // a second attempt: two HAR entries for one message
    await settled(core, ids[0]!);
    const har = must(core.exportMessages({ ids, format: 'har' }));
    expect((JSON.parse(har.text) as { log: { entries: unknown[] } }).log.entries.length).toBe(3); // two attempts of the first message, one of the second
    const imported = must(core.importMessages({ text: har.text }));
    expect(imported.format).toBe('har');
    expect(imported.imported.map((m) => m.importedFrom)).toEqual(ids);
    for (const [i, m] of imported.imported.entries()) {
      const original = must(core.getMessage({ id: ids[i]! })).message;
      const copy = (await settled(core, m.id)).message;
      expect(withoutMessageId(copy.body)).toEqual(withoutMessageId(original.body));
      expect(copy.messageId).not.toBe(original.messageId);
      expect(m.deliveries).toBe(1);
    }
  });

  it('a HAR export imported into another workbench goes to the destination of the same name, and names the one it cannot find', async () => {
    const { core, ids } = await coreWithTwoMessages();
    const har = must(core.exportMessages({ ids, format: 'har' }));
    const elsewhere = newCore({ autoStart: false });
    const lost = elsewhere.importMessages({ text: har.text });
    expect(!lost.ok && lost.error.message).toMatch(/^text: log\.entries\[0\]: its source [\w-]+, destination d do not exist in this workbench; choose a source to route the import through$/);
    const there = must(elsewhere.createDestination({ name: 'd', enabled: true, webhooks: [{ url: 'http://127.0.0.1:9/x', headers: {} }] }));
    const imported = must(elsewhere.importMessages({ text: har.text }));
    expect(imported.imported.map((m) => m.deliveries)).toEqual([1, 1]);
    for (const m of imported.imported) expect(must(elsewhere.getMessage({ id: m.id })).deliveries.map((d) => d.destinationId)).toEqual([there.id]);
  });

  it('replays a JSON lines export into another workbench through a chosen source, keeping messageIds when asked', async () => {
    const { core, ids } = await coreWithTwoMessages();
    const json = must(core.exportMessages({ ids, format: 'json' }));
    const other = newCore({ autoStart: false });
    must(other.createSource({ name: 'imports', kind: 'server', writeKey: 'wk_imports_0123456789' }));
    must(other.createDestination({ name: 'there', enabled: true, webhooks: [{ url: 'http://127.0.0.1:9/x', headers: {} }], sources: ['imports'] }));
    // Its source and destination do not exist there: the import names the first message and what to do.
    const lost = other.importMessages({ text: json.text });
    expect(lost).toMatchObject({ ok: false, error: { code: 'not_found', field: 'source' } });
    expect(!lost.ok && lost.error.message).toMatch(/^text: line 1: its source [\w-]+, destination d do not exist in this workbench; choose a source to route the import through$/);

    const imported = must(other.importMessages({ text: json.text, source: 'imports', keepMessageIds: true }));
    expect(imported).toMatchObject({ format: 'json', imported: [{ importedFrom: ids[0], status: 'queued', deliveries: 1 }, { importedFrom: ids[1], status: 'queued', deliveries: 1 }] });
    for (const [i, m] of imported.imported.entries()) {
      const original = must(core.getMessage({ id: ids[i]! })).message;
      const copy = must(other.getMessage({ id: m.id })).message;
      expect(copy.messageId).toBe(original.messageId);
      expect(copy.sourceId).toBe(other.findSource('imports')!.id);
      expect(copy.body).toBe(original.body);
    }
  });

  it('imported back into the same workbench with their messageIds kept, the copies are sent (a receiver that de-duplicates drops them), not filtered as duplicates', async () => {
    const { core, ids, rx } = await coreWithTwoMessages();
    const json = must(core.exportMessages({ ids, format: 'json' }));
    const imported = must(core.importMessages({ text: json.text, keepMessageIds: true }));
    expect(imported.imported.map((m) => m.deliveries)).toEqual([1, 1]);
    for (const m of imported.imported) expect((await settled(core, m.id)).message.status).toBe('delivered');
    expect(rx.captured).toHaveLength(4);
    // Sent again by an SDK with the same messageId, a call is still a duplicate: only the import sends on purpose.
    const again = must(core.sendMessage({ type: 'track', source: 'web', call: { userId: 'ada', event: 'Order Completed', messageId: must(core.getMessage({ id: ids[0]! })).message.messageId } }));
    expect(again.message).toMatchObject({ status: 'filtered', statusReason: 'duplicate messageId' });
  });

  it('keeps the original order: a JSON lines export lists the newest first, and its copies arrive oldest first, as the originals did', async () => {
    const core = newCore({ autoStart: false });
    must(core.createSource({ name: 'web', kind: 'web', writeKey: 'wk_web_0123456789' }));
    const users = ['first', 'second', 'third', 'fourth'];
    const sent = must(core.sendMessages({ messages: users.map((userId) => ({ type: 'track' as const, call: { userId, event: 'Signed Up' }, source: 'web' })) }));
    const ids = sent.map((s) => s.message.id);
    // By filter, as History's Export with nothing selected: newest first.
    const json = must(core.exportMessages({ filter: {}, format: 'json' }));
    expect(json.text.trim().split('\n').map((l) => (JSON.parse(l) as { message: { id: number } }).message.id)).toEqual([...ids].reverse());

    const imported = must(core.importMessages({ text: json.text, source: 'web' }));
    expect(imported.imported.map((m) => m.importedFrom)).toEqual(ids);
    const copies = imported.imported.map((m) => must(core.getMessage({ id: m.id })).message);
    // New ids grow in the originals' order, and so do the times they were received.
    expect(copies.map((c) => c.id)).toEqual([...copies.map((c) => c.id)].sort((a, b) => a - b));
    expect(copies.map((c) => c.userId)).toEqual(users);
    const newest = must(core.listMessages({ limit: 4 })).items.map((m) => m.userId);
    expect(newest).toEqual([...users].reverse());
  });

  it('refuses the whole import at the first bad entry, naming its line or HAR entry, the field and the limit', async () => {
    const core = newCore({ autoStart: false });
    must(core.createSource({ name: 'web', kind: 'web', writeKey: 'wk_web_0123456789' }));
    const handlers = createCommandHandlers(core);
    const fail = async (input: Record<string, unknown>) => {
      const r = await dispatch(handlers, 'importMessages', input);
      if (r.ok) throw new Error('expected the import to be refused');
      return r.error;
    };
    const line = (call: Record<string, unknown>, type = 'track') => JSON.stringify({ message: { id: 1, type, call, sourceId: null }, deliveries: [], attempts: [] });
    const good = line({ userId: 'ada', event: 'Ok' });

    expect(await fail({ text: `${good}\n{not json\n` })).toMatchObject({ field: 'text', message: expect.stringMatching(/^text: line 2: not JSON \(/) });
    expect(await fail({ text: `${good}\n${line({ userId: 'ada' })}`, source: 'web' })).toMatchObject({ field: 'text', message: expect.stringMatching(/^text: line 2: call\.event/) });
    expect(await fail({ text: line({ userId: 'ada' }, 'shout'), source: 'web' })).toMatchObject({ message: expect.stringMatching(/^text: line 1: message\.type: must be one of track, /) });
    const har = { log: { version: '1.2', entries: [{ request: { postData: { text: JSON.stringify({ type: 'track', userId: 'a', event: 'E' }) } } }, { request: { method: 'POST' } }] } };
    expect(await fail({ text: JSON.stringify(har), source: 'web' })).toMatchObject({ message: 'text: log.entries[1].request.postData.text: missing: an entry must carry the request body' });
    // A pretty-printed HAR cut short is named where it breaks, at its end, not at its first line ('{').
    const cut = JSON.stringify(har, null, 2).split('\n').slice(0, 8).join('\n');
    expect(await fail({ text: cut, source: 'web' })).toMatchObject({ message: expect.stringMatching(/^text: the document: not JSON \(.* at line 8, column \d+\); give a JSON lines export/) });
    const curl = must(core.exportMessages({ filter: {}, format: 'curl' })).text;
    expect(curl.startsWith('#!/bin/sh\n')).toBe(true);
    expect(await fail({ text: curl, source: 'web' })).toMatchObject({ message: 'text: the document: a cURL script (the `curl` export) cannot be read back; export the messages as JSON lines or HAR and import that' });
    // JSON lines whose first line is cut short are still named by that line.
    expect(await fail({ text: `${good.slice(0, 30)}\n${good}`, source: 'web' })).toMatchObject({ message: expect.stringMatching(/^text: line 1: not JSON \(/) });
    expect(await fail({ text: good, source: 'nowhere' })).toMatchObject({ field: 'source', message: 'source: no source named or with id "nowhere"; the sources are "web"' });
    const many = Array.from({ length: IMPORT_LIMITS.messages + 1 }, () => good).join('\n');
    expect(await fail({ text: many, source: 'web' })).toMatchObject({ message: 'text: the document: 10,001 messages; one import takes at most 10,000 (export fewer)' });
    expect(await fail({ text: 'x'.repeat(IMPORT_LIMITS.textBytes + 1) })).toMatchObject({ field: 'text', message: expect.stringContaining('at most 16,777,216 bytes of UTF-8') });
    expect(await fail({ text: 'é'.repeat(IMPORT_LIMITS.textBytes / 2 + 1) })).toMatchObject({ field: 'text', message: expect.stringContaining('it is 16,777,218') });
    // Nothing of a refused import was stored.
    expect(must(core.listMessages({})).items).toEqual([]);
  });
});
