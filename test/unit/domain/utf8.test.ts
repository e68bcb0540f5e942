import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8, firstInvalidUtf8, invalidUtf8Error } from '../../../main/domain/utf8.js';
import { scanInvalidUtf8 } from '../../../main/contract/utf8Text.js';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

describe('finding invalid UTF-8 in a body', () => {
  it('well-formed text of any code points is valid, and agrees with a fatal TextDecoder on any bytes', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => firstInvalidUtf8(Buffer.from(s)) === -1));
    const fatal = new TextDecoder('utf-8', { fatal: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), (b) => {
        let valid = true;
        try {
          fatal.decode(b);
        } catch {
          valid = false;
        }
        return (firstInvalidUtf8(b) === -1) === valid;
      }),
      { numRuns: 2000 },
    );
  });

  it('names the first bad byte: a stray continuation, an overlong, a surrogate, a truncated sequence', () => {
    expect(firstInvalidUtf8(bytes('ab', [0x80]))).toBe(2);
    expect(firstInvalidUtf8(bytes('a', [0xc0, 0xaf]))).toBe(1);
    expect(firstInvalidUtf8(bytes([0xed, 0xa0, 0x80]))).toBe(0);
    expect(firstInvalidUtf8(bytes('é', [0xe2, 0x82]))).toBe(2);
  });

  it('the refusal names the field the byte stands in, the object whose key holds it, or the offset alone', () => {
    const inValue = bytes('{"batch":[{"type":"track"},{"messageId":"m', [0xff], '"}]}');
    expect(invalidUtf8Error(inValue, firstInvalidUtf8(inValue))).toEqual({ field: 'batch[1].messageId', message: 'batch[1].messageId: invalid UTF-8 at byte 42 (0xff); JSON must be UTF-8 (the value is refused rather than changed)' });
    const inKey = bytes('{"batch":[{"ty', [0xe2, 0x82], 'pe":"track"}]}');
    expect(invalidUtf8Error(inKey, firstInvalidUtf8(inKey))).toEqual({ field: 'batch[0]', message: 'batch[0]: a key has invalid UTF-8 at byte 14 (0xe2); JSON must be UTF-8' });
    const outside = bytes('{"a":1}', [0x80]);
    expect(invalidUtf8Error(outside, 7)).toEqual({ field: 'body', message: 'body: invalid UTF-8 at byte 7 (0x80); JSON must be UTF-8' });
  });
});

describe('the pure scan the renderer uses', () => {
  it('finds the byte the engine finds, and names the line and column (in UTF-16 units) an editor shows', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 24 }), (b) => scanInvalidUtf8(b) === firstInvalidUtf8(b)));
    const text = bytes('ok\n😀é', [0xff], 'x');
    expect(scanInvalidUtf8(text)).toBe(9);
    expect(decodeUtf8(text)).toMatchObject({ ok: false, line: 2, column: 4, message: 'invalid UTF-8 at byte 9 (0xff), line 2, column 4; the text must be UTF-8 (the byte is refused rather than replaced)' });
  });
});
