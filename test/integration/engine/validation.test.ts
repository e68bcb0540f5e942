import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../main/contract/commands.js';
import { must, newCore, newReceiver, settled } from '../../helpers/harness.js';
import { status } from '../../helpers/receiver.js';

function refusal(result: { ok: boolean; error?: { code: string; message: string; field?: string; limit?: number } }) {
  if (result.ok) throw new Error('expected a refusal');
  return result.error!;
}

const url = 'http://127.0.0.1:9/hook';

describe('destination configuration: every violation is a clear error and nothing is saved', () => {
  it.each([
    [{ name: 'd', webhooks: Array.from({ length: 6 }, () => ({ url })) }, 'webhooks[5]', 'webhooks[5]: at most 5 webhooks (got 6)'],
    [{ name: 'd', url: 'ftp://x/y' }, 'url', 'url: must be an absolute http:// or https:// URL'],
    [{ name: 'd', url: '/relative' }, 'url', 'url: must be an absolute http:// or https:// URL'],
    [{ name: 'd', webhooks: [{ url, headers: { Host: 'x' } }] }, 'webhooks[0].headers.Host', 'webhooks[0].headers.Host: header "Host" is set by Hookbench and cannot be configured'],
    [{ name: 'd', webhooks: [{ url, headers: { 'X-Signature': 'x' } }] }, 'webhooks[0].headers.X-Signature', 'cannot be configured'],
    [{ name: 'd', webhooks: [{ url, headers: { 'Proxy-Authorization': 'x' } }] }, 'webhooks[0].headers.Proxy-Authorization', 'cannot be configured'],
    [{ name: 'd', webhooks: [{ url, headers: { 'Bad Name': 'x' } }] }, 'webhooks[0].headers.Bad Name', 'is not a valid HTTP header name'],
    [{ name: 'd', webhooks: [{ url, headers: { 'X-A': 'a\r\nInjected: 1' } }] }, 'webhooks[0].headers.X-A', 'may not contain CR, LF or NUL'],
    [{ name: 'd', webhooks: [{ url, headers: { A: '1', B: '2', C: '3', D: '4', E: '5', F: '6' } }] }, 'webhooks[0].headers', 'at most 5 headers per webhook (got 6)'],
    [{ name: 'd', enabled: true }, 'enabled', 'enabled: a destination cannot be enabled without at least one webhook'],
    [{ name: 'd', url, timeoutMs: 0 }, 'timeoutMs', 'timeoutMs'],
    [{ name: 'd', url, caFile: '/nonexistent/root.pem' }, 'caFile', 'caFile: /nonexistent/root.pem does not exist'],
    [{ name: 'd', url, webhooks: [{ url }] }, 'url', 'give either url or webhooks, not both'],
    [{ name: '', url }, 'name', 'name: must not be empty'],
    [{ name: 'd', url, sources: ['nope'] }, 'sources[0]', 'sources[0]: no source named or with id "nope"'],
    [{ name: 'd', url, colour: 'red' }, 'colour', 'colour: unknown field'],
    [{ name: 'd', url, secret: 's3cret' }, 'secret', 'secret: unknown field (did you mean "sharedSecret"?)'],
  ])('%j → %s', (input, field, message) => {
    const core = newCore();
    const e = refusal(core.createDestination(input as never));
    if (field !== undefined) expect(e.field).toBe(field);
    expect(e.message).toContain(message);
    expect(must(core.listDestinations()).items).toEqual([]);
  });

  it("an update names the field it changed: taking every webhook from an enabled destination is the webhooks' problem, turning one without webhooks on is enabled's", () => {
    const core = newCore();
    const d = must(core.createDestination({ name: 'd', url, enabled: true }));
    expect(refusal(core.updateDestination({ id: d.id, patch: { webhooks: [] } }))).toMatchObject({
      field: 'patch.webhooks',
      message: 'patch.webhooks: an enabled destination needs at least one webhook (set enabled to false in the same patch to keep none)',
    });
    must(core.updateDestination({ id: d.id, patch: { webhooks: [], enabled: false } }));
    expect(refusal(core.updateDestination({ id: d.id, patch: { enabled: true } })).field).toBe('patch.enabled');
  });

  it('a source that matches none is refused naming the sources there are, by name, never by write key', () => {
    const core = newCore();
    must(core.createSource({ name: 'backend', kind: 'server', writeKey: 'wk_secret_backend' }));
    must(core.createSource({ name: 'web', kind: 'web' }));
    const words = '"bakend"; the sources are "backend", "web"';
    expect(refusal(core.sendMessage({ type: 'track', source: 'bakend', call: { userId: 'u', event: 'E' } }))).toMatchObject({ code: 'not_found', field: 'source', message: `source: no source named or with id ${words}` });
    expect(refusal(core.createDestination({ name: 'd', url, sources: ['bakend'] }))).toMatchObject({ field: 'sources[0]', message: `sources[0]: no source named or with id ${words}` });
    expect(refusal(core.createAudience({ source: 'bakend', name: 'VIP', members: ['u'] }))).toMatchObject({ field: 'source', message: `source: no source named or with id ${words}` });
    expect(JSON.stringify(refusal(core.createDeletionRequest({ userId: 'u', sources: ['bakend'] })))).not.toContain('wk_secret_backend');
  });

  it('a destination that matches none is refused naming the destinations there are, as a source is', () => {
    const core = newCore();
    expect(refusal(core.sendMessage({ type: 'track', destinations: ['Hooks'], call: { userId: 'u', event: 'E' } }))).toMatchObject({
      code: 'not_found',
      field: 'destinations[0]',
      message: 'destinations[0]: no destination named or with id "Hooks"; there is no destination yet',
    });
    must(core.createDestination({ name: 'Hooks', url }));
    must(core.createDestination({ name: 'Audit', url }));
    expect(refusal(core.sendMessage({ type: 'track', destinations: ['Hooks', 'Hoks'], call: { userId: 'u', event: 'E' } }))).toMatchObject({
      code: 'not_found',
      field: 'destinations[1]',
      message: 'destinations[1]: no destination named or with id "Hoks"; the destinations are "Audit", "Hooks"',
    });
  });

  it('the webhook limit error carries the limit', () => {
    const core = newCore();
    const e = refusal(core.createDestination({ name: 'd', webhooks: Array.from({ length: 6 }, () => ({ url })) }));
    expect(e.limit).toBe(5);
  });

  it('a duplicate name is a conflict; a failed update leaves the destination as it was', () => {
    const core = newCore();
    const d = must(core.createDestination({ name: 'a', url }));
    must(core.createDestination({ name: 'b', url }));
    expect(refusal(core.createDestination({ name: 'a', url }))).toMatchObject({ code: 'conflict', field: 'name' });
    expect(refusal(core.updateDestination({ id: d.id, patch: { name: 'b' } }))).toMatchObject({ code: 'conflict', field: 'patch.name' });
    expect(refusal(core.updateDestination({ id: d.id, patch: { webhooks: [{ url: 'nope' }] } }))).toMatchObject({ field: 'patch.webhooks[0].url' });
    expect(must(core.listDestinations()).items.find((x) => x.id === d.id)).toMatchObject({ name: 'a', webhooks: [{ url, headers: {} }] });
  });

  it('`url` is shorthand for one webhook; defaults are the spec defaults', () => {
    const core = newCore();
    const d = must(core.createDestination({ name: 'd', url }));
    expect(d).toMatchObject({ enabled: false, webhooks: [{ url, headers: {} }], timeoutMs: 5000, sharedSecret: null });
    expect(d.retry).toEqual({ schedule: [5000, 30000, 120000, 600000, 1800000, 3600000, 7200000], windowMs: 14_400_000, jitter: 0.2 });
  });
});

