/**
 * Text a person gave as bytes is decoded only when it is UTF-8 (pure, for the renderer and the main process
 * alike): a bad byte is refused with where it is, never replaced by U+FFFD, which would import or store a value
 * the file did not hold. The caller decodes valid bytes with its platform's decoder.
 */

/** The byte offset of the first byte that is not part of a well-formed UTF-8 sequence, or -1. */
export function scanInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    // Lead byte: its sequence length and the allowed range of the second byte (no overlongs, no surrogates).
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k];
      if (c === undefined) return i;
      if (k === 1 ? c < low || c > high : c < 0x80 || c > 0xbf) return i;
    }
    i += length;
  }
  return -1;
}

/** `invalid UTF-8 at byte 42 (0xff), line 3, column 7; …`: where the first bad byte is. */
export function invalidUtf8Words(bytes: Uint8Array, offset: number): string {
  let line = 1;
  let column = 1;
  for (let i = 0; i < offset; i++) {
    const b = bytes[i]!;
    if (b === 0x0a) {
      line++;
      column = 1;
    } else if ((b & 0xc0) !== 0x80) {
      // Columns count UTF-16 code units, as an editor does: a 4-byte sequence is two of them.
      column += b >= 0xf0 ? 2 : 1;
    }
  }
  return `invalid UTF-8 at byte ${offset} (0x${bytes[offset]!.toString(16).padStart(2, '0')}), line ${line}, column ${column}; the text must be UTF-8 (the byte is refused rather than replaced)`;
}
