import { describe, expect, it } from 'vitest';
import { MESSAGE_SHAPES, MESSAGE_TYPES } from '../../../main/contract/message/messageShapes.js';
import { buildMessage } from '../../../main/domain/messages.js';

const receivedAt = Date.UTC(2026, 10, 22, 6, 22, 2, 954);
const opts = { receivedAt, newMessageId: () => 'generated-id' };

function build(type: Parameters<typeof buildMessage>[0], call: Record<string, unknown>, extra = {}) {
  const r = buildMessage(type, call, { ...opts, ...extra });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('the seven shapes, keys in the spec order (docs/behaviour.md §1)', () => {
  const cases: [Parameters<typeof buildMessage>[0], Record<string, unknown>, string[]][] = [
    ['page', { userId: 'u', properties: { path: '/' } }, ['version', 'type', 'userId', 'properties', 'timestamp', 'messageId']],
    ['screen', { userId: 'u', name: 'Home' }, ['version', 'type', 'userId', 'name', 'timestamp', 'context', 'messageId']],
    ['identify', { userId: 'u', traits: { plan: 'pro' } }, ['version', 'type', 'userId', 'traits', 'timestamp', 'messageId']],
    ['track', { userId: 'u', event: 'E' }, ['version', 'type', 'userId', 'event', 'properties', 'timestamp', 'messageId']],
    ['alias', { userId: 'new', previousId: 'old' }, ['version', 'type', 'Previous ID', 'User ID', 'timestamp', 'messageId']],
    ['group', { userId: 'u', groupId: 'g' }, ['version', 'type', 'groupId', 'userId', 'traits', 'timestamp', 'messageId']],
    ['delete', { userId: 'u' }, ['type', 'userId', 'timestamp', 'messageId']],
  ];
  it.each(cases)('%s', (type, call, keys) => {
    const m = build(type, call);
    expect(Object.keys(m.body)).toEqual(keys);
    expect(m.bytes.toString('utf8')).toBe(JSON.stringify(m.body));
    if (type === 'delete') expect(m.body).not.toHaveProperty('version');
    else expect(m.body['version']).toBe(1);
  });

  it('covers every message type', () => {
    expect(cases.map((c) => c[0]).sort()).toEqual([...MESSAGE_TYPES].sort());
    expect(Object.keys(MESSAGE_SHAPES).sort()).toEqual([...MESSAGE_TYPES].sort());
  });

  it('alias writes "Previous ID" and "User ID" and has no userId key', () => {
    const m = build('alias', { userId: 'new', previousId: 'old' });
    expect(m.body).toMatchObject({ 'Previous ID': 'old', 'User ID': 'new' });
    expect(m.body).not.toHaveProperty('userId');
    expect(m.body).not.toHaveProperty('previousId');
  });

  it('object members are {} when empty; screen context is always present', () => {
    expect(build('track', { userId: 'u', event: 'E' }).body['properties']).toEqual({});
    expect(build('identify', { userId: 'u' }).body['traits']).toEqual({});
    expect(build('group', { userId: 'u', groupId: 'g' }).body['traits']).toEqual({});
    expect(build('screen', { userId: 'u' }).body['context']).toEqual({});
  });

  it('page accepts traits (the Go client) as properties', () => {
    expect(build('page', { userId: 'u', traits: { url: 'https://x' } }).body['properties']).toEqual({ url: 'https://x' });
  });

  it('page name and category come after the core keys', () => {
    const m = build('page', { userId: 'u', name: 'Pricing', category: 'Docs' });
    expect(Object.keys(m.body)).toEqual(['version', 'type', 'userId', 'properties', 'timestamp', 'messageId', 'name', 'category']);
  });

  it('only anonymousId: userId omitted (not null), anonymousId added', () => {
    const m = build('track', { anonymousId: 'a1', event: 'E' });
    expect(m.body).not.toHaveProperty('userId');
    expect(m.body['anonymousId']).toBe('a1');
    expect(m.userId).toBeNull();
  });

  it('context is added whenever the call carried one, and ingest fills context.ip', () => {
    expect(build('track', { userId: 'u', event: 'E', context: { locale: 'en' } }).body['context']).toEqual({ locale: 'en' });
    expect(build('track', { userId: 'u', event: 'E' }, { clientIp: '10.0.0.9' }).body['context']).toEqual({ ip: '10.0.0.9' });
    expect(build('track', { userId: 'u', event: 'E', context: { ip: '1.2.3.4' } }, { clientIp: '10.0.0.9' }).body['context']).toEqual({ ip: '1.2.3.4' });
  });

  it('keeps a client messageId, generates one when absent', () => {
    expect(build('track', { userId: 'u', event: 'E', messageId: 'mine' }).messageId).toBe('mine');
    expect(build('track', { userId: 'u', event: 'E' }).messageId).toBe('generated-id');
  });

  it('timestamps: absent → receipt time; any ISO 8601 → UTC with milliseconds', () => {
    expect(build('track', { userId: 'u', event: 'E' }).body['timestamp']).toBe('2026-11-22T06:22:02.954Z');
    expect(build('track', { userId: 'u', event: 'E', timestamp: '2020-01-02T03:04:05+02:00' }).body['timestamp']).toBe('2020-01-02T01:04:05.000Z');
  });

  it('unknown keys of SDK traffic are ignored, not delivered', () => {
    const m = build('track', { userId: 'u', event: 'E', sentAt: '2026-11-22T06:22:02.954Z', _metadata: {}, library: 'y' });
    expect(m.body).not.toHaveProperty('sentAt');
    expect(m.body).not.toHaveProperty('_metadata');
  });
});

describe('invalid calls: the error names the field and the rule', () => {
  const refused = (type: Parameters<typeof buildMessage>[0], call: Record<string, unknown>, extra = {}) => {
    const r = buildMessage(type, call, { ...opts, ...extra });
    if (r.ok) throw new Error('expected a refusal');
    return r.error;
  };

  it('missing userId and anonymousId', () => {
    expect(refused('track', { event: 'E' })).toMatchObject({ code: 'missing_identity', field: 'userId' });
  });
  it('userId or anonymousId sent as an empty string counts as none, and the refusal says it was sent empty, not left out', () => {
    expect(refused('track', { event: 'E', userId: '' })).toMatchObject({ code: 'missing_identity', field: 'userId', message: 'userId: a track call needs userId or anonymousId (userId is an empty string)' });
    expect(refused('track', { event: 'E', userId: '', anonymousId: '' })).toMatchObject({ message: 'userId: a track call needs userId or anonymousId (userId and anonymousId are empty strings)' });
    expect(refused('track', { event: 'E' })).toMatchObject({ message: 'userId: a track call needs userId or anonymousId' });
  });
  it('track without event', () => {
    expect(refused('track', { userId: 'u' })).toMatchObject({ code: 'missing_field', field: 'event', message: 'event: is required' });
  });
  it('group without groupId', () => {
    expect(refused('group', { userId: 'u' })).toMatchObject({ code: 'missing_field', field: 'groupId' });
  });
  it('alias without previousId, or without userId', () => {
    expect(refused('alias', { userId: 'u' })).toMatchObject({ code: 'missing_field', field: 'previousId' });
    expect(refused('alias', { anonymousId: 'a', previousId: 'p' })).toMatchObject({ code: 'missing_field', field: 'userId' });
  });
  it('an invalid timestamp', () => {
    const e = refused('track', { userId: 'u', event: 'E', timestamp: 'March 7' });
    expect(e).toMatchObject({ code: 'invalid_timestamp', field: 'timestamp' });
    expect(e.message).toContain('"March 7" is not an ISO 8601 date-time');
  });
  it('properties that are not an object', () => {
    expect(refused('track', { userId: 'u', event: 'E', properties: [1] }).message).toBe('properties: must be an object (got an array)');
  });
  it('a call over 32 KiB: which limit, which value', () => {
    const e = refused('track', { userId: 'u', event: 'E', properties: { blob: 'x'.repeat(33_000) } }, { fieldPrefix: 'batch[3]' });
    expect(e.code).toBe('message_too_large');
    expect(e.limit).toBe(32_768);
    expect(e.message).toMatch(/^batch\[3\]: \d+ bytes > 32768$/);
  });
  it('strict mode catches a misspelt field with a hint', () => {
    const e = refused('track', { userid: 'u', event: 'E' }, { strict: true });
    expect(e).toMatchObject({ code: 'unknown_field', field: 'userid' });
    expect(e.message).toContain('did you mean "userId"?');
  });
  it('a field prefix is carried into the error', () => {
    expect(refused('track', { userId: 'u' }, { fieldPrefix: 'batch[2]' })).toMatchObject({ field: 'batch[2].event' });
  });
});
