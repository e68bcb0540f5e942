import { describe, expect, it } from 'vitest';
import { newMessageId } from '../../../main/ingestion/messageIds.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('generated messageIds', () => {
  it('are UUID version 7 (RFC 9562) carrying the time in ms in their first 48 bits', () => {
    const at = Date.parse('2026-11-22T12:00:00.123Z');
    const id = newMessageId(at);
    expect(id).toMatch(UUID_V7);
    expect(parseInt(id.replaceAll('-', '').slice(0, 12), 16)).toBe(at);
  });

  it('sort in the order they were made (so the dedupe index grows at its end), and never repeat', () => {
    const start = Date.parse('2026-11-22T12:00:00.000Z');
    const ids = Array.from({ length: 2000 }, (_, i) => newMessageId(start + Math.floor(i / 10)));
    for (let i = 10; i < ids.length; i += 10) expect(ids[i - 1]! < ids[i]!).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
