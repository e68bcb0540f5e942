import { describe, expect, it } from 'vitest';
import { MESSAGE_TYPES } from '../../../main/contract/message/messageShapes';
import { callBytes as engineCallBytes } from '../../../main/store/storedJson';
import { callBytes, formFields, formKeyOfServerField, keepsAcrossTypes, parseRaw, validateCall } from '../../../renderer/src/lib/composeModel';
import { EXAMPLES } from '../../../renderer/src/lib/composeExamples';
import { useCompose } from '../../../renderer/src/stores/compose';

describe('the composer form, generated from the shape table', () => {
  it('labels each type’s fields as the shape table does', () => {
    expect(formFields('track').map((f) => f.label)).toEqual(['User ID', 'Anonymous ID', 'Event', 'Properties', 'Context', 'Timestamp']);
    expect(formFields('group').map((f) => f.label)).toEqual(['User ID', 'Anonymous ID', 'Group ID', 'Traits', 'Context', 'Timestamp']);
    expect(formFields('alias').map((f) => [f.key, f.label])).toEqual([
      ['userId', 'User ID'],
      ['previousId', 'Previous ID'],
      ['context', 'Context'],
      ['timestamp', 'Timestamp'],
    ]);
    expect(formFields('page').map((f) => f.label)).toContain('Name');
    expect(formFields('delete').map((f) => f.label)).toEqual(['User ID', 'Timestamp']);
  });

  it('every example is valid for its type', () => {
    for (const type of MESSAGE_TYPES) expect(validateCall(type, EXAMPLES[type])).toEqual([]);
  });

  it('names the field of each problem', () => {
    expect(validateCall('track', { userId: 'u' }).map((p) => p.message)).toEqual(['Event: is required']);
    expect(validateCall('identify', {}).map((p) => p.message)).toEqual(['User ID or Anonymous ID: one of them is required']);
    expect(validateCall('alias', { previousId: 'a' }).map((p) => p.message)).toEqual(['User ID: is required for an alias call']);
    expect(validateCall('track', { userId: 'u', event: 'E', timestamp: 'March 7' }).map((p) => p.key)).toEqual(['timestamp']);
    const big = { userId: 'u', event: 'E', properties: { blob: 'x'.repeat(33_000) } };
    expect(callBytes(big)).toBeGreaterThan(32_768);
    expect(validateCall('track', big).map((p) => p.key)).toEqual(['call']);
    // The size the composer says is the engine's: the call's JSON, the type apart (a call at the limit is not refused here).
    const example = { userId: 'u1', event: 'Order Completed', properties: { total: 42, currency: 'EUR' } };
    expect(callBytes(example)).toBe(engineCallBytes(example));
    const atLimit = { userId: 'u', event: 'E', properties: { blob: '' } };
    atLimit.properties.blob = 'x'.repeat(32_768 - JSON.stringify(atLimit).length);
    expect(validateCall('track', atLimit)).toEqual([]);
  });

  it('maps server fields to form fields, keeps unknown keys across types, and parses raw JSON', () => {
    expect(formKeyOfServerField('track', 'event')).toBe('event');
    expect(formKeyOfServerField('alias', 'Previous ID')).toBe('previousId');
    expect(keepsAcrossTypes({ userId: 'u', event: 'E', messageId: 'm' }, 'track', 'identify')).toEqual({ userId: 'u', messageId: 'm' });
    expect(parseRaw('{"type":"page","userId":"u"}')).toEqual({ ok: true, type: 'page', call: { userId: 'u' } });
    expect(parseRaw('[1]').ok).toBe(false);
    expect(parseRaw('{"type":"nope"}').ok).toBe(false);
    // Read as the API reads a body: nothing silently dropped or changed.
    expect(parseRaw('{"type":"track","userId":"a","userId":"b"}')).toEqual({ ok: false, message: 'The key "userId" appears twice in one object (first at line 1, column 17): give it once (line 1, column 30)' });
    expect(parseRaw('{"type":"track","properties":{"id":9007199254740993}}')).toMatchObject({ ok: false, message: expect.stringMatching(/^Properties\.id: 9007199254740993 would be delivered as 9007199254740992 /) });
  });
});

describe('the composer’s object fields (Properties, Traits, Context)', () => {
  it('name a key given twice or a number a double does not keep, and leave the call as it was instead of changing it silently', () => {
    const compose = useCompose.getState();
    compose.setType('track');
    compose.setObjectText('properties', '{"total": 42.5}');
    expect(useCompose.getState().call['properties']).toEqual({ total: 42.5 });

    useCompose.getState().setObjectText('properties', '{"total": 42.5, "total": 43}');
    expect(useCompose.getState().objectTexts['properties']).toEqual({ text: '{"total": 42.5, "total": 43}', error: 'the key "total" appears twice in one object (first at line 1, column 2): give it once (line 1, column 17)' });
    expect(useCompose.getState().call['properties']).toEqual({ total: 42.5 });

    useCompose.getState().setObjectText('properties', '{"id": 12345678901234567890}');
    expect(useCompose.getState().objectTexts['properties']!.error).toMatch(/^id: 12345678901234567890 would be delivered as 12345678901234567000/);
    expect(useCompose.getState().call['properties']).toEqual({ total: 42.5 });
  });
});
