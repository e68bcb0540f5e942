/** The one masking rule (docs/behaviour.md §9), case by case: what is a secret and how answers show it. */
import { describe, expect, it } from 'vitest';
import { redactUrlCredentials } from '../../../main/domain/export/redaction.js';
import { isCredentialMember, isCredentialName, isCredentialParam, maskCall, maskUrl, redactJsonCredentials, unmaskUrl } from '../../../main/domain/secrets.js';

describe('credential names', () => {
  it.each(['Authorization', 'Cookie', 'X-Api-Key', 'apikey', 'X-Access-Key', 'X-Session-Id', 'X-Csrf-Token', 'X-Auth', 'Write-Key', 'client_secret', 'X-Password', 'X-Credential'])('%s is one (headers and parameters)', (name) => {
    expect(isCredentialName(name)).toBe(true);
    expect(isCredentialParam(name)).toBe(true);
  });
  it.each(['Content-Language', 'X-Env', 'page', 'keep', 'X-Signature-Version'])('%s is not', (name) => {
    expect(isCredentialName(name)).toBe(false);
    expect(isCredentialParam(name)).toBe(false);
  });
  it('key, code and sig are credentials as query parameters only', () => {
    for (const name of ['key', 'code', 'SIG']) expect([isCredentialName(name), isCredentialParam(name)]).toEqual([false, true]);
    expect(isCredentialParam('keyword')).toBe(false);
  });
  it.each(['writeKey', 'WriteKey', 'write_key', 'WRITE-KEY', 'authorization'])('the call member %s is one', (name) => expect(isCredentialMember(name)).toBe(true));
  it.each(['token', 'write', 'key', 'writeKeys'])('the call member %s is the user’s data', (name) => expect(isCredentialMember(name)).toBe(false));
});

describe('URLs', () => {
  it.each([
    ['https://h/x', 'https://h/x'],
    ['https://user:pass@h/x', 'https://user:••••@h/x'],
    ['https://tok_123@h/x', 'https://to••••@h/x'],
    ['https://h/x?api_key=abcdef123&page=2#frag', 'https://h/x?api_key=ab••••&page=2#frag'],
    ['https://h/x?Token=abc&key=AIzaSy0123&code=xyz987==&sig=s1g', 'https://h/x?Token=••••&key=AI••••&code=xy••••&sig=••••'],
    ['https://h/x?api%5Fkey=abcdef&flag&=v', 'https://h/x?api%5Fkey=ab••••&flag&=v'],
    ['https://u:p@h/x?access_key=abcdefgh', 'https://u:••••@h/x?access_key=ab••••'],
  ])('%s is shown as %s', (url, shown) => expect(maskUrl(url)).toBe(shown));

  it('exports hide the same parts as <redacted>', () => {
    expect(redactUrlCredentials('https://u:p@h/x?token=t&b=2#f')).toBe('https://u:<redacted>@h/x?token=<redacted>&b=2#f');
    expect(redactUrlCredentials('https://h/x?key=k&code=c')).toBe('https://h/x?key=<redacted>&code=<redacted>');
  });

  it('a URL sent back with its masked parts as shown gets them back, also with the rest edited', () => {
    const stored = 'https://ada:pass_1234567@h/hook?api_key=KEY_1234567&v=1&token=T1&token=T2';
    const shown = maskUrl(stored);
    expect(unmaskUrl(shown, stored)).toBe(stored);
    expect(unmaskUrl(shown.replace('/hook?', '/other?').replace('v=1', 'v=2'), stored)).toBe('https://ada:pass_1234567@h/other?api_key=KEY_1234567&v=2&token=T1&token=T2');
    expect(unmaskUrl('https://h/new', stored)).toBe('https://h/new');
    // A mask that is not the stored value's stays (the caller refuses it).
    expect(unmaskUrl(shown.replace('KE••••', 'XY••••'), stored)).toContain('api_key=XY••••');
    expect(unmaskUrl(shown.replace('api_key', 'apikey'), stored)).toContain('apikey=KE••••');
  });
});

describe('write keys in calls', () => {
  it('the ingest log preview shows each credential member as its edges, however the name is spelled or escaped', () => {
    const key = 'wk_0123456789';
    const text = `{"write\\u004bey":"${key}","WriteKey":"${key}","write_key":"${key}","properties":{"authorization":"${key}","token":"push"},"writeKey":"${key.slice(0, 6)}`;
    const shown = redactJsonCredentials(text);
    expect(shown).not.toContain(key);
    expect(shown.match(/wk_…89/g)).toHaveLength(4);
    expect(shown).toContain('"token":"push"');
    expect(shown.endsWith('"writeKey":"***')).toBe(true);
  });

  it('a call keeps its data and masks its credential members at any depth', () => {
    const call = { userId: 'u1', WriteKey: 'wk_0123456789', context: { write_key: 'wk_0123456789', device: { token: 'push_token' } }, list: [{ authorization: 'Bearer abc' }] };
    expect(maskCall(call)).toEqual({ userId: 'u1', WriteKey: 'wk••••', context: { write_key: 'wk••••', device: { token: 'push_token' } }, list: [{ authorization: 'Be••••' }] });
    const plain = { userId: 'u1', properties: { plan: 'pro' } };
    expect(maskCall(plain)).toBe(plain);
  });
});
