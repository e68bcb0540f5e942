/** Checks at the call (docs/behaviour.md §7/§11): required fields per type, types of fields, the 32 KiB limit. */
import { describe, expect, it } from 'vitest';
import { buildMessage, type BuildEnv } from '../../../main/client/build.js';
import { ClientError, type CallType } from '../../../main/client/index.js';

const NOW = Date.UTC(2026, 10, 22, 6, 22, 2, 954);
const env: BuildEnv = { now: NOW, newMessageId: () => 'generated-id', library: { name: 'hookbench-client', version: '9.9.9' } };
const build = (type: CallType, input: unknown) => buildMessage(type, input, env);

function refusal(type: CallType, input: unknown): ClientError {
  try {
    build(type, input);
  } catch (e) {
    if (e instanceof ClientError) return e;
    throw e;
  }
  throw new Error(`${type} was accepted: ${JSON.stringify(input)}`);
}

describe('client: required fields, checked at the call', () => {
  const cases: [CallType, unknown, string, string][] = [
    ['identify', { traits: { a: 1 } }, 'identify: userId or anonymousId is required', 'userId'],
    ['identify', { userId: '', anonymousId: '' }, 'identify: userId or anonymousId is required (userId and anonymousId are empty strings)', 'userId'],
    ['track', { userId: '', event: 'E' }, 'track: userId or anonymousId is required (userId is an empty string)', 'userId'],
    ['track', { userId: 'u1' }, 'track: event is required', 'event'],
    ['track', { userId: 'u1', event: '' }, 'track: event is required (it is an empty string)', 'event'],
    ['group', { userId: 'u1', groupId: '' }, 'group: groupId is required (it is an empty string)', 'groupId'],
    ['track', { event: 'E' }, 'track: userId or anonymousId is required', 'userId'],
    ['page', { name: 'Home' }, 'page: userId or anonymousId is required', 'userId'],
    ['screen', { name: 'Main' }, 'screen: userId or anonymousId is required', 'userId'],
    ['group', { userId: 'u1' }, 'group: groupId is required', 'groupId'],
    ['group', { groupId: 'g1' }, 'group: userId or anonymousId is required', 'userId'],
    ['alias', { previousId: 'anon' }, 'alias: userId is required', 'userId'],
    ['alias', { userId: 'u1' }, 'alias: previousId is required', 'previousId'],
    ['alias', { anonymousId: 'a', previousId: 'anon' }, 'alias: userId is required', 'userId'],
  ];
  it.each(cases)('%s %j → %s', (type, input, message, field) => {
    const e = refusal(type, input);
    expect(e.message).toBe(message);
    expect(e.code).toBe('missing_field');
    expect(e.field).toBe(field);
    expect(e.call).toBe(type);
  });

  it('accepts each type with its minimum', () => {
    expect(build('identify', { anonymousId: 'a1' }).message).toMatchObject({ type: 'identify', anonymousId: 'a1' });
    expect(build('track', { anonymousId: 'a1', event: 'E' }).message).toMatchObject({ type: 'track', event: 'E' });
    expect(build('page', { userId: 'u1' }).message).toMatchObject({ type: 'page', userId: 'u1' });
    expect(build('screen', { userId: 'u1' }).message).toMatchObject({ type: 'screen', userId: 'u1' });
    // group needs no event name
    expect(build('group', { anonymousId: 'a1', groupId: 'g1' }).message).toMatchObject({ type: 'group', groupId: 'g1' });
    expect(build('alias', { userId: 'u1', previousId: 'a1' }).message).toMatchObject({ type: 'alias', userId: 'u1', previousId: 'a1' });
  });

  it('refuses fields of the wrong type, naming them', () => {
    expect(refusal('track', { userId: 42, event: 'E' }).message).toBe('track: userId must be a string (got number 42)');
    expect(refusal('track', { userId: 'u1', event: 'E', properties: [1] }).message).toBe('track: properties must be an object (got an array)');
    expect(refusal('identify', { userId: 'u1', traits: new Map() }).message).toBe('identify: traits must be an object (got a Map)');
    expect(refusal('track', { userId: 'u1', event: 'E', context: new Date() }).field).toBe('context');
    expect(refusal('track', { userId: 'u1', event: 'E', integrations: 'all' }).field).toBe('integrations');
    expect(refusal('track', null).message).toBe('track: the message must be an object (got null)');
    expect(refusal('page', { userId: 'u1', properties: {}, traits: {} }).message).toMatch(/^page: give either properties or traits/);
    expect(refusal('track', { userId: 'u1', event: 'E', properties: { n: 1n } }).message).toMatch(/^track: the message cannot be serialised as JSON/);
  });

  it('refuses at the call what the server would refuse with the whole batch: nesting past 64 levels, and NaN or Infinity (sent as null)', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 70; i++) deep = { d: deep };
    const tooDeep = refusal('track', { userId: 'u1', event: 'E', properties: deep });
    expect(tooDeep).toMatchObject({ code: 'invalid_message', field: 'properties', limit: 64 });
    expect(tooDeep.message).toBe('track: properties nests 71 levels, over the limit of 64');
    expect(refusal('track', { userId: 'u1', event: 'E', properties: { n: NaN } })).toMatchObject({ message: 'track: properties.n is NaN, which JSON cannot hold (it would be sent as null)', field: 'properties.n' });
    expect(refusal('identify', { userId: 'u1', traits: { list: [1, Infinity] } }).field).toBe('traits.list[1]');
    expect(build('track', { userId: 'u1', event: 'E', properties: { n: Number.MAX_VALUE } }).message).toMatchObject({ properties: { n: Number.MAX_VALUE } });
  });

  it('refuses a circular value at the call, naming where it closes, instead of walking it for ever', () => {
    const p: Record<string, unknown> = { plan: 'pro' };
    p['self'] = p;
    const e = refusal('track', { userId: 'u', event: 'Circ', properties: p });
    expect(e).toMatchObject({ code: 'invalid_message', call: 'track', field: 'properties.self' });
    expect(e.message).toBe('track: the message cannot be serialised as JSON: properties.self refers back to properties: a circular structure');
    const list: unknown[] = [1];
    const traits = { deep: { list } };
    list.push(traits);
    expect(refusal('identify', { userId: 'u', traits }).message).toBe('identify: the message cannot be serialised as JSON: traits.deep.list[1] refers back to traits: a circular structure');
  });

  it('accepts the same object in two places (shared, not circular) and names a BigInt by its path', () => {
    const shared = { sku: 'a' };
    expect(JSON.parse(build('track', { userId: 'u', event: 'E', properties: { first: shared, second: [shared] } }).json)).toMatchObject({ properties: { first: { sku: 'a' }, second: [{ sku: 'a' }] } });
    expect(refusal('track', { userId: 'u', event: 'E', properties: { n: 1n } })).toMatchObject({
      message: 'track: the message cannot be serialised as JSON: properties.n is the BigInt 1n, which JSON has no form for (send it as a string)',
      field: 'properties.n',
    });
  });

  it('refuses values JSON would change or drop (Map, Set, functions, symbols, undefined in arrays, invalid Dates), naming each', () => {
    const at = (properties: unknown) => refusal('track', { userId: 'u', event: 'E', properties });
    expect(at({ m: new Map([[1, 2]]) })).toMatchObject({
      code: 'invalid_message',
      field: 'properties.m',
      message: 'track: properties.m is a Map, which JSON does not keep (it would be sent as {}); send a plain object or array',
    });
    expect(at({ tags: new Set(['a']) }).field).toBe('properties.tags');
    expect(at({ f: () => 1 }).message).toBe('track: properties.f is a function, which JSON cannot hold (the key would be dropped)');
    expect(at({ s: Symbol('x') }).message).toBe('track: properties.s is a symbol, which JSON cannot hold (the key would be dropped)');
    expect(at({ list: [1, undefined] }).message).toBe('track: properties.list[1] is undefined, which JSON cannot hold (it would be sent as null)');
    expect(at({ list: [() => 1] }).message).toBe('track: properties.list[0] is a function, which JSON cannot hold (it would be sent as null)');
    expect(at({ when: new Date(NaN) }).message).toBe('track: properties.when is an invalid Date (it would be sent as null)');
    expect(at({ bytes: new Uint8Array([1]) }).message).toMatch(/^track: properties\.bytes is a Uint8Array, which JSON does not keep \(it would be sent as \{"0":1\}\)/);
    expect(refusal('identify', { userId: 'u', context: { re: /x/ } }).field).toBe('context.re');
  });

  it('leaves out an object member that is undefined (it means absent) and sends a valid Date as its ISO string', () => {
    const { json } = build('track', { userId: 'u', event: 'E', properties: { a: undefined, plan: 'pro', at: new Date(Date.UTC(2020, 0, 1)) } });
    expect(JSON.parse(json).properties).toEqual({ plan: 'pro', at: '2020-01-01T00:00:00.000Z' });
  });

  it('refuses a lone surrogate where the server does (userId, anonymousId, messageId, event, a page or screen name), so that it cannot take its batch down', () => {
    const e = refusal('track', { userId: 'u\ud800', event: 'LS' });
    expect(e).toMatchObject({ code: 'invalid_message', call: 'track', field: 'userId' });
    expect(e.message).toBe('track: userId contains a lone surrogate (\\ud800 at position 1): not valid Unicode, so it cannot be stored or compared; send the whole character or drop it');
    expect(refusal('identify', { anonymousId: '\udc00' }).field).toBe('anonymousId');
    expect(refusal('track', { userId: 'u', event: 'E\ud800', messageId: 'm' }).field).toBe('event');
    expect(refusal('track', { userId: 'u', event: 'E', messageId: 'm\ud800' }).field).toBe('messageId');
    expect(refusal('page', { userId: 'u', name: '\ud800' }).field).toBe('name');
    expect(refusal('screen', { userId: 'u', name: '\ud800' }).field).toBe('name');
    // The server accepts one in free-form values and keys (and in previousId, groupId, category): so does the client.
    expect(build('track', { userId: 'u', event: 'E', properties: { '\udc00k': '\ud800' } }).json).toContain('"properties":{"\\udc00k":"\\ud800"}');
    expect(build('alias', { userId: 'u', previousId: '\ud800' }).message.previousId).toBe('\ud800');
    expect(build('track', { userId: '\ud83d\ude00', event: 'E' }).message.userId).toBe('😀');
  });

  it('refuses a key the call does not have (it would be dropped unsent), with the key most likely meant', () => {
    const typo = refusal('track', { userId: 'u', event: 'E', propertes: { plan: 'pro' } });
    expect(typo).toMatchObject({ code: 'invalid_message', call: 'track', field: 'propertes' });
    expect(typo.message).toBe('track: propertes is not a field of a track call (did you mean properties?)');
    expect(refusal('identify', { userID: 'u' }).message).toBe('identify: userID is not a field of an identify call (did you mean userId?)');
    expect(refusal('identify', { userId: 'u', properties: {} }).message).toBe('identify: properties is not a field of an identify call');
    expect(refusal('group', { userId: 'u', groupId: 'g', event: 'E' }).field).toBe('event');
    expect(refusal('track', { userId: 'u', event: 'E', type: 'identify' }).message).toBe('track: type says "identify" but this is a track call');
    expect(build('track', { userId: 'u', event: 'E', type: 'track' }).message.type).toBe('track');
  });

  it('sends an alias call\'s anonymousId (it was dropped)', () => {
    expect(build('alias', { userId: 'u1', previousId: 'anon', anonymousId: 'anon' }).message).toMatchObject({ type: 'alias', userId: 'u1', previousId: 'anon', anonymousId: 'anon' });
  });

  it('checks timestamps as the server does: ISO 8601 strings or Dates', () => {
    const e = refusal('track', { userId: 'u1', event: 'E', timestamp: 'March 7' });
    expect(e.field).toBe('timestamp');
    expect(e.message).toMatch(/^track: timestamp "March 7" is not an ISO 8601 date-time/);
    expect(refusal('track', { userId: 'u1', event: 'E', timestamp: new Date(NaN) }).message).toBe('track: timestamp is an invalid Date');
    expect(refusal('track', { userId: 'u1', event: 'E', timestamp: 17 }).field).toBe('timestamp');
    expect(build('track', { userId: 'u1', event: 'E', timestamp: '2026-01-02T03:04:05+01:00' }).message.timestamp).toBe('2026-01-02T02:04:05.000Z');
    expect(build('track', { userId: 'u1', event: 'E', timestamp: new Date(Date.UTC(2020, 0, 1)) }).message.timestamp).toBe('2020-01-01T00:00:00.000Z');
  });
});

