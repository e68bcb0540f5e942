/**
 * Where a body stops being UTF-8. JSON text is UTF-8 (RFC 8259); decoding invalid bytes would replace them with
 * U+FFFD and store a value the client never sent (two different messageIds could become one), so ingestion
 * refuses the body and says where.
 */
import { isUtf8 } from 'node:buffer';
import { getLocation } from 'jsonc-parser';
import { invalidUtf8Words, scanInvalidUtf8 } from '../contract/utf8Text.js';

/** The byte offset of the first byte that is not part of a well-formed UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  return isUtf8(bytes) ? -1 : scanInvalidUtf8(bytes);
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
  return { ok: false, offset, line, column, message: invalidUtf8Words(bytes, offset) };
}