describe('sendMessage: bad input is refused with the message the user sees', () => {
  it.each([
    [{ type: 'tarck', call: { userId: 'u' } }, 'type', 'type: must be one of track, page, screen, identify, group, alias, delete'],
    [{ type: 'track', call: { userId: 'u' } }, 'event', 'event: is required'],
    [{ type: 'identify', call: {} }, 'userId', 'userId: an identify call needs userId or anonymousId'],
    [{ type: 'track', call: { userId: 'u', event: 'E', timestamp: 'yesterday' } }, 'timestamp', 'timestamp: "yesterday" is not an ISO 8601 date-time'],
    [{ type: 'track', call: { userId: 'u', event: 'E', properties: { x: 'y'.repeat(40_000) } } }, undefined, 'bytes > 32768'],
    [{ type: 'track', call: { userId: 'u', event: 'E' }, destinations: ['missing'] }, 'destinations[0]', 'no destination named or with id "missing"'],
    [{ type: 'track', call: { userId: 'u', event: 'E', evnt: 'x' }, strict: true }, 'evnt', 'evnt: unknown field for a track call (did you mean "event"?)'],
  ])('%j', (input, field, message) => {
    const core = newCore();
    const e = refusal(core.sendMessage(input as never));
    if (field !== undefined) expect(e.field).toBe(field);
    expect(e.message).toContain(message);
    expect(must(core.listMessages({})).items).toEqual([]);
  });

  it('a call over 32 KiB is refused as too large before anything else wrong with it, and one just under is stored whole', () => {
    const core = newCore();
    const big = { userId: 'u', event: 'E', timestamp: 'yesterday', properties: { x: 'y'.repeat(40_000) } };
    const e = refusal(core.sendMessage({ type: 'track', call: big }));
    expect(e).toMatchObject({ code: 'message_too_large', limit: 32_768 });
    expect(e.message).toBe(`call: ${Buffer.byteLength(JSON.stringify(big))} bytes > 32768`);
    const inBatch = refusal(core.sendMessages({ messages: [{ type: 'track', call: { userId: 'u', event: 'E' } }, { type: 'track', call: big }] }));
    expect(inBatch).toMatchObject({ code: 'message_too_large', field: 'messages[1].call' });

    // 32,768 bytes exactly: at the limit, accepted; the call reads back as it was sent.
    const padding = 32_768 - Buffer.byteLength(JSON.stringify({ userId: 'u', event: 'E', properties: { x: '' } }));
    const atLimit = { userId: 'u', event: 'E', properties: { x: 'é'.repeat(padding / 2) } };
    expect(Buffer.byteLength(JSON.stringify(atLimit))).toBe(32_768);
    const sent = must(core.sendMessage({ type: 'track', call: atLimit }));
    expect(must(core.getMessage({ id: sent.message.id })).message.call).toEqual(atLimit);
    const over = { ...atLimit, properties: { x: `${atLimit.properties.x}a` } };
    expect(refusal(core.sendMessage({ type: 'track', call: over }))).toMatchObject({ code: 'message_too_large', value: 32_769 });
  });

  it('a message routed nowhere is stored as filtered with the reason', () => {
    const core = newCore();
    const sent = must(core.sendMessage({ type: 'track', call: { userId: 'u', event: 'E' } }));
    expect(sent.message).toMatchObject({ status: 'filtered', statusReason: 'no destination is enabled' });
  });

  it('a (source, messageId) seen again within 24 h is stored as filtered: duplicate messageId; after 24 h it is new', async () => {
    const rx = await newReceiver(status(200));
    const core = newCore();
    must(core.createSource({ name: 'backend', kind: 'server' }));
    must(core.createDestination({ name: 'd', url: rx.url, enabled: true, sources: ['backend'] }));
    const call = { userId: 'u', event: 'E', messageId: 'same' };
    const first = must(core.sendMessage({ type: 'track', call, source: 'backend' }));
    expect((await settled(core, first.message.id)).message.status).toBe('delivered');
    const dup = must(core.sendMessage({ type: 'track', call, source: 'backend' }));
    expect(dup.message).toMatchObject({ status: 'filtered', statusReason: 'duplicate messageId' });
    must(await core.advanceClock({ ms: 24 * 3_600_000 + 1 }));
    const later = must(core.sendMessage({ type: 'track', call, source: 'backend' }));
    expect((await settled(core, later.message.id)).message.status).toBe('delivered');
    expect(rx.captured).toHaveLength(2);
  });

  it('routes through a source to its enabled connected destinations only', async () => {
    const rx = await newReceiver(status(200));
    const core = newCore();
    must(core.createSource({ name: 'web', kind: 'web' }));
    must(core.createSource({ name: 'other', kind: 'server' }));
    must(core.createDestination({ name: 'connected', url: rx.url, enabled: true, sources: ['web'] }));
    must(core.createDestination({ name: 'elsewhere', url: rx.url, enabled: true, sources: ['other'] }));
    must(core.createDestination({ name: 'off', url: rx.url, enabled: false, sources: ['web'] }));
    const sent = must(core.sendMessage({ type: 'page', call: { userId: 'u' }, source: 'web' }));
    expect(sent.deliveries.map((d) => d.destinationName)).toEqual(['connected']);
    const none = must(core.sendMessage({ type: 'page', call: { userId: 'u', integrations: { All: false } }, source: 'web' }));
    expect(none.message).toMatchObject({ status: 'filtered', statusReason: 'integrations.All=false and Webhooks not enabled' });
  });

  it('paged listing with a cursor, newest first, and search', () => {
    const core = newCore();
    for (let i = 0; i < 5; i++) must(core.sendMessage({ type: 'track', call: { userId: `user-${i}`, event: 'E' } }));
    const page1 = must(core.listMessages({ limit: 2 }));
    expect(page1.items.map((m) => m.userId)).toEqual(['user-4', 'user-3']);
    const page2 = must(core.listMessages({ limit: 2, cursor: page1.nextCursor }));
    expect(page2.items.map((m) => m.userId)).toEqual(['user-2', 'user-1']);
    const page3 = must(core.listMessages({ limit: 2, cursor: page2.nextCursor }));
    expect(page3).toMatchObject({ nextCursor: null });
    expect(must(core.listMessages({ text: 'user-3' })).items).toHaveLength(1);
  });
});

describe('sendMessage and sendMessages refuse only with the codes docs/api.md lists for them', () => {
  const deep = { userId: 'u', event: 'E', properties: JSON.parse(`${'['.repeat(70)}${']'.repeat(70)}`) as unknown };
  it.each([
    ['a call nesting past 64 levels', { type: 'track', call: deep }],
    ['an unknown field, strict', { type: 'track', call: { userId: 'u', event: 'E', evnt: 'x' }, strict: true }],
    ['a timestamp that is no date', { type: 'track', call: { userId: 'u', event: 'E', timestamp: 'yesterday' } }],
  ] as const)('%s', (_, input) => {
    const core = newCore();
    for (const [name, answer] of [
      ['sendMessage', core.sendMessage(input as never)],
      ['sendMessages', core.sendMessages({ messages: [input as never] })],
    ] as const) {
      expect(answer.ok, name).toBe(false);
      if (!answer.ok) expect(COMMANDS[name].errors, `${name}: ${answer.error.code}`).toContain(answer.error.code);
    }
  });
});