describe('client: the queued message', () => {
  it('adds type, messageId, timestamp and context.library; keeps the call fields', () => {
    const { message, json, bytes } = build('track', {
      userId: 'u1',
      anonymousId: 'a1',
      event: 'Order Completed',
      properties: { total: 9.5 },
      context: { ip: '10.0.0.1' },
      integrations: { All: false, Webhooks: true },
    });
    expect(message).toEqual({
      type: 'track',
      messageId: 'generated-id',
      timestamp: '2026-11-22T06:22:02.954Z',
      userId: 'u1',
      anonymousId: 'a1',
      event: 'Order Completed',
      properties: { total: 9.5 },
      context: { library: { name: 'hookbench-client', version: '9.9.9' }, ip: '10.0.0.1' },
      integrations: { All: false, Webhooks: true },
    });
    expect(Object.keys(message)).toEqual(['type', 'messageId', 'timestamp', 'userId', 'anonymousId', 'event', 'properties', 'context', 'integrations']);
    expect(json).toBe(JSON.stringify(message));
    expect(bytes).toBe(Buffer.byteLength(json));
  });

  it('keeps a messageId given by the caller and a context.library of its own', () => {
    const { message } = build('identify', { userId: 'u1', messageId: 'mine', context: { library: { name: 'proxy', version: '1' } } });
    expect(message.messageId).toBe('mine');
    expect(message.context.library).toEqual({ name: 'proxy', version: '1' });
  });

  it('sends page traits (the Go name) as given, and no undefined keys', () => {
    const { json } = build('page', { userId: 'u1', name: 'Home', traits: { path: '/' }, category: undefined });
    expect(JSON.parse(json)).toEqual({
      type: 'page',
      messageId: 'generated-id',
      timestamp: '2026-11-22T06:22:02.954Z',
      userId: 'u1',
      name: 'Home',
      traits: { path: '/' },
      context: { library: { name: 'hookbench-client', version: '9.9.9' } },
    });
  });
});

describe('client: 32 KiB per call', () => {
  /** A track whose JSON is exactly `size` bytes. */
  const trackOfSize = (size: number) => {
    const base = build('track', { userId: 'u1', event: 'E', properties: { pad: '' } }).bytes;
    return { userId: 'u1', event: 'E', properties: { pad: 'x'.repeat(size - base) } };
  };

  it('accepts 32,768 bytes and refuses 32,769 with the size and the limit', () => {
    expect(build('track', trackOfSize(32_768)).bytes).toBe(32_768);
    const e = refusal('track', trackOfSize(32_769));
    expect(e.code).toBe('message_too_large');
    expect(e.size).toBe(32_769);
    expect(e.limit).toBe(32_768);
    expect(e.message).toBe('track: the message is 32769 bytes of JSON, over the limit of 32768 bytes (32 KiB) per call');
  });

  it('measures UTF-8 bytes, not characters', () => {
    const e = refusal('identify', { userId: 'u1', traits: { bio: 'é'.repeat(17_000) } });
    expect(e.size).toBeGreaterThan(34_000);
  });
});
