/**
 * Where a body stops being UTF-8. JSON text is UTF-8 (RFC 8259); decoding invalid bytes would replace them with
 * U+FFFD and store a value the client never sent (two different messageIds could become one), so ingestion
 * refuses the body and says where.
 */
import { isUtf8 } from 'node:buffer';
import { getLocation } from 'jsonc-parser';

/** The byte offset of the first byte that is not part of a well-formed UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return -1;
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

/** `batch[2].messageId` from a JSON path; null for the top level. */
function fieldOf(path: readonly (string | number)[]): string | null {
  let field = '';
  for (const part of path) field += typeof part === 'number' ? `[${part}]` : field === '' ? part : `.${part}`;
  return field === '' ? null : field;
}

/**
 * The refusal for a body with invalid UTF-8: the JSON field the bad byte stands in (a key or a value), or only
 * the byte offset when it stands outside any.
 */
export function invalidUtf8Error(bytes: Uint8Array, offset: number): { field: string; message: string } {
  const prefix = Buffer.from(bytes.buffer, bytes.byteOffset, offset).toString('utf8');
  const location = getLocation(`${prefix}\uFFFD`, prefix.length);
  const where = `byte ${offset} (0x${bytes[offset]!.toString(16).padStart(2, '0')})`;
  if (location.isAtPropertyKey) {
    // The path ends with the key being read, which is the invalid text itself: name the object that holds it.
    const field = fieldOf(location.path.slice(0, -1)) ?? 'body';
    return { field, message: `${field}: a key has invalid UTF-8 at ${where}; JSON must be UTF-8` };
  }
  const field = fieldOf(location.path);
  return field === null
    ? { field: 'body', message: `body: invalid UTF-8 at ${where}; JSON must be UTF-8` }
    : { field, message: `${field}: invalid UTF-8 at ${where}; JSON must be UTF-8 (the value is refused rather than changed)` };
}

export type Utf8Decoded = { ok: true; text: string } | { ok: false; offset: number; line: number; column: number; message: string };

/**
 * Text a person gave as bytes (a file, stdin, --data), decoded only when it is UTF-8: one decoder for every
 * face, so a bad byte is refused with where it is (`invalid UTF-8 at byte 42 (0xff), line 3, column 7`)
 * rather than stored or sent as U+FFFD.
 */
export function decodeUtf8(bytes: Uint8Array): Utf8Decoded {
  const offset = firstInvalidUtf8(bytes);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (offset < 0) return { ok: true, text: buffer.toString('utf8') };
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  const column = buffer.subarray(lineStart, offset).toString('utf8').length + 1;
  const message = `invalid UTF-8 at byte ${offset} (0x${bytes[offset]!.toString(16).padStart(2, '0')}), line ${line}, column ${column}; the text must be UTF-8 (the byte is refused rather than replaced)`;
  return { ok: false, offset, line, column, message };
}
