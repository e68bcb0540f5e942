import { describe, expect, it } from 'vitest';
import { visibleParts, visibleString } from '../../../renderer/src/lib/visibleText.js';

describe('names with hidden characters', () => {
  it('a right-to-left override is shown as what it is, so "Order \\u202Edetelpmoc" never reads "Order completed"', () => {
    expect(visibleString('Order \u202Edetelpmoc')).toBe('Order ⟨U+202E⟩detelpmoc');
    expect(visibleParts('Order \u202Edetelpmoc')).toEqual(['Order ', { code: 'U+202E', name: 'right-to-left override' }, 'detelpmoc']);
  });

  it('zero-width, isolate, control characters and the BOM are shown too; ordinary text of any script is left alone', () => {
    expect(visibleString('ad\u200bmin')).toBe('ad⟨U+200B⟩min');
    expect(visibleString('\u2066u1\u2069')).toBe('⟨U+2066⟩u1⟨U+2069⟩');
    expect(visibleString('a\u0000b\tc\u0085')).toBe('a⟨U+0000⟩b⟨U+0009⟩c⟨U+0085⟩');
    expect(visibleString('\ufeffid')).toBe('⟨U+FEFF⟩id');
    for (const plain of ['Signed Up', 'שלום', 'مرحبا', 'ñandú 用户 😀', '']) expect(visibleParts(plain)).toEqual([plain]);
  });
});
